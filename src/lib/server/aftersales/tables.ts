import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { HELP_STATUSES, HELP_TOPICS, RETURN_METHODS, RETURN_REASONS, RETURN_RESOLUTIONS, RETURN_STATUSES, STORE_CREDIT_KINDS } from '@/lib/domain/after-sales';
import { users } from '@/lib/server/accounts/tables';
import { variants } from '@/lib/server/catalogue/tables';
import { createdAt, money } from '@/lib/server/infra/db/columns';
import { orderItems, orders } from '@/lib/server/orders/tables';

/** The aftersales feature's tables: only its modules write them, each table by its owner in eslint/table-owners.js (lint rule house/table-writes). */

/**
 * A shopper's store credit per market currency (minor units), never negative: the sum of the
 * shopper's ledger rows in that currency. The row is locked to spend, so two checkouts spend once.
 * Written only by aftersales/store-credit.ts.
 */
export const storeCreditBalances = pgTable(
  'store_credit_balances',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    currency: text('currency').notNull(),
    balanceMinor: bigint('balance_minor', { mode: 'number' }).notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.currency] }), check('store_credit_nonnegative', sql`${t.balanceMinor} >= 0`)],
);

/** Every grant and use of store credit; a shopper's rows in a currency add up to the balance. Written only by aftersales/store-credit.ts. */
export const storeCreditEntries = pgTable(
  'store_credit_entries',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    currency: text('currency').notNull(),
    deltaMinor: bigint('delta_minor', { mode: 'number' }).notNull(),
    kind: text('kind', { enum: STORE_CREDIT_KINDS }).notNull(),
    reason: text('reason'),
    orderId: uuid('order_id'),
    paymentId: uuid('payment_id'),
    returnId: uuid('return_id'),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('store_credit_entries_user_idx').on(t.userId, t.currency, t.createdAt),
    check('store_credit_entries_nonzero', sql`${t.deltaMinor} <> 0`),
    // A payment spends once and is given back once; a return credits once; an order's credit comes back once.
    uniqueIndex('store_credit_once_per_payment_uq').on(t.paymentId, t.kind).where(sql`${t.paymentId} is not null and ${t.kind} in ('spend', 'release')`),
    uniqueIndex('store_credit_once_per_return_uq').on(t.returnId).where(sql`${t.returnId} is not null`),
    uniqueIndex('store_credit_once_per_cancellation_uq').on(t.orderId).where(sql`${t.kind} = 'cancellation'`),
  ],
);

/** A shopper's return or exchange of some of an order's lines. Written only by aftersales/returns/rows.ts. */
export const returns = pgTable(
  'returns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reference: text('reference').notNull().unique(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** A gift's return (ADR 0045): the recipient's account its money goes to, as store credit; null = the buyer (user_id). */
    creditUserId: uuid('credit_user_id').references(() => users.id),
    status: text('status', { enum: RETURN_STATUSES }).notNull().default('requested'),
    reason: text('reason', { enum: RETURN_REASONS }).notNull(),
    resolution: text('resolution', { enum: RETURN_RESOLUTIONS }).notNull(),
    method: text('method', { enum: RETURN_METHODS }).notNull(),
    currency: text('currency').notNull(),
    /** What was paid for the returned units (their lines' totals less discount shares), minor units. */
    paidMinor: money('paid_minor'),
    /** An exchange: new units' price less the returned units' price; > 0 the shopper pays it before approval, < 0 goes back at shipping. */
    differenceMinor: bigint('difference_minor', { mode: 'number' }).notNull().default(0),
    differencePaidAt: timestamp('difference_paid_at', { withTimezone: true }),
    rejectionReason: text('rejection_reason'),
    /** Where the money went when settled: to the payment, as store credit, by a bank transfer staff recorded. */
    refundedMinor: bigint('refunded_minor', { mode: 'number' }).notNull().default(0),
    creditedMinor: bigint('credited_minor', { mode: 'number' }).notNull().default(0),
    transferredMinor: bigint('transferred_minor', { mode: 'number' }).notNull().default(0),
    transferReference: text('transfer_reference'),
    /** Set while its money is being sent (claimed under the row lock); a second refund is refused meanwhile. */
    settlingAt: timestamp('settling_at', { withTimezone: true }),
    /** The exchange's parcel. */
    shipmentTracking: text('shipment_tracking'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('returns_order_idx').on(t.orderId), index('returns_status_idx').on(t.status, t.createdAt)],
);

/** A returned line: how many units, the exchange's variant, what staff received. Written only by aftersales/returns/rows.ts. */
export const returnItems = pgTable(
  'return_items',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    returnId: uuid('return_id')
      .notNull()
      .references(() => returns.id, { onDelete: 'cascade' }),
    orderItemId: integer('order_item_id')
      .notNull()
      .references(() => orderItems.id),
    quantity: integer('quantity').notNull(),
    /** The exchange's variant (same product), held through the stock ledger from the request; its unit price in the order's market. */
    exchangeVariantId: integer('exchange_variant_id').references(() => variants.id),
    exchangeUnitPriceMinor: bigint('exchange_unit_price_minor', { mode: 'number' }),
    receivedQuantity: integer('received_quantity'),
    damagedQuantity: integer('damaged_quantity'),
  },
  (t) => [
    index('return_items_return_idx').on(t.returnId),
    index('return_items_order_item_idx').on(t.orderItemId),
    check('return_items_quantity_positive', sql`${t.quantity} > 0`),
    check('return_items_received_within', sql`${t.receivedQuantity} is null or (${t.receivedQuantity} between 0 and ${t.quantity})`),
    check('return_items_damaged_within', sql`${t.damagedQuantity} is null or (${t.damagedQuantity} between 0 and coalesce(${t.receivedQuantity}, 0))`),
  ],
);

/** "Get help with this order": a shopper's request and its thread. Written only by aftersales/help.ts. */
export const helpRequests = pgTable(
  'help_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    topic: text('topic', { enum: HELP_TOPICS }).notNull(),
    status: text('status', { enum: HELP_STATUSES }).notNull().default('open'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('help_requests_order_idx').on(t.orderId), index('help_requests_status_idx').on(t.status, t.updatedAt)],
);

export const helpMessages = pgTable(
  'help_messages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => helpRequests.id, { onDelete: 'cascade' }),
    /** The shopper, or staff answering (actor_id). */
    fromStaff: boolean('from_staff').notNull(),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('help_messages_request_idx').on(t.requestId, t.createdAt)],
);
