import { createHash, randomBytes } from 'node:crypto';
import { chosenPickupPointSchema } from '@/lib/server/delivery/pickup-points';
import { and, asc, desc, eq, inArray, isNull, lte, ne, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { AppError, Conflict, Forbidden, Invalid, NotFound, PaymentFailed } from '@/lib/domain/errors';
import { DEFAULT_MARKET, marketOfCurrency, type MarketCode } from '@/lib/domain/markets';
import { CHECKOUT_PAYMENT_CHOICES, MARKET_CHANNELS, type OnlineChannel } from '@/lib/domain/payment-methods';
import { toMajor, type CurrencyCode } from '@/lib/domain/money';
import type { OrderDto } from '@/lib/domain/orders';
import { COUNTRIES } from '@/lib/domain/geo';
import { message } from '@/lib/domain/messages';
import { DELIVERY_OPTIONS, DELIVERY_SPEED_IDS } from '@/lib/domain/shipping';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { pgError } from '@/lib/server/infra/db/pg-errors';
import { orders, payments } from '@/lib/server/infra/db/schema';
import type { Logger } from '@/lib/server/infra/log';
import type { PaymentProvider, PaymentRecords } from './port';

/**
 * Payments: the one owner of the payments table. A payment is started (initiate), turned once into
 * what it paid for (fulfil), refunded (refund), and reconciled by the job that calls these
 * (src/lib/server/payments/reconciliation.ts). Providers are adapters behind the port; they never write here.
 */

/** What was priced and paid for: the order is built from this, not from the cart as it is later. */
export const paymentSnapshotSchema = z.object({
  cartId: z.string(),
  callbackUrl: z.string(),
  deliveryOption: z.enum(DELIVERY_OPTIONS),
  /** The delivery's speed (absent in snapshots from before speeds: null). */
  deliverySpeed: z.enum(DELIVERY_SPEED_IDS).nullable().default(null),
  shipTo: z.object({
    id: z.string(),
    name: z.string(),
    country: z.enum(COUNTRIES),
    state: z.string(),
    city: z.string(),
    address: z.string(),
    zipCode: z.string(),
    landmark: z.string().optional(),
    deliveryPhone: z.string().optional(),
  }),
  lines: z.array(
    z.object({
      variantId: z.number().int(),
      productId: z.number().int(),
      productName: z.string(),
      productImage: z.string(),
      color: z.string().nullable(),
      size: z.string().nullable(),
      quantity: z.number().int().min(1),
      unitPriceMinor: z.number().int(),
      lineTotalMinor: z.number().int(),
      /** The line's share of the discount (absent in snapshots from before discounts: 0). */
      discountMinor: z.number().int().min(0).default(0),
    }),
  ),
  subtotalMinor: z.number().int(),
  /** The applied code's discount (absent before discounts: 0); total = subtotal - discount + delivery. */
  discountMinor: z.number().int().min(0).default(0),
  discountCode: z.string().nullable().default(null),
  promotionId: z.number().int().nullable().default(null),
  codeId: z.number().int().nullable().default(null),
  deliveryFeeMinor: z.number().int(),
  totalMinor: z.number().int(),
  /** Pay on delivery: what is left to pay at the door; the payment charges the rest (a deposit, or nothing). */
  paymentMethod: z.enum(CHECKOUT_PAYMENT_CHOICES).default('online'),
  dueOnDeliveryMinor: z.number().int().min(0).default(0),
  /** Store credit used: spent with the payment row, given back if it never becomes an order. */
  storeCreditMinor: z.number().int().min(0).default(0),
  /** A gift (phone in E.164) and its wrapping's fee, in totalMinor (absent before gifts: none, 0). */
  gift: z
    .object({ recipientName: z.string(), recipientPhone: z.string(), message: z.string(), wrap: z.boolean(), hidePrices: z.boolean() })
    .nullable()
    .default(null),
  giftWrapMinor: z.number().int().min(0).default(0),
  /** A courier pickup point (PUDO locker) the parcel goes to; its fee is deliveryFeeMinor (absent before pickup points: none). */
  pickupPoint: chosenPickupPointSchema.nullable().default(null),
});
/** A snapshot as checkout writes it (every field), and as it is read back (defaults filled in). */
export type PaymentSnapshot = z.output<typeof paymentSnapshotSchema>;

/** What an exchange's difference pays for: the dearer variant of a return, then back to the order's page. */
export const differenceSnapshotSchema = z.object({
  kind: z.literal('exchange_difference'),
  callbackUrl: z.string(),
  orderId: z.string(),
  returnId: z.string(),
  returnReference: z.string(),
});
export type DifferenceSnapshot = z.output<typeof differenceSnapshotSchema>;

/** What a paid exchange difference becomes: its return marked paid (src/lib/server/aftersales/returns.ts). */
export interface DifferenceFulfilment {
  /** Inside the payment's row lock: records the difference paid on the return and returns its order's id; CannotFulfil when the return no longer waits for it. */
  place(tx: Tx, payment: { id: string; returnId: string; amountMinor: number; currency: string }): Promise<string>;
  /** The order of a return (in `tx` when given). */
  orderOfReturn(returnId: string, tx?: Tx): Promise<string | null>;
  /** The order as its owner sees it. */
  order(orderId: string): Promise<OrderDto>;
}

/** A payment the provider confirmed, as its fulfilment needs it. */
export interface ConfirmedPayment {
  id: string;
  reference: string;
  userId: string;
  cartId: string;
  currency: string;
  snapshot: PaymentSnapshot;
  /** The channel the provider reports it was paid through (null: not reported). */
  channel: OnlineChannel | null;
}

/** The payment cannot become what it paid for (`label` sold out while paying): it goes to refund. */
/** Why a confirmed payment cannot become what it paid for (logged, so the operator reads the real cause). */
export type CannotFulfilReason =
  | 'out_of_stock'
  /** The checkout's promotion code: its held place went to a newer payment and none is left. */
  | 'code_taken'
  /** The store credit the checkout spent was given back meanwhile. */
  | 'credit_given_back'
  /** An exchange difference for a return that no longer waits for it. */
  | 'return_not_waiting'
  /** Pay on delivery: the shopper's other orders placed meanwhile took the open-orders limit or the ceiling. */
  | 'pod_limit';

const CANNOT_FULFIL_LOG: Record<CannotFulfilReason, string> = {
  out_of_stock: 'paid checkout ran out of stock; payment needs a refund',
  code_taken: "paid checkout's discount code has no place left (it went to a newer payment); payment needs a refund",
  credit_given_back: "paid checkout's store credit was given back meanwhile; payment needs a refund",
  return_not_waiting: 'exchange difference paid for a return that no longer waits for it; payment needs a refund',
  pod_limit: "paid pay-on-delivery deposit would pass the shopper's open-orders limit or ceiling; payment needs a refund",
};

export class CannotFulfil extends Error {
  constructor(
    readonly reason: CannotFulfilReason,
    readonly label?: string,
  ) {
    super(label ? `${reason}: ${label}` : reason);
  }
}

/** What a confirmed payment becomes: the checkout's order (src/lib/server/checkout/checkout.ts). */
export interface Fulfilment {
  /** The order already made from this payment, if any (in `tx` when given: under the payment's row lock). */
  orderOf(paymentId: string, tx?: Tx): Promise<OrderDto | null>;
  /** Inside the payment's row lock: makes the order and returns its id; throws CannotFulfil when it cannot. */
  place(tx: Tx, payment: ConfirmedPayment): Promise<string>;
  /** After the commit, once, for the call that made the order (mail, caches): the order as its owner sees it. */
  placed(orderId: string, payment: ConfirmedPayment): Promise<OrderDto>;
}

/**
 * One attempt at a checkout (docs/decisions/0020): the shopper's key for it, if the form or client
 * sent one (a resend with the key answers the payment it started), a digest of what it asked for
 * (the same key asking for something else is refused), and the cart's row lock, taken first in the
 * transaction that creates the payment so that two starts of one cart go one after the other.
 */
export interface CheckoutAttempt {
  key: string | null;
  /** What the attempt asked for (its choices, not the cart): kept as a digest beside the key. */
  request: Record<string, unknown>;
  /** Takes the cart's row lock and returns what the cart holds now. */
  lockCart(tx: Tx): Promise<{ variantId: number; quantity: number }[]>;
}

/** A checkout's payment, as checkout starts it. */
export interface CheckoutStart {
  userId: string;
  email: string;
  currency: CurrencyCode;
  snapshot: PaymentSnapshot;
  /** Runs in the transaction that creates the payment row (a discount code's place, store credit); throwing refuses the payment. */
  hold?: ((tx: Tx, paymentId: string) => Promise<void>) | undefined;
  /** Pay on delivery's limits in that transaction: `lock` first of all (the shopper's row, before the cart's), `check` before the payment row; throwing refuses the payment. */
  guard?: CheckoutGuard | undefined;
  attempt?: CheckoutAttempt | undefined;
}

export interface CheckoutGuard {
  lock(tx: Tx): Promise<void>;
  check(tx: Tx): Promise<void>;
}

/** How a checkout is paid now: online through the provider, or nothing now (wholly on delivery, or store credit covering it). */
export type CheckoutCharge = 'online' | 'on_delivery' | 'store_credit';

/** The payment a key started, as a resend of that attempt needs it. */
export interface StartedAttempt {
  reference: string;
  provider: string;
  userId: string;
  requestDigest: string | null;
}

/**
 * An open checkout payment of the same cart asking for exactly the same is that attempt again (a
 * double tap, a form sent twice, going back from the payment page) for this long: it is answered
 * instead of a second payment. After that the shopper's new start replaces it (ADR 0011).
 */
export const SAME_CHECKOUT_REUSE_MS = 30 * 60_000;
/** How long a resend waits for the first start's answer from the provider (its timeout is 15 s). */
const STARTED_ANSWER_WAIT_MS = 20_000;

/** JSON with its keys sorted: a snapshot read back from jsonb compares equal to the one written. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** What a checkout attempt asked for, as kept beside its key. */
const digestOf = (request: Record<string, unknown>) => createHash('sha256').update(canonicalJson(request)).digest('hex');

/** Whether the cart still holds exactly the lines that were priced. */
function holdsLines(held: { variantId: number; quantity: number }[], lines: { variantId: number; quantity: number }[]): boolean {
  if (held.length !== lines.length) return false;
  const want = new Map(lines.map((l) => [l.variantId, l.quantity]));
  return held.every((h) => want.get(h.variantId) === h.quantity);
}

/** The return page of a payment (like Paystack's redirect: ?trxref=&reference=). */
function returnUrl(callbackUrl: string, reference: string): string {
  const back = new URL(callbackUrl);
  back.searchParams.set('trxref', reference);
  back.searchParams.set('reference', reference);
  return back.toString();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface InitiateResult {
  reference: string;
  authorization_url: string;
  amount: number;
  currency: CurrencyCode;
}

export interface RefundResult {
  reference: string;
  status: 'refunded' | 'partially_refunded';
  /** Paid, refunded in total so far, and refunded by this call (0 when it was already refunded), in minor units. */
  amountMinor: number;
  refundedMinor: number;
  refundedNowMinor: number;
  currency: string;
  refundId: string | null;
  refundedAt: Date | null;
}

/**
 * What a waiting payment holds besides its row: a discount code's place under its limits
 * (src/lib/server/promotions/promotions.ts). Taken in the transaction that creates the payment
 * (initiate's `hold`), given back in the transaction that settles a payment without an order
 * (failed, declined, abandoned, or paid but impossible to fulfil). Idempotent.
 */
export interface PaymentHolds {
  release(tx: Tx, paymentId: string): Promise<void>;
}
const NO_HOLDS: PaymentHolds = { release: async () => {} };

/**
 * The account of what a refund gives back (the order's money, src/lib/server/orders/order-money.ts):
 * told, in the payment's own transactions, when a refund is claimed (it may refuse: more than the
 * order has left), let go, and recorded with the amount the provider refunded.
 */
export interface RefundLedger {
  claimed(tx: Tx, payment: { id: string; currency: string }, amountMinor: number): Promise<void>;
  released(tx: Tx, payment: { id: string; currency: string }, amountMinor: number): Promise<void>;
  recorded(tx: Tx, payment: { id: string; currency: string }, claimedMinor: number, refundedMinor: number): Promise<void>;
}
const NO_LEDGER: RefundLedger = { claimed: async () => {}, released: async () => {}, recorded: async () => {} };

/** Runs inside a refund claim's transaction, with the amount claimed (see refund). */
export type RefundClaimHook = (tx: Tx, claim: { amountMinor: number }) => Promise<void>;

/** Payment states that can have an order; an order found for one is the answer to fulfil. */
const MAY_HAVE_ORDER = ['fulfilled', 'partially_refunded', 'refunded'] as const;
/** Payment states that will never become an order (their money goes back). */
const REFUND_STATES = ['needs_refund', 'partially_refunded', 'refunded'] as const;
/** Payment states a refund can start from. */
const REFUNDABLE = ['fulfilled', 'needs_refund', 'partially_refunded'] as const;

/** Paystack allows letters, digits, '-', '.' and '='. */
const newReferenceAt = (now: Date) => `ML-${now.getTime().toString(36).toUpperCase()}-${randomBytes(8).toString('hex')}`;

const includes = <T extends string>(list: readonly T[], value: string): value is T => (list as readonly string[]).includes(value);

/**
 * Whether a failed fulfil is a final business outcome (unknown reference, declined, amount
 * mismatch, sold out and queued for refund): retrying will not change it. Anything else
 * (provider unreachable, payment still pending, database error) did not finish.
 */
export function fulfilmentIsFinal(err: unknown): boolean {
  if (!(err instanceof AppError) || err.code === 'unavailable') return false;
  if (err instanceof PaymentFailed) {
    const status = err.details?.paymentStatus;
    return status !== 'pending' && status !== 'unknown';
  }
  return true;
}

/** The payment record as a provider that runs inside the store reads it (the port's PaymentRecords). */
export function paymentRecords(db: Db): PaymentRecords {
  return {
    async find(reference) {
      const [row] = await db
        .select({
          status: payments.status,
          amountMinor: payments.amountMinor,
          refundedMinor: payments.refundedMinor,
          currency: payments.currency,
          channel: payments.channel,
          updatedAt: payments.updatedAt,
        })
        .from(payments)
        .where(eq(payments.reference, reference))
        .limit(1);
      return row ?? null;
    },
  };
}

export function createPaymentService(deps: {
  db: Db;
  provider: PaymentProvider;
  fulfilment: Fulfilment;
  log: Logger;
  clock: () => Date;
  holds?: PaymentHolds | undefined;
  /** Exchange differences; without it, such payments cannot be fulfilled. */
  differences?: DifferenceFulfilment | undefined;
  /** The order's money account, told of every refund (ADR 0021). */
  refundLedger?: RefundLedger | undefined;
}) {
  const { db, provider, fulfilment, log, clock } = deps;
  const holds = deps.holds ?? NO_HOLDS;
  const accountLedger = deps.refundLedger ?? NO_LEDGER;
  const newReference = () => newReferenceAt(clock());

  /** A payment that will never become an order: its new status and its holds given back, together. */
  async function settleWithoutOrder(payment: SQL, status: 'failed' | 'abandoned' | 'needs_refund', from: SQL | undefined): Promise<boolean> {
    return db.transaction(async (tx) => {
      const rows = await tx
        .update(payments)
        .set({ status, updatedAt: clock() })
        .where(and(payment, from))
        .returning({ id: payments.id });
      for (const row of rows) await holds.release(tx, row.id);
      return rows.length > 0;
    });
  }

  async function markNeedsRefund(paymentId: string) {
    await settleWithoutOrder(eq(payments.id, paymentId), 'needs_refund', ne(payments.status, 'fulfilled'));
  }

  const refundMessage = (label?: string) =>
    label
      ? `Sorry, ${label} sold out while you were paying. Your payment will be refunded.`
      : 'This payment could not be turned into an order. It will be refunded.';

  /** The channels a payment in `currency` is offered: its market's. */
  const channelsOf = (currency: string): readonly OnlineChannel[] => MARKET_CHANNELS[marketOfCurrency(currency)?.code ?? DEFAULT_MARKET];

  type StartInput = {
    userId: string;
    email: string;
    currency: CurrencyCode;
    snapshot: PaymentSnapshot | DifferenceSnapshot;
    hold?: ((tx: Tx, paymentId: string) => Promise<void>) | undefined;
    guard?: CheckoutGuard | undefined;
    attempt?: CheckoutAttempt | undefined;
  };
  type Started = { reference: string; paymentId: string } | { existing: StartedAttempt };

  /**
   * The payment row of a checkout and its holds (a discount code's place, store credit), in one
   * transaction. A checkout attempt takes its cart's row lock first; then the payment its key
   * started, or an open payment of the cart asking for exactly the same, is that attempt again
   * (`existing`: nothing new is created or held); a payment of the cart paid and being placed
   * refuses a different start; and a cart that no longer holds what was priced is looked at again.
   */
  async function startPayment(
    input: StartInput,
    how: { provider: PaymentProvider['name'] | 'on_delivery' | 'store_credit'; amountMinor: number; status: 'initialized' | 'paid' },
  ): Promise<Started> {
    const { snapshot, attempt } = input;
    const purpose = 'kind' in snapshot ? { purpose: 'exchange_difference' as const, returnId: snapshot.returnId, cartId: null } : { purpose: 'checkout' as const, cartId: snapshot.cartId };
    const reference = newReference();
    const chargesNothing = how.provider === 'on_delivery' || how.provider === 'store_credit';
    const started = { reference: payments.reference, provider: payments.provider, userId: payments.userId, requestDigest: payments.requestDigest };
    try {
      return await db.transaction(async (tx): Promise<Started> => {
        await input.guard?.lock(tx);
        if (attempt && !('kind' in snapshot)) {
          const held = await attempt.lockCart(tx);
          if (attempt.key) {
            const [same] = await tx
              .select(started)
              .from(payments)
              .where(and(eq(payments.userId, input.userId), eq(payments.idempotencyKey, attempt.key)));
            if (same) {
              if (same.requestDigest !== digestOf(attempt.request)) throw new Conflict(message('checkout-key-reused'));
              return { existing: same };
            }
          }
          const open = await tx
            .select({ ...started, status: payments.status, snapshot: payments.snapshot, createdAt: payments.createdAt })
            .from(payments)
            .where(and(eq(payments.cartId, snapshot.cartId), eq(payments.purpose, 'checkout'), inArray(payments.status, ['initialized', 'paid'])))
            .orderBy(desc(payments.createdAt));
          const asked = canonicalJson(snapshot);
          for (const p of open) {
            const same = canonicalJson(p.snapshot) === asked;
            if (p.status === 'paid') {
              // Paid online, its shopper not back yet: the return, webhook or reconciliation places it; this start is another.
              if (p.provider !== 'on_delivery' && p.provider !== 'store_credit') continue;
              // Charging nothing, it is being placed at this moment by the start that made it: the same start is
              // answered with that order, and a different one waits for it.
              if (same) return { existing: p };
              throw new Conflict(message('checkout-in-progress'));
            }
            if (same && p.createdAt.getTime() > clock().getTime() - SAME_CHECKOUT_REUSE_MS) return { existing: p };
          }
          if (!holdsLines(held, snapshot.lines)) throw held.length === 0 ? new Invalid(message('cart-empty')) : new Conflict(message('cart-changed-at-checkout'));
        }
        await input.guard?.check(tx);
        const [row] = await tx
          .insert(payments)
          .values({
            reference,
            userId: input.userId,
            ...purpose,
            ...how,
            currency: input.currency,
            email: input.email,
            snapshot: input.snapshot,
            idempotencyKey: attempt?.key ?? null,
            requestDigest: attempt ? digestOf(attempt.request) : null,
            // Nothing to pay online: the shopper goes straight to the return page, which finds the order.
            authorizationUrl: chargesNothing ? returnUrl(input.snapshot.callbackUrl, reference) : null,
            // Reconciliation measures a payment's age on the same clock.
            createdAt: clock(),
            updatedAt: clock(),
          })
          .returning({ id: payments.id });
        await input.hold?.(tx, row!.id);
        return { reference, paymentId: row!.id };
      });
    } catch (err) {
      // The same key started by another server at this very moment (the unique index): that start is the answer.
      if (attempt?.key && pgError(err).code === '23505') {
        const [same] = await db
          .select(started)
          .from(payments)
          .where(and(eq(payments.userId, input.userId), eq(payments.idempotencyKey, attempt.key)));
        if (same && same.requestDigest === digestOf(attempt.request)) return { existing: same };
        if (same) throw new Conflict(message('checkout-key-reused'));
      }
      throw err;
    }
  }

  /** A payment charged online: its row (and holds), then the provider's payment page; a refused start fails the row and frees its key. */
  async function startOnline(input: StartInput, amountMinor: number): Promise<InitiateResult | { existing: StartedAttempt }> {
    const started = await startPayment(input, { provider: provider.name, amountMinor, status: 'initialized' });
    if ('existing' in started) return started;
    const { reference, paymentId } = started;
    let authorizationUrl: string;
    try {
      ({ authorizationUrl } = await provider.initialize({
        reference,
        email: input.email,
        amountMinor,
        currency: input.currency,
        callbackUrl: input.snapshot.callbackUrl,
        channels: channelsOf(input.currency),
      }));
    } catch (err) {
      await db.transaction(async (tx) => {
        const rows = await tx
          .update(payments)
          .set({ status: 'failed', idempotencyKey: null, updatedAt: clock() })
          .where(eq(payments.id, paymentId))
          .returning({ id: payments.id });
        for (const row of rows) await holds.release(tx, row.id);
      });
      throw err;
    }
    // Kept for a resend of the same attempt, which answers this page again.
    await db.update(payments).set({ authorizationUrl }).where(eq(payments.id, paymentId));
    return { reference, authorization_url: authorizationUrl, amount: toMajor(amountMinor), currency: input.currency };
  }

  /**
   * The answer of a checkout payment started before by the same attempt: its page once the provider
   * has given it (waiting while the first start is still asking), or for a payment charging nothing,
   * its order (fulfil: the one placing it, or the one already placed) and the return page. Null when
   * that start failed meanwhile: the caller starts afresh.
   */
  async function answerStarted(p: StartedAttempt): Promise<InitiateResult | null> {
    if (p.provider === 'on_delivery' || p.provider === 'store_credit') await service.fulfil(p.reference, { userId: p.userId });
    const deadline = Date.now() + STARTED_ANSWER_WAIT_MS;
    for (;;) {
      const [row] = await db
        .select({ status: payments.status, authorizationUrl: payments.authorizationUrl, amountMinor: payments.amountMinor, currency: payments.currency })
        .from(payments)
        .where(eq(payments.reference, p.reference));
      if (row?.authorizationUrl) return { reference: p.reference, authorization_url: row.authorizationUrl, amount: toMajor(row.amountMinor), currency: row.currency as CurrencyCode };
      if (!row || row.status === 'failed') return null;
      if (Date.now() > deadline) throw new Conflict(message('checkout-still-starting'));
      await sleep(100);
    }
  }

  /** The order a payment already became, if any: its checkout's order, or for an exchange difference, its return's order. */
  async function existingOrder(payment: { id: string; purpose: string; returnId: string | null }, tx?: Tx): Promise<OrderDto | null> {
    if (payment.purpose === 'checkout') return fulfilment.orderOf(payment.id, tx);
    const orderId = deps.differences && payment.returnId ? await deps.differences.orderOfReturn(payment.returnId, tx) : null;
    return orderId ? deps.differences!.order(orderId) : null;
  }

  /**
   * A verified exchange difference: under the payment's row lock its return is marked paid (once);
   * a return that no longer waits for it (rejected, or paid by another payment) sends it to refund.
   */
  async function fulfilDifference(payment: typeof payments.$inferSelect, channel: OnlineChannel | null): Promise<{ order: OrderDto; created: boolean }> {
    const differences = deps.differences;
    if (!differences || !payment.returnId) throw new Error('exchange difference payments need the returns fulfilment');
    const returnId = payment.returnId;
    let outcome: { orderId: string; created: boolean } | 'refund';
    try {
      outcome = await db.transaction(async (tx) => {
        const [locked] = await tx.select().from(payments).where(eq(payments.id, payment.id)).for('update');
        if (includes(MAY_HAVE_ORDER, locked!.status)) {
          const orderId = await differences.orderOfReturn(returnId, tx);
          if (orderId) return { orderId, created: false };
        }
        if (includes(REFUND_STATES, locked!.status) || locked!.refundPendingMinor !== null) return 'refund' as const;
        const orderId = await differences.place(tx, { id: payment.id, returnId, amountMinor: payment.amountMinor, currency: payment.currency });
        await tx.update(payments).set({ status: 'fulfilled', channel, updatedAt: clock() }).where(eq(payments.id, payment.id));
        return { orderId, created: true };
      });
    } catch (err) {
      if (!(err instanceof CannotFulfil)) throw err;
      await markNeedsRefund(payment.id);
      log.warn(CANNOT_FULFIL_LOG[err.reason], { reference: payment.reference, reason: err.reason, returnId });
      throw new PaymentFailed(message('return-difference-not-needed'));
    }
    if (outcome === 'refund') throw new PaymentFailed(message('return-difference-not-needed'));
    return { order: await differences.order(outcome.orderId), created: outcome.created };
  }

  /** What the simulated payment page shows. */
  async function simulatedPayment(reference: string) {
    if (provider.name !== 'simulated') throw new NotFound('Payment not found');
    const [payment] = await db.select().from(payments).where(eq(payments.reference, reference)).limit(1);
    if (!payment) throw new NotFound('Payment not found');
    const snapshot = payment.purpose === 'checkout' ? paymentSnapshotSchema.parse(payment.snapshot) : differenceSnapshotSchema.parse(payment.snapshot);
    return {
      reference,
      email: payment.email,
      amount: toMajor(payment.amountMinor),
      currency: payment.currency as CurrencyCode,
      status: payment.status,
      itemCount: 'lines' in snapshot ? snapshot.lines.reduce((n, l) => n + l.quantity, 0) : 1,
      callbackUrl: snapshot.callbackUrl,
      channel: payment.channel,
      channels: channelsOf(payment.currency),
    };
  }

  const service = {
    /** Stores a payment for what the checkout priced (the snapshot), and asks the provider for a payment page. */
    async initiate(input: CheckoutStart): Promise<InitiateResult> {
      return service.startCheckout(input, 'online');
    },

    /**
     * A checkout's payment (docs/decisions/0020): online, its row and the provider's page; charging
     * nothing now (the whole order paid on delivery, or store credit covering it), its row created
     * paid and fulfilled at once (the stock is taken now), answered with the return page. A start
     * that is the same attempt again (its key, or the same cart asking for the same while its payment
     * is open) is answered with that payment instead, so one attempt makes one payment and one order.
     */
    async startCheckout(input: CheckoutStart, charge: CheckoutCharge): Promise<InitiateResult> {
      const { snapshot } = input;
      for (let tries = 0; ; tries++) {
        let started: InitiateResult | { existing: StartedAttempt };
        if (charge === 'online') {
          // Pay on delivery with a deposit: the deposit is charged online, the rest at the door; store credit comes off first.
          started = await startOnline(input, snapshot.totalMinor - snapshot.dueOnDeliveryMinor - snapshot.storeCreditMinor);
        } else {
          const r = await service.startWithoutCharge(charge, input);
          started = { existing: r.existing ?? { reference: r.reference, provider: charge, userId: input.userId, requestDigest: null } };
        }
        if (!('existing' in started)) return started;
        const answer = await answerStarted(started.existing);
        if (answer) return answer;
        // The first start failed meanwhile (the provider refused it, freeing its key): once more, afresh.
        if (tries > 0) throw new Conflict(message('checkout-still-starting'));
      }
    },

    /**
     * A checkout attempt sent again (its key): the answer of the payment it started, or null when it
     * started none (it was refused before its payment, or the provider refused it: it may start now).
     * The same key asking for something else is refused.
     */
    async resumeCheckout(userId: string, attempt: Pick<CheckoutAttempt, 'key' | 'request'>): Promise<InitiateResult | null> {
      if (!attempt.key) return null;
      const [first] = await db
        .select({ reference: payments.reference, provider: payments.provider, userId: payments.userId, requestDigest: payments.requestDigest })
        .from(payments)
        .where(and(eq(payments.userId, userId), eq(payments.idempotencyKey, attempt.key)));
      if (!first) return null;
      if (first.requestDigest !== digestOf(attempt.request)) throw new Conflict(message('checkout-key-reused'));
      return answerStarted(first);
    },

    /**
     * The difference of a dearer exchange, paid online before staff approve the return;
     * the provider's return and webhook fulfil it like a checkout (fulfil), marking the return paid.
     */
    async initiateDifference(input: { userId: string; email: string; currency: CurrencyCode; amountMinor: number; snapshot: DifferenceSnapshot }): Promise<InitiateResult> {
      if (!Number.isInteger(input.amountMinor) || input.amountMinor <= 0) throw new Error('initiateDifference: the difference must be positive');
      const started = await startOnline(input, input.amountMinor);
      if ('existing' in started) throw new Error('initiateDifference: an exchange difference has no checkout attempt');
      return started;
    },

    /**
     * A payment that charges nothing online, created paid, with its holds like any payment (a code's
     * place, the store credit it spends): the whole order paid on delivery (provider on_delivery), or
     * store credit covering what is paid now (store_credit). The caller fulfils it at once; a crash
     * before that leaves a paid payment that reconciliation fulfils. The same attempt again answers
     * the payment it started (`existing`).
     */
    async startWithoutCharge(provider: 'on_delivery' | 'store_credit', input: CheckoutStart): Promise<{ reference: string; existing?: StartedAttempt }> {
      const { snapshot } = input;
      const nothingNow = snapshot.dueOnDeliveryMinor + snapshot.storeCreditMinor === snapshot.totalMinor;
      if (!nothingNow || (provider === 'on_delivery') !== (snapshot.paymentMethod === 'on_delivery')) {
        throw new Error(`startWithoutCharge(${provider}): the order must leave nothing to pay online`);
      }
      const started = await startPayment(input, { provider, amountMinor: 0, status: 'paid' });
      return 'existing' in started ? { reference: started.existing.reference, existing: started.existing } : { reference: started.reference };
    },

    /**
     * The one path from a payment to an order, used by place-order, the return page, the webhook and
     * reconciliation. Verifies with the provider, then under a row lock on the payment has the
     * fulfilment make the order (its stock, its lines, the cart) and marks the payment fulfilled.
     * Repeated or concurrent calls get the same order.
     */
    async fulfil(reference: string, opts: { userId?: string; signedBy?: MarketCode } = {}): Promise<{ order: OrderDto; created: boolean }> {
      const [payment] = await db.select().from(payments).where(eq(payments.reference, reference)).limit(1);
      if (!payment) throw new NotFound('Payment reference not found.');
      if (opts.userId && payment.userId !== opts.userId) throw new Forbidden('This payment belongs to another account');
      // A webhook speaks for one market's Paystack account; it cannot settle another market's payment.
      if (opts.signedBy && marketOfCurrency(payment.currency)?.code !== opts.signedBy) {
        log.warn('payment webhook from another market\'s account', { reference, currency: payment.currency, signedBy: opts.signedBy });
        throw new Forbidden('This payment belongs to another market\'s account');
      }
      if (includes(MAY_HAVE_ORDER, payment.status)) {
        const existing = await existingOrder(payment);
        if (existing) return { order: existing, created: false };
      }
      if (includes(REFUND_STATES, payment.status)) throw new PaymentFailed(refundMessage());

      // Nothing was charged online for an order paid wholly on delivery or with store credit: no provider to ask.
      const chargesNothing = payment.provider === 'on_delivery' || payment.provider === 'store_credit';
      const verification =
        chargesNothing
          ? { status: payment.status === 'paid' ? ('success' as const) : ('failed' as const), amountMinor: 0, currency: payment.currency }
          : await provider.verify(reference, payment.currency);
      if (verification.status !== 'success') {
        if (verification.status === 'failed' || verification.status === 'reversed') {
          await settleWithoutOrder(eq(payments.id, payment.id), 'failed', inArray(payments.status, ['initialized', 'pending', 'abandoned']));
        }
        if (verification.status === 'pending') {
          // The money is on its way (a bank transfer): no order until the provider confirms it.
          await db
            .update(payments)
            .set({ status: 'pending', channel: verification.channel ?? payment.channel, updatedAt: clock() })
            .where(and(eq(payments.id, payment.id), inArray(payments.status, ['initialized', 'abandoned'])));
        }
        throw new PaymentFailed(
          verification.status === 'failed' ? 'The payment was declined.' : 'The payment has not been completed.',
          { paymentStatus: verification.status },
        );
      }
      if (verification.amountMinor !== payment.amountMinor || verification.currency.toUpperCase() !== payment.currency) {
        log.error('payment amount mismatch', {
          reference,
          expected: payment.amountMinor,
          paid: verification.amountMinor,
          currency: verification.currency,
        });
        await markNeedsRefund(payment.id);
        throw new PaymentFailed('The amount paid does not match the order. The payment will be refunded.');
      }

      if (payment.purpose === 'exchange_difference') return fulfilDifference(payment, verification.channel ?? payment.channel ?? null);

      const confirmed: ConfirmedPayment = {
        id: payment.id,
        reference,
        userId: payment.userId,
        cartId: payment.cartId!,
        currency: payment.currency,
        snapshot: paymentSnapshotSchema.parse(payment.snapshot),
        channel: verification.channel ?? payment.channel ?? null,
      };
      let outcome: { orderId: string } | { existing: OrderDto } | 'refund' | 'failed';
      try {
        outcome = await db.transaction(async (tx) => {
          const [locked] = await tx.select().from(payments).where(eq(payments.id, payment.id)).for('update');
          if (includes(MAY_HAVE_ORDER, locked!.status)) {
            const existing = await fulfilment.orderOf(payment.id, tx);
            if (existing) return { existing };
          }
          // Refunded (or being refunded) without an order: it never becomes one.
          if (includes(REFUND_STATES, locked!.status) || locked!.refundPendingMinor !== null) return 'refund' as const;
          // A payment charging nothing that another call just failed (sold out) never becomes an order.
          if (chargesNothing && locked!.status !== 'paid') return 'failed' as const;
          const orderId = await fulfilment.place(tx, confirmed);
          await tx.update(payments).set({ status: 'fulfilled', channel: confirmed.channel, updatedAt: clock() }).where(eq(payments.id, payment.id));
          return { orderId };
        });
      } catch (err) {
        if (err instanceof CannotFulfil && chargesNothing) {
          // Nothing to refund: the payment simply fails, and its code's place is given back.
          await settleWithoutOrder(eq(payments.id, payment.id), 'failed', eq(payments.status, 'paid'));
          throw new PaymentFailed(err.label ? `${err.label} is out of stock` : message('pod-order-unavailable'));
        }
        if (err instanceof CannotFulfil) {
          await markNeedsRefund(payment.id);
          log.warn(CANNOT_FULFIL_LOG[err.reason], { reference, reason: err.reason, item: err.label });
          throw new PaymentFailed(refundMessage(err.label));
        }
        throw err;
      }
      if (outcome === 'refund') throw new PaymentFailed(refundMessage());
      if (outcome === 'failed') throw new PaymentFailed(message('pod-order-unavailable'));
      if ('existing' in outcome) return { order: outcome.existing, created: false };
      return { order: await fulfilment.placed(outcome.orderId, confirmed), created: true };
    },

    /** Payments started before `startedBefore` still unanswered, pending (a transfer on its way), or paid without an order: reconciliation verifies these. Oldest first. */
    async unsettled({ startedBefore, limit = 100 }: { startedBefore: Date; limit?: number }) {
      return db
        .select({ reference: payments.reference, status: payments.status, createdAt: payments.createdAt })
        .from(payments)
        .where(and(inArray(payments.status, ['initialized', 'pending', 'paid']), lte(payments.createdAt, startedBefore)))
        .orderBy(asc(payments.createdAt))
        .limit(limit);
    },

    /** The back office's refund queue: payments waiting for a refund, with what staff need to act on them. */
    async refundQueue({ limit = 50 }: { limit?: number } = {}) {
      return db
        .select({
          reference: payments.reference,
          email: payments.email,
          amountMinor: payments.amountMinor,
          refundedMinor: payments.refundedMinor,
          currency: payments.currency,
          inProgress: sql<boolean>`${payments.refundPendingMinor} is not null`,
          since: payments.updatedAt,
          orderId: orders.id,
        })
        .from(payments)
        .leftJoin(orders, eq(orders.paymentId, payments.id))
        .where(eq(payments.status, 'needs_refund'))
        .orderBy(asc(payments.updatedAt))
        .limit(limit);
    },

    /** Payments that could not become an order and wait for their refund (none in progress). */
    async awaitingRefund({ limit = 100 }: { limit?: number } = {}) {
      return db
        .select({ reference: payments.reference })
        .from(payments)
        .where(and(eq(payments.status, 'needs_refund'), isNull(payments.refundPendingMinor)))
        .orderBy(asc(payments.createdAt))
        .limit(limit);
    },

    /** Refunds claimed but never recorded (the provider's answer was lost): staff check these with the provider. */
    async stuckRefunds(claimedBefore: Date) {
      return db
        .select({ reference: payments.reference, pendingMinor: payments.refundPendingMinor, since: payments.updatedAt })
        .from(payments)
        .where(and(sql`${payments.refundPendingMinor} is not null`, lte(payments.updatedAt, claimedBefore)));
    },

    /**
     * Gives up on a payment the shopper never completed, or a transfer that never arrived (the
     * provider let its window expire). A late payment is still fulfilled by the webhook or the return.
     */
    async abandon(reference: string): Promise<boolean> {
      return settleWithoutOrder(eq(payments.reference, reference), 'abandoned', inArray(payments.status, ['initialized', 'pending']));
    },

    /** Simulated bank transfers the shopper said were sent before `sentBefore`: due for the simulated provider's confirmation. */
    async pendingTransfers({ sentBefore, limit = 100 }: { sentBefore: Date; limit?: number }) {
      return db
        .select({ reference: payments.reference })
        .from(payments)
        .where(and(eq(payments.provider, 'simulated'), eq(payments.status, 'pending'), lte(payments.updatedAt, sentBefore)))
        .orderBy(asc(payments.updatedAt))
        .limit(limit);
    },

    /** The shopper's payments waiting for the provider to confirm them (transfers on their way), oldest first: the order history lists them. */
    async waitingFor(userId: string) {
      const rows = await db
        .select({ reference: payments.reference, amountMinor: payments.amountMinor, currency: payments.currency, channel: payments.channel, since: payments.updatedAt })
        .from(payments)
        .where(and(eq(payments.userId, userId), eq(payments.status, 'pending')))
        .orderBy(asc(payments.updatedAt))
        .limit(20);
      return rows.map((r) => ({ reference: r.reference, amount: toMajor(r.amountMinor), currency: r.currency as CurrencyCode, channel: r.channel, since: r.since }));
    },

    /**
     * Where the shopper's checkout payment stands, read without asking the provider (the webhook,
     * the simulated confirmations and reconciliation move it): still waiting for the money, placed
     * as an order, or neither (failed, abandoned, someone else's, unknown).
     */
    async checkoutState(reference: string, userId: string): Promise<{ state: 'waiting'; amount: number; currency: CurrencyCode } | { state: 'placed'; orderId: string } | { state: 'none' }> {
      const [payment] = await db.select().from(payments).where(and(eq(payments.reference, reference), eq(payments.userId, userId))).limit(1);
      if (!payment || payment.purpose !== 'checkout') return { state: 'none' };
      if (payment.status === 'pending') return { state: 'waiting', amount: toMajor(payment.amountMinor), currency: payment.currency as CurrencyCode };
      if (includes(MAY_HAVE_ORDER, payment.status)) {
        const order = await existingOrder(payment);
        if (order) return { state: 'placed', orderId: order.id };
      }
      return { state: 'none' };
    },

    /** The shopper's latest checkout payment waiting for its money (a transfer on its way), if any. */
    async latestWaiting(userId: string): Promise<string | null> {
      const [row] = await db
        .select({ reference: payments.reference })
        .from(payments)
        .where(and(eq(payments.userId, userId), eq(payments.status, 'pending'), eq(payments.purpose, 'checkout')))
        .orderBy(desc(payments.updatedAt))
        .limit(1);
      return row?.reference ?? null;
    },

    /** The shopper's payment while it waits for the provider to confirm it (a transfer on its way); null otherwise. */
    async waiting(reference: string, userId: string) {
      const [row] = await db
        .select({ amountMinor: payments.amountMinor, currency: payments.currency, channel: payments.channel })
        .from(payments)
        .where(and(eq(payments.reference, reference), eq(payments.userId, userId), eq(payments.status, 'pending')))
        .limit(1);
      return row ? { amount: toMajor(row.amountMinor), currency: row.currency as CurrencyCode, channel: row.channel } : null;
    },

    /**
     * Refunds a payment through the provider: what is left of it without an amount, otherwise
     * `amountMinor`. Idempotent: a payment already refunded in full is answered from its record
     * and the provider is not asked again; a refund in progress blocks a second one (Conflict).
     * The claim is taken under a row lock before the provider is called and the result recorded
     * after, so two calls can never both refund. If the provider's answer is lost (unreachable,
     * timeout) the claim stays: staff check the provider and `npm run payments -- release REF`.
     *
     * `refundedBefore`: what the caller saw refunded when it decided (the back office form sends
     * it), so a form sent twice cannot refund twice: the second finds more refunded and is refused.
     * `onClaim` runs inside the claim's transaction (the audit row of the claim), so a claim is
     * never left without it, whatever becomes of the provider's answer.
     */
    async refund(
      reference: string,
      amountMinor?: number,
      opts: { refundedBefore?: number; onClaim?: RefundClaimHook; key?: string; accounted?: boolean } = {},
    ): Promise<RefundResult> {
      if (amountMinor !== undefined && (!Number.isInteger(amountMinor) || amountMinor <= 0)) {
        throw new Invalid('The refund amount must be a positive whole number of minor units');
      }
      // An owed refund's amount is in its order's account from the moment it was owed.
      const ledger = opts.accounted ? NO_LEDGER : accountLedger;
      const claim = await db.transaction(async (tx) => {
        const [p] = await tx.select().from(payments).where(eq(payments.reference, reference)).for('update');
        if (!p) throw new NotFound('Payment reference not found.');
        // The same key's claim, left by a process that died while the provider was asked: asked again
        // with that key (the provider pays a key once), then recorded.
        if (opts.key && p.refundPendingKey === opts.key && p.refundPendingMinor !== null) {
          return { payment: p, amount: p.refundPendingMinor, whole: false };
        }
        if (p.refundPendingMinor !== null) throw new Conflict('A refund of this payment is already in progress');
        if (opts.refundedBefore !== undefined && p.refundedMinor !== opts.refundedBefore) {
          throw new Conflict('This payment has been refunded since the page was opened. Check the amounts and try again.');
        }
        const left = p.amountMinor - p.refundedMinor;
        if (p.status === 'refunded' || (includes(REFUNDABLE, p.status) && left <= 0)) return { done: p };
        if (!includes(REFUNDABLE, p.status)) throw new Conflict(`A payment that is ${p.status.replace('_', ' ')} cannot be refunded`);
        const amount = amountMinor ?? left;
        if (amount > left) throw new Invalid(`At most ${left} (minor units) of this payment can still be refunded`);
        await tx.update(payments).set({ refundPendingMinor: amount, refundPendingKey: opts.key ?? null, updatedAt: clock() }).where(eq(payments.id, p.id));
        await ledger.claimed(tx, p, amount);
        await opts.onClaim?.(tx, { amountMinor: amount });
        return { payment: p, amount, whole: amountMinor === undefined && p.refundedMinor === 0 };
      });
      const summary = (p: typeof payments.$inferSelect, now: number): RefundResult => ({
        reference,
        status: p.status === 'refunded' || p.refundedMinor >= p.amountMinor ? 'refunded' : 'partially_refunded',
        amountMinor: p.amountMinor,
        refundedMinor: p.refundedMinor,
        refundedNowMinor: now,
        currency: p.currency,
        refundId: p.refundId,
        refundedAt: p.refundedAt,
      });
      if (claim.done) return summary(claim.done, 0);

      const { payment, amount, whole } = claim;
      let refund;
      try {
        // A whole refund leaves the amount to the provider: it returns what was actually charged.
        refund = await provider.refund(reference, whole ? undefined : amount, payment.currency, opts.key);
      } catch (err) {
        if (err instanceof PaymentFailed) {
          // Refused: nothing was refunded, so the claim is let go.
          await db.transaction(async (tx) => {
            await tx.update(payments).set({ refundPendingMinor: null, refundPendingKey: null, updatedAt: clock() }).where(eq(payments.id, payment.id));
            await ledger.released(tx, payment, amount);
          });
        } else {
          log.error('refund outcome unknown; the claim is kept until staff check the provider', { reference, amountMinor: amount, err });
        }
        throw err;
      }
      const recorded = await db.transaction(async (tx) => {
        const [now] = await tx.select().from(payments).where(eq(payments.id, payment.id)).for('update');
        // A keyed claim finished meanwhile by another worker that took it over: recorded once.
        if (opts.key && now!.refundPendingKey !== opts.key) return { row: now!, again: true };
        const refundedMinor = now!.refundedMinor + refund.amountMinor;
        const [row] = await tx
          .update(payments)
          .set({
            status: whole || refundedMinor >= payment.amountMinor ? 'refunded' : 'partially_refunded',
            refundedMinor,
            refundPendingMinor: null,
            refundPendingKey: null,
            refundedAt: clock(),
            refundId: refund.refundId,
            updatedAt: clock(),
          })
          .where(eq(payments.id, payment.id))
          .returning();
        await ledger.recorded(tx, payment, amount, refund.amountMinor);
        return { row: row!, again: false };
      });
      if (recorded.again) return summary(recorded.row, 0);
      log.info('payment refunded', { reference, refundedMinor: refund.amountMinor, refundId: refund.refundId, provider: provider.name });
      return summary(recorded.row, refund.amountMinor);
    },

    /** Lets go of a refund claim whose outcome was lost, after staff checked with the provider that nothing was refunded. */
    async releaseRefundClaim(reference: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [p] = await tx.select().from(payments).where(eq(payments.reference, reference)).for('update');
        if (!p || p.refundPendingMinor === null) return false;
        await tx.update(payments).set({ refundPendingMinor: null, refundPendingKey: null, updatedAt: clock() }).where(eq(payments.id, p.id));
        // A keyed claim is an owed refund's, whose amount stays owed in its order's account (the worker tries it again).
        if (!p.refundPendingKey) await accountLedger.released(tx, p, p.refundPendingMinor);
        return true;
      });
    },

    simulatedPayment,

    /**
     * Pay (through one of the market's channels), "I have sent the money" (a bank transfer: pending
     * until the simulated provider confirms it), or Decline on the simulated page, kept on the
     * payment (so every app server sees it; the simulated provider reads it back through the port).
     * Only an unanswered payment changes. Returns where to send the shopper (like Paystack: ?trxref=&reference=).
     */
    async answerSimulated(reference: string, outcome: 'pay' | 'sent' | 'decline', channel: OnlineChannel = outcome === 'sent' ? 'bank_transfer' : 'card'): Promise<string> {
      const payment = await simulatedPayment(reference);
      if (!payment.channels.includes(channel) || (outcome === 'sent') !== (channel === 'bank_transfer')) {
        throw new Invalid(message('payment-channel-not-offered'));
      }
      let answered: boolean;
      if (outcome === 'decline') {
        answered = await settleWithoutOrder(eq(payments.reference, reference), 'failed', eq(payments.status, 'initialized'));
      } else {
        const rows = await db
          .update(payments)
          // The transfer's clock starts now (updated_at): the simulated provider confirms it after its delay.
          .set({ status: outcome === 'sent' ? 'pending' : 'paid', channel, updatedAt: clock() })
          .where(and(eq(payments.reference, reference), eq(payments.status, 'initialized')))
          .returning({ id: payments.id });
        answered = rows.length > 0;
      }
      if (!answered) throw new Conflict('This payment has already been answered');
      return returnUrl(payment.callbackUrl, reference);
    },
  };
  return service;
}
export type PaymentService = ReturnType<typeof createPaymentService>;

/**
 * An account's deletion: its payments keep their amounts and references for the books, with the
 * anonymous address for the e-mail and a delivery's ship-to cut to city and state (cutAddress).
 */
export async function anonymisePaymentsOf(tx: Db | Tx, userId: string, anonymous: string, erasedName: string): Promise<void> {
  await tx.update(payments).set({ email: anonymous }).where(eq(payments.userId, userId));
  await tx
    .update(payments)
    .set({
      snapshot: sql`jsonb_set(${payments.snapshot}, '{shipTo}', jsonb_build_object(
        'id', '', 'name', ${erasedName}::text, 'address', '', 'zipCode', '',
        'country', ${payments.snapshot}->'shipTo'->'country', 'state', ${payments.snapshot}->'shipTo'->'state', 'city', ${payments.snapshot}->'shipTo'->'city'))`,
    })
    .where(and(eq(payments.userId, userId), eq(payments.purpose, 'checkout'), sql`${payments.snapshot}->>'deliveryOption' = 'delivery'`));
}
