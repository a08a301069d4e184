import { bigint, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { MARKET_CODES } from '@/lib/domain/markets';
import { users } from '@/lib/server/accounts/tables';
import { createdAt } from '@/lib/server/infra/db/columns';

/** The privacy feature's tables: only its modules write them, each table by its owner in eslint/table-owners.js (lint rule house/table-writes). */

/**
 * A shopper's request for a copy of their data or for their account's deletion that came by mail
 * or phone, recorded by staff with its deadline (the market's privacy_request_days). Written only by
 * privacy/requests.ts.
 */
export const dataRequests = pgTable(
  'data_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The account it concerns (its anonymous id once erased). */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind', { enum: ['export', 'erasure'] }).notNull(),
    channel: text('channel', { enum: ['mail', 'phone'] }).notNull(),
    market: text('market', { enum: MARKET_CODES }).notNull(),
    note: text('note').notNull().default(''),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    status: text('status', { enum: ['open', 'done'] }).notNull().default('open'),
    doneAt: timestamp('done_at', { withTimezone: true }),
    recordedBy: uuid('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    doneBy: uuid('done_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('data_requests_open_idx').on(t.status, t.dueAt), index('data_requests_user_idx').on(t.userId)],
);

/** Each time staff opened a customer's record in the back office: owners read it for breach questions. Written only by privacy/views.ts. */
export const customerViews = pgTable(
  'customer_views',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => users.id),
    staffId: uuid('staff_id').references(() => users.id, { onDelete: 'set null' }),
    staffEmail: text('staff_email').notNull(),
    viewedAt: timestamp('viewed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('customer_views_customer_idx').on(t.customerId, t.viewedAt)],
);
