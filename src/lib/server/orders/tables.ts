import { sql } from 'drizzle-orm';
import { bigint, boolean, check, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ORDER_MONEY_KINDS } from '@/lib/domain/order-money';
import { ORDER_STATUSES } from '@/lib/domain/orders';
import { COLLECTION_METHODS, COLLECTION_OUTCOMES, PAYMENT_METHODS } from '@/lib/domain/payment-methods';
import type { ChosenLocker } from '@/lib/domain/lockers';
import { DELIVERY_OPTIONS, DELIVERY_SPEED_IDS } from '@/lib/domain/shipping';
import { users } from '@/lib/server/accounts/tables';
import { products, variants } from '@/lib/server/catalogue/tables';
import { createdAt, money } from '@/lib/server/infra/db/columns';
import { payments } from '@/lib/server/payments/tables';
import { promotions } from '@/lib/server/promotions/tables';

/** The orders feature's tables: only its modules write them, each table by its owner in eslint/table-owners.js (lint rule house/table-writes). */

export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    trackingNumber: text('tracking_number').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    paymentId: uuid('payment_id')
      .notNull()
      .unique()
      .references(() => payments.id),
    status: text('status', { enum: ORDER_STATUSES })
      .notNull()
      .default('pending'),
    deliveryOption: text('delivery_option', { enum: DELIVERY_OPTIONS }).notNull(),
    /** The delivery's speed (null for pickup, and for orders from before speeds were chosen). */
    deliverySpeed: text('delivery_speed', { enum: DELIVERY_SPEED_IDS }),
    subtotalMinor: money('subtotal_minor'),
    /** Money off the subtotal from a discount code (0 without one); total = subtotal - discount + delivery. */
    discountMinor: bigint('discount_minor', { mode: 'number' }).notNull().default(0),
    /** The code as the shopper applied it, and its promotion; null without one. */
    discountCode: text('discount_code'),
    promotionId: integer('promotion_id').references(() => promotions.id),
    deliveryFeeMinor: money('delivery_fee_minor'),
    totalMinor: money('total_minor'),
    currency: text('currency').notNull(),
    /** Address as it was when ordered (delivery address, or the pickup store). */
    deliveryAddress: jsonb('delivery_address').notNull(),
    /** How it is paid: an online channel, or on_delivery (any deposit went online through the order's payment). */
    paymentMethod: text('payment_method', { enum: PAYMENT_METHODS }).notNull().default('card'),
    /** What is still to be paid at the door (minor units; 0 for an order paid online). */
    dueOnDeliveryMinor: bigint('due_on_delivery_minor', { mode: 'number' }).notNull().default(0),
    /** Pay on delivery, settled by staff: paid (with how and how much) or refused at the door; null while to collect. */
    collectionOutcome: text('collection_outcome', { enum: COLLECTION_OUTCOMES }),
    collectionMethod: text('collection_method', { enum: COLLECTION_METHODS }),
    collectedMinor: bigint('collected_minor', { mode: 'number' }),
    collectedAt: timestamp('collected_at', { withTimezone: true }),
    /** Store credit used at checkout (minor units); the payment charged total - due on delivery - this. */
    storeCreditMinor: bigint('store_credit_minor', { mode: 'number' }).notNull().default(0),
    /** When it was delivered (status delivered): the 3-day return window runs from here. */
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /** When the shopper cancelled it (status cancelled). */
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /**
     * A gift (ADR 0035): the recipient the courier calls (phone in E.164), the message for the
     * packing slip and whether it shows prices; null name for an order that is not a gift.
     */
    giftRecipientName: text('gift_recipient_name'),
    giftRecipientPhone: text('gift_recipient_phone'),
    giftMessage: text('gift_message'),
    giftHidePrices: boolean('gift_hide_prices').notNull().default(false),
    giftWrap: boolean('gift_wrap').notNull().default(false),
    /** Gift wrapping's fee (minor units; 0 without it): total = subtotal - discount + delivery + gift wrap. */
    giftWrapMinor: bigint('gift_wrap_minor', { mode: 'number' }).notNull().default(0),
    /**
     * A courier's locker the parcel goes to instead of the address (ADR 0041: a PUDO locker,
     * `{courier, id, name, address, city, distanceKm}`); null for delivery to the door and pickup.
     */
    locker: jsonb('locker').$type<ChosenLocker>(),
    /** The company the shopper bought for, printed on the tax invoice with its VAT number or TIN (null: none given). */
    buyerCompany: text('buyer_company'),
    buyerTaxNumber: text('buyer_tax_number'),
    /** When the confirmation mail went out; null until then (reconciliation sends it if a crash lost it). */
    confirmationMailedAt: timestamp('confirmation_mailed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('orders_user_idx').on(t.userId, t.createdAt),
    // The back office's orders list (newest first, paged by key on both) and the dashboard's last 30 days.
    index('orders_created_idx').on(t.createdAt, t.id),
    // The orders list filtered by status: a rare status must not be found by walking every newer order.
    index('orders_status_created_idx').on(t.status, t.createdAt, t.id),
    // The orders list's search by any part of a tracking number.
    index('orders_tracking_trgm_idx').using('gin', sql`${t.trackingNumber} gin_trgm_ops`),
    // The dashboard's cash collected at the door.
    index('orders_collected_idx').on(t.collectionOutcome).where(sql`${t.collectionOutcome} is not null`),
    index('orders_unmailed_idx').on(t.createdAt).where(sql`${t.confirmationMailedAt} is null`),
    // The back office's "To collect" list.
    index('orders_to_collect_idx')
      .on(t.createdAt)
      .where(sql`${t.paymentMethod} = 'on_delivery' and ${t.collectionOutcome} is null`),
    check('orders_due_on_delivery_only', sql`${t.paymentMethod} = 'on_delivery' or ${t.dueOnDeliveryMinor} = 0`),
    check('orders_gift_whole', sql`(${t.giftRecipientName} is null) = (${t.giftRecipientPhone} is null)`),
    check('orders_gift_wrap_fee', sql`${t.giftWrapMinor} >= 0 and (${t.giftWrap} or ${t.giftWrapMinor} = 0)`),
  ],
);

