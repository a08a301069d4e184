import { sql } from 'drizzle-orm';
import { bigint, check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ONLINE_CHANNELS } from '@/lib/domain/payment-methods';
import { PAYMENT_STATUS_LIST, PAYMENT_STATUSES, type PaymentStatus } from '@/lib/domain/payments';
import { users } from '@/lib/server/accounts/tables';
import { createdAt, money } from '@/lib/server/infra/db/columns';

/** The payments feature's tables: only its modules write them, each table by its owner in eslint/table-owners.js (lint rule house/table-writes). */

/** Payment states as SQL literals, for a partial index's condition (written into the migration as it is, where a parameter has no place). */
const statusesSql = (...states: PaymentStatus[]) => sql.raw(states.map((state) => `'${state}'`).join(', '));

export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reference: text('reference').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** The checkout's cart (a checkout payment only: an exchange's difference has none). */
    cartId: uuid('cart_id'),
    /**
     * on_delivery: nothing is charged online (the whole order is paid at the door); store_credit: the
     * shopper's store credit covers everything. Both have amount_minor 0.
     */
    provider: text('provider', { enum: ['simulated', 'paystack', 'on_delivery', 'store_credit'] }).notNull(),
    /** What the payment is for: a checkout (becomes an order), or the difference of a dearer exchange (return_id). */
    purpose: text('purpose', { enum: ['checkout', 'exchange_difference'] }).notNull().default('checkout'),
    returnId: uuid('return_id'),
    amountMinor: money('amount_minor'),
    currency: text('currency').notNull(),
    email: text('email').notNull(),
    /** The payment's state (PAYMENT_STATUSES in src/lib/domain/payments.ts, which says how it moves). */
    status: text('status', { enum: PAYMENT_STATUS_LIST }).notNull().default(PAYMENT_STATUSES.initialized),
    /** Refunded so far, in minor units (never more than amount_minor). */
    refundedMinor: bigint('refunded_minor', { mode: 'number' }).notNull().default(0),
    /** A refund claimed and sent to the provider but not yet recorded; blocks a second one meanwhile. */
    refundPendingMinor: bigint('refund_pending_minor', { mode: 'number' }),
    /** The key of the claim in progress (an owed refund's), sent to the provider: a claim found after a crash is finished with the same key, never paid twice. */
    refundPendingKey: text('refund_pending_key'),
    /** When the latest refund was recorded, and the provider's id for it. */
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    refundId: text('refund_id'),
    /** The checkout as priced when payment started: lines, fee, option, address. */
    snapshot: jsonb('snapshot').notNull(),
    /** The channel the shopper paid through, as the provider reports it (card, bank_transfer, ussd, bank, eft…); null until known. */
    channel: text('channel', { enum: ONLINE_CHANNELS }),
    /**
     * A checkout attempt's key, sent by its form or island (`Idempotency-Key` on the API), unique per
     * shopper: a resend with it answers this payment. `request_digest` is what the attempt asked for
     * (a resend asking for something else is refused); null for payments started without a key.
     */
    idempotencyKey: text('idempotency_key'),
    requestDigest: text('request_digest'),
    /** Where the shopper pays: the provider's page, or the return page of a payment charging nothing. A resend answers it again. */
    authorizationUrl: text('authorization_url'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payments_user_idx').on(t.userId),
    uniqueIndex('payments_idempotency_key_idx').on(t.userId, t.idempotencyKey).where(sql`${t.idempotencyKey} is not null`),
    // A checkout's start looks for the open payment of its cart (under the cart's row lock).
    index('payments_cart_open_idx').on(t.cartId).where(sql`${t.status} in (${statusesSql(PAYMENT_STATUSES.initialized, PAYMENT_STATUSES.paid)})`),
    check('payments_on_delivery_charges_nothing', sql`${t.provider} not in ('on_delivery', 'store_credit') or ${t.amountMinor} = 0`),
    check('payments_difference_has_return', sql`(${t.purpose} = 'exchange_difference') = (${t.returnId} is not null)`),
    check('payments_checkout_has_cart', sql`${t.purpose} <> 'checkout' or ${t.cartId} is not null`),
    index('payments_return_idx').on(t.returnId),
    // The sweeps every app server runs every few seconds look only at payments still in motion: a
    // few rows among a million settled ones, found by these small partial indexes.
    index('payments_open_idx').on(t.createdAt).where(sql`${t.status} in (${statusesSql(PAYMENT_STATUSES.initialized, PAYMENT_STATUSES.pending, PAYMENT_STATUSES.paid)})`),
    index('payments_pending_idx').on(t.provider, t.updatedAt).where(sql`${t.status} = ${statusesSql(PAYMENT_STATUSES.pending)}`),
    index('payments_needs_refund_idx').on(t.createdAt).where(sql`${t.status} = ${statusesSql(PAYMENT_STATUSES.needs_refund)}`),
    index('payments_refund_claimed_idx').on(t.updatedAt).where(sql`${t.refundPendingMinor} is not null`),
  ],
);
