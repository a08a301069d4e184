import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { bytea, createdAt } from '@/lib/server/infra/db/columns';

/** Infrastructure's own tables (rate limits, the mail outbox, media), each written only by its module (eslint/table-owners.js). */

/** Fixed-window counters shared by every app server. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull().default(0),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  windowEnd: timestamp('window_end', { withTimezone: true }).notNull(),
});

/**
 * Binary images by content hash: generated product art (SVG sources), uploaded
 * profile pictures (WebP) and cached renditions (`{hash}.{width}.{format}`).
 */
export const media = pgTable('media', {
  hash: text('hash').primaryKey(),
  contentType: text('content_type').notNull(),
  bytes: bytea('bytes').notNull(),
  width: integer('width'),
  height: integer('height'),
  createdAt: createdAt(),
});

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('mail_outbox_to_idx').on(t.to, t.createdAt)],
);