/**
 * Orders and their totals per UTC day, currency and status: the dashboard's rollup, so
 * its figures read a few hundred rows rather than a million orders. Kept by the database itself:
 * the triggers of migration 0016 add each inserted, changed or deleted order's difference, in the
 * same transaction. Nothing else writes it.
 */
export const orderDailyTotals = pgTable(
  'order_daily_totals',
  {
    day: date('day', { mode: 'string' }).notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    orders: integer('orders').notNull(),
    totalMinor: money('total_minor'),
  },
  (t) => [primaryKey({ columns: [t.day, t.currency, t.status] })],
);

/**
 * Units sold per UTC day, order status and product (as the line names it): the dashboard's top
 * products and return rate, a few thousand rows a day instead of every order line of 30
 * days. Kept by the database: the triggers of migration 0017 follow inserted, changed and deleted
 * order lines and every order whose status or day changes. Nothing else writes it.
 */
export const productDailySales = pgTable(
  'product_daily_sales',
  {
    day: date('day', { mode: 'string' }).notNull(),
    status: text('status').notNull(),
    productId: integer('product_id').notNull(),
    productName: text('product_name').notNull(),
    units: integer('units').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.status, t.productId, t.productName] })],
);

export const orderItems = pgTable(
  'order_items',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    variantId: integer('variant_id')
      .notNull()
      .references(() => variants.id),
    productName: text('product_name').notNull(),
    productImage: text('product_image').notNull(),
    color: text('color'),
    size: text('size'),
    quantity: integer('quantity').notNull(),
    unitPriceMinor: money('unit_price_minor'),
    lineTotalMinor: money('line_total_minor'),
    /** This line's share of the order's discount (spread in proportion; the shares add up to the whole). */
    discountMinor: bigint('discount_minor', { mode: 'number' }).notNull().default(0),
    /** Units staff refunded from the back office's line refund: never returned (or refunded) again. */
    refundedQuantity: integer('refunded_quantity').notNull().default(0),
  },
  (t) => [index('order_items_order_idx').on(t.orderId), check('order_items_refunded_within', sql`${t.refundedQuantity} between 0 and ${t.quantity}`)],
);

