import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { MARKET_CODES } from '@/lib/domain/markets';
import { users } from '@/lib/server/accounts/tables';
import { createdAt, money } from '@/lib/server/infra/db/columns';
import { orders } from '@/lib/server/orders/tables';
import { payments } from '@/lib/server/payments/tables';

/** The promotions feature's tables: only its modules write them, each table by its owner in eslint/table-owners.js (lint rule house/table-writes). */

/**
 * A promotion: what it takes off and when it may be used. Percentage off the eligible subtotal, or
 * a fixed amount per market (minor units; a market without an amount cannot use the code). Limits
 * are enforced by the database: `redemptions` counts held and used redemptions and may never pass
 * `usage_limit` (a conditional update plus a check). `system_key` names the store's own promotions
 * ('newsletter-welcome', whose codes are issued one per subscriber).
 */
export const promotions = pgTable(
  'promotions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    description: text('description').notNull().default(''),
    kind: text('kind', { enum: ['percent', 'fixed'] }).notNull(),
    percentOff: integer('percent_off'),
    /** Fixed amount off per market, minor units: { NG?: number, ZA?: number }. */
    amountOff: jsonb('amount_off').$type<Partial<Record<(typeof MARKET_CODES)[number], number>>>().notNull().default({}),
    /** Minimum subtotal per market, minor units: { NG?: number, ZA?: number }. */
    minSubtotal: jsonb('min_subtotal').$type<Partial<Record<(typeof MARKET_CODES)[number], number>>>().notNull().default({}),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    usageLimit: integer('usage_limit'),
    /** Held and used redemptions together (released ones give their place back). */
    redemptions: integer('redemptions').notNull().default(0),
    oncePerCustomer: boolean('once_per_customer').notNull().default(false),
    firstOrderOnly: boolean('first_order_only').notNull().default(false),
    /** Only lines of these categories count (and are discounted); null: every line. */
    categoryIds: integer('category_ids').array(),
    status: text('status', { enum: ['active', 'paused'] }).notNull().default('active'),
    systemKey: text('system_key').unique(),
    /** For issued codes (the welcome promotion): how many days each code is valid. */
    codeValidDays: integer('code_valid_days'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('promotions_percent_range', sql`${t.percentOff} is null or ${t.percentOff} between 1 and 100`),
    check('promotions_kind_amount', sql`(${t.kind} = 'percent') = (${t.percentOff} is not null)`),
    check('promotions_within_limit', sql`${t.usageLimit} is null or ${t.redemptions} <= ${t.usageLimit}`),
    check('promotions_redemptions_nonnegative', sql`${t.redemptions} >= 0`),
  ],
);

/**
 * The codes of a promotion, stored upper-case (codes are case-insensitive). A shared code is one
 * row; the welcome promotion issues one row per subscriber, bound to that e-mail, valid until
 * `expires_at`, usable once (`usage_limit` 1, counted in `redemptions` like the promotion's).
 */
export const promotionCodes = pgTable(
  'promotion_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    promotionId: integer('promotion_id')
      .notNull()
      .references(() => promotions.id, { onDelete: 'cascade' }),
    code: text('code').notNull().unique(),
    /** Only the account with this e-mail (lower-case) may use the code; null: anyone. */
    email: text('email'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    usageLimit: integer('usage_limit'),
    redemptions: integer('redemptions').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('promotion_codes_promotion_idx').on(t.promotionId),
    check('promotion_codes_within_limit', sql`${t.usageLimit} is null or ${t.redemptions} <= ${t.usageLimit}`),
    check('promotion_codes_redemptions_nonnegative', sql`${t.redemptions} >= 0`),
  ],
);

/**
 * A code's use by one payment: held when payment starts, used when the order is placed (same
 * transaction), released when the payment fails, is declined or abandoned. `customer_key` is the
 * shopper's id when the promotion is once per customer (null otherwise), so the unique index below
 * lets the database refuse a second live redemption by the same customer.
 */
export const promotionRedemptions = pgTable(
  'promotion_redemptions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    promotionId: integer('promotion_id')
      .notNull()
      .references(() => promotions.id),
    codeId: integer('code_id')
      .notNull()
      .references(() => promotionCodes.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    customerKey: uuid('customer_key'),
    paymentId: uuid('payment_id')
      .notNull()
      .unique()
      .references(() => payments.id),
    orderId: uuid('order_id').references(() => orders.id),
    state: text('state', { enum: ['held', 'used', 'released'] }).notNull().default('held'),
    discountMinor: money('discount_minor'),
    currency: text('currency').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('promotion_redemptions_once_per_customer_uq')
      .on(t.promotionId, t.customerKey)
      .where(sql`${t.customerKey} is not null and ${t.state} <> 'released'`),
    index('promotion_redemptions_promotion_idx').on(t.promotionId, t.state),
  ],
);
