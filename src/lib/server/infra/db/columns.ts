import { bigint, customType, timestamp } from 'drizzle-orm/pg-core';

/** Column types and helpers the features' tables files share. */

/** A full-text search document (PostgreSQL tsvector). */
export const tsvector = customType<{ data: string; driverData: string }>({
  dataType() {
    return 'tsvector';
  },
});

/** Raw bytes (images, gzip segments). PGlite and pg both hand back Uint8Array/Buffer. */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
});

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
/** Money is always integer minor units (kobo, cents). */
export const money = (name: string) => bigint(name, { mode: 'number' }).notNull();