/**
 * Refunds an order owes (ADR 0024): written in the transaction that owes them (a cancel, a refused
 * delivery's deposit, a rejected exchange's difference), paid by the refund worker on every server
 * (orders/owed-refunds.ts, the one writer). `lease_until` marks a row being paid; a lease that ran
 * out (the server died) lets another worker finish it with the same provider key.
 */
export const owedRefunds = pgTable(
  'owed_refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** The payment it goes back to (null for store credit). */
    paymentId: uuid('payment_id'),
    returnId: uuid('return_id'),
    amountMinor: money('amount_minor'),
    currency: text('currency').notNull(),
    destination: text('destination', { enum: ['payment', 'store_credit'] }).notNull(),
    reason: text('reason').notNull(),
    /** owed: waiting for the worker; paid; failed: the provider refused it too often (staff may retry); stuck: its outcome is unknown (staff check the provider). */
    status: text('status', { enum: ['owed', 'paid', 'failed', 'stuck'] }).notNull().default('owed'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** The provider's last answer (its refusal, or its refund id once paid). */
    lastAnswer: text('last_answer'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('owed_refunds_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'owed'`),
    index('owed_refunds_order_idx').on(t.orderId),
    index('owed_refunds_status_idx').on(t.status, t.createdAt),
    check('owed_refunds_positive', sql`${t.amountMinor} > 0`),
    check('owed_refunds_payment_has_one', sql`(${t.destination} = 'payment') = (${t.paymentId} is not null)`),
  ],
);

/**
 * The money of an order, one row per amount that came in or went back (ADR 0019): charged online,
 * collected at the door, store credit used, an exchange difference paid (positive); refunded to a
 * payment, a released refund claim (positive), credited, transferred (negative). Written in the
 * transaction that moves the money, only by orders/order-money.ts; what an order may still give back
 * is read from here.
 */
export const orderMoney = pgTable(
  'order_money',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ORDER_MONEY_KINDS }).notNull(),
    amountMinor: money('amount_minor'),
    currency: text('currency').notNull(),
    /** The line and how many of its units it concerns (a line refund, a return), where it does. */
    orderItemId: integer('order_item_id'),
    units: integer('units'),
    /** What moved it: the payment (charged, refunded), the return (credited, transferred, a difference). */
    paymentId: uuid('payment_id'),
    returnId: uuid('return_id'),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [
    index('order_money_order_idx').on(t.orderId, t.id),
    index('order_money_payment_idx').on(t.paymentId).where(sql`${t.paymentId} is not null`),
    check('order_money_nonzero', sql`${t.amountMinor} <> 0`),
    check(
      'order_money_signed',
      sql`(${t.kind} in ('charged', 'collected', 'credit_used', 'difference_paid', 'refund_released')) = (${t.amountMinor} > 0)`,
    ),
    // What comes in is written once: an order is charged, collected and paid with credit once, a difference paid once.
    uniqueIndex('order_money_once_in_uq').on(t.orderId, t.kind).where(sql`${t.kind} in ('charged', 'collected', 'credit_used')`),
    uniqueIndex('order_money_difference_once_uq').on(t.paymentId).where(sql`${t.kind} = 'difference_paid'`),
    // A return credits (or transfers) once; a cancelled order's credit comes back once.
    uniqueIndex('order_money_return_once_uq').on(t.returnId, t.kind).where(sql`${t.returnId} is not null and ${t.kind} in ('credited', 'transferred')`),
    uniqueIndex('order_money_cancel_credit_once_uq').on(t.orderId).where(sql`${t.returnId} is null and ${t.kind} = 'credited'`),
  ],
);

/** Status history of an order (who moved it, when). Written only by orders.ts. */
export const orderEvents = pgTable(
  'order_events',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('order_events_order_idx').on(t.orderId, t.createdAt)],
);
