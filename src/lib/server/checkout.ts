import { randomBytes } from 'node:crypto';
import { and, asc, eq, gte, inArray, isNull, lte, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import { CART_FULL_MESSAGE, MAX_CART_LINES, variantLabel } from '../domain/cart';
import { AppError, Conflict, Forbidden, Invalid, NotFound, PaymentFailed } from '../domain/errors';
import { DEFAULT_MARKET, MARKETS, marketLabel, marketOfCountry, marketOfCurrency, type MarketCode } from '../domain/markets';
import { toMajor, type CurrencyCode } from '../domain/money';
import type { OrderDto } from '../domain/orders';
import { COUNTRIES } from '../domain/geo';
import { DELIVERY_OPTIONS, type AddressDto, type DeliveryOption } from '../domain/shipping';
import type { CartService } from './cart';
import type { Db, Tx } from './db/client';
import { cartItems, orders, payments, products, variants } from './db/schema';
import type { Logger } from './log';
import type { OrderService } from './orders';
import type { PaymentProvider } from './payments/port';
import type { SessionUser } from './sessions';
import { cacheTags, type PageCacheInvalidator } from './page-cache';

/** What was priced and paid for: the order is built from this, not from the cart as it is later. */
const snapshotSchema = z.object({
  cartId: z.string(),
  callbackUrl: z.string(),
  deliveryOption: z.enum(DELIVERY_OPTIONS),
  shipTo: z.object({
    id: z.string(),
    name: z.string(),
    country: z.enum(COUNTRIES),
    state: z.string(),
    city: z.string(),
    address: z.string(),
    zipCode: z.string(),
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
    }),
  ),
  subtotalMinor: z.number().int(),
  deliveryFeeMinor: z.number().int(),
  totalMinor: z.number().int(),
});
type Snapshot = z.infer<typeof snapshotSchema>;

class StockShortage extends Error {
  constructor(readonly label: string) {
    super(label);
  }
}

/** Payment states that can have an order; an order found for one is the answer to fulfil. */
const MAY_HAVE_ORDER = ['fulfilled', 'partially_refunded', 'refunded'] as const;
/** Payment states that will never become an order (their money goes back). */
const REFUND_STATES = ['needs_refund', 'partially_refunded', 'refunded'] as const;
/** Payment states a refund can start from. */
const REFUNDABLE = ['fulfilled', 'needs_refund', 'partially_refunded'] as const;

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

export interface InitiateResult {
  reference: string;
  authorization_url: string;
  amount: number;
  currency: CurrencyCode;
}

export function createCheckoutService(deps: {
  db: Db;
  cart: CartService;
  orders: OrderService;
  provider: PaymentProvider;
  log: Logger;
  siteUrl: string;
  clock: () => Date;
  pageCache: PageCacheInvalidator;
}) {
  const { db, cart, orders: orderService, provider, log, siteUrl, clock, pageCache } = deps;

  /**
   * Only callbacks on this site: an open redirect through the payment page is refused. `origin` is
   * the request's public origin (Astro.locals.publicOrigin); without one, the configured site.
   */
  function callbackFor(requested: string | undefined, origin: string | undefined): string {
    const site = new URL(origin ?? siteUrl);
    if (!requested) return new URL('/place-order?paid=true', site).toString();
    let url: URL;
    try {
      url = new URL(requested, site);
    } catch {
      throw new Invalid('callbackUrl must be a URL on this site');
    }
    if (url.origin !== site.origin) throw new Invalid('callbackUrl must be a URL on this site');
    return url.toString();
  }

  async function markNeedsRefund(paymentId: string) {
    await db
      .update(payments)
      .set({ status: 'needs_refund', updatedAt: clock() })
      .where(and(eq(payments.id, paymentId), ne(payments.status, 'fulfilled')));
  }

  const refundMessage = (label?: string) =>
    label
      ? `Sorry, ${label} sold out while you were paying. Your payment will be refunded.`
      : 'This payment could not be turned into an order. It will be refunded.';

  return {
    /** Prices the cart on the server, stores a payment with a snapshot, and asks the provider for a payment page. */
    async initiate(
      user: SessionUser,
      input: {
        callbackUrl?: string | undefined;
        deliveryOption?: DeliveryOption | undefined;
        market?: MarketCode | undefined;
        /** The public origin the shopper uses: the callback URL is on it. */
        site?: string | undefined;
      },
    ): Promise<InitiateResult> {
      const callbackUrl = callbackFor(input.callbackUrl, input.site);
      const market = input.market ?? DEFAULT_MARKET;
      let priced = await cart.price(user, market);
      // The checkout form sends the Delivery / Pickup choice along with PAY & PLACE ORDER.
      if (input.deliveryOption && input.deliveryOption !== priced.deliveryOption) {
        await cart.setDeliveryOption(user, priced.cartId, input.deliveryOption, market);
        priced = await cart.price(user, market);
      }
      if (priced.lines.length === 0) throw new Invalid('Your cart is empty');
      // A cart filled before the line limit existed is held to it at checkout too.
      if (priced.lines.length > MAX_CART_LINES) throw new Invalid(CART_FULL_MESSAGE, { maxLines: MAX_CART_LINES });
      for (const line of priced.lines) {
        const label = variantLabel(line.productName, line.color, line.size);
        if (!line.active) throw new Invalid(`${label} is no longer available`);
        if (!line.priced) throw new Invalid(`${label} is not sold in ${MARKETS[market].countryName}. Please remove it to continue.`);
        if (line.stock < line.quantity) {
          throw new Invalid(line.stock > 0 ? `Only ${line.stock} of ${label} left in stock` : `${label} is out of stock`);
        }
      }
      const inMarket = MARKETS[market];
      if (priced.deliveryOption === 'delivery' && priced.deliveryAddress && priced.deliveryAddress.country !== inMarket.country) {
        const other = marketOfCountry(priced.deliveryAddress.country);
        const where = other ? MARKETS[other].countryName : 'another country';
        throw new Invalid(
          `Your delivery address is in ${where}, but you are shopping in ${inMarket.countryName}. ` +
            `Shop in ${other ? marketLabel(other) : 'that country'} instead, choose pickup in ${inMarket.pickupCity}, or use an address in ${inMarket.countryName}.`,
          { switchMarket: other },
        );
      }
      const shipTo: AddressDto = priced.deliveryOption === 'delivery' && priced.deliveryAddress ? priced.deliveryAddress : priced.pickupAddress;
      const snapshot: Snapshot = {
        cartId: priced.cartId,
        callbackUrl,
        deliveryOption: priced.deliveryOption,
        shipTo,
        lines: priced.lines.map(({ stock: _s, active: _a, priced: _p, ...l }) => l),
        subtotalMinor: priced.subtotalMinor,
        deliveryFeeMinor: priced.deliveryFeeMinor,
        totalMinor: priced.totalMinor,
      };
      // Paystack allows letters, digits, '-', '.' and '='.
      const reference = `ML-${clock().getTime().toString(36).toUpperCase()}-${randomBytes(8).toString('hex')}`;
      await db.insert(payments).values({
        reference,
        userId: user.id,
        cartId: priced.cartId,
        provider: provider.name,
        amountMinor: priced.totalMinor,
        currency: priced.currency,
        email: user.email,
        snapshot,
        // Reconciliation measures a payment's age on the same clock.
        createdAt: clock(),
        updatedAt: clock(),
      });
      let authorizationUrl: string;
      try {
        ({ authorizationUrl } = await provider.initialize({
          reference,
          email: user.email,
          amountMinor: priced.totalMinor,
          currency: priced.currency,
          callbackUrl,
        }));
      } catch (err) {
        await db.update(payments).set({ status: 'failed', updatedAt: clock() }).where(eq(payments.reference, reference));
        throw err;
      }
      return { reference, authorization_url: authorizationUrl, amount: toMajor(priced.totalMinor), currency: priced.currency };
    },

    /**
     * The one path from a payment to an order, used by place-order and by the webhook.
     * Verifies with the provider, then under a row lock on the payment creates the order,
     * takes the stock and empties the cart. Repeated or concurrent calls get the same order.
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
        const existing = await orderService.findByPayment(payment.id);
        if (existing) return { order: existing, created: false };
      }
      if (includes(REFUND_STATES, payment.status)) throw new PaymentFailed(refundMessage());

      const verification = await provider.verify(reference, payment.currency);
      if (verification.status !== 'success') {
        if (verification.status === 'failed' || verification.status === 'reversed') {
          await db
            .update(payments)
            .set({ status: 'failed', updatedAt: clock() })
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

      const snapshot = snapshotSchema.parse(payment.snapshot);
      let outcome: { orderId: string; created: boolean } | 'refund';
      try {
        outcome = await db.transaction(async (tx) => {
          const [locked] = await tx.select().from(payments).where(eq(payments.id, payment.id)).for('update');
          if (includes(MAY_HAVE_ORDER, locked!.status)) {
            const [existing] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.paymentId, payment.id)).limit(1);
            if (existing) return { orderId: existing.id, created: false };
          }
          // Refunded (or being refunded) without an order: it never becomes one.
          if (includes(REFUND_STATES, locked!.status) || locked!.refundPendingMinor !== null) return 'refund' as const;
          // Lock variants in a fixed order so two checkouts sharing variants cannot deadlock.
          const lines = [...snapshot.lines].sort((a, b) => a.variantId - b.variantId);
          for (const line of lines) {
            const taken = await tx
              .update(variants)
              .set({ stock: sql`${variants.stock} - ${line.quantity}` })
              .where(and(eq(variants.id, line.variantId), gte(variants.stock, line.quantity)))
              .returning({ id: variants.id });
            if (taken.length === 0) throw new StockShortage(variantLabel(line.productName, line.color, line.size));
            await tx
              .update(products)
              .set({ salesCount: sql`${products.salesCount} + ${line.quantity}` })
              .where(eq(products.id, line.productId));
          }
          const orderId = await orderService.createPaid(tx, {
            userId: payment.userId,
            paymentId: payment.id,
            currency: payment.currency,
            deliveryOption: snapshot.deliveryOption as DeliveryOption,
            deliveryAddress: snapshot.shipTo,
            subtotalMinor: snapshot.subtotalMinor,
            deliveryFeeMinor: snapshot.deliveryFeeMinor,
            totalMinor: snapshot.totalMinor,
            lines: snapshot.lines,
          });
          await tx.delete(cartItems).where(
            and(
              eq(cartItems.cartId, payment.cartId),
              inArray(
                cartItems.variantId,
                snapshot.lines.map((l) => l.variantId),
              ),
            ),
          );
          await tx.update(payments).set({ status: 'fulfilled', updatedAt: clock() }).where(eq(payments.id, payment.id));
          return { orderId, created: true };
        });
      } catch (err) {
        if (err instanceof StockShortage) {
          await markNeedsRefund(payment.id);
          log.warn('paid checkout ran out of stock; payment needs a refund', { reference, item: err.label });
          throw new PaymentFailed(refundMessage(err.label));
        }
        throw err;
      }
      if (outcome === 'refund') throw new PaymentFailed(refundMessage());
      const order = (await orderService.load(outcome.orderId))!;
      if (outcome.created) {
        // Stock and best sellers changed: the pages showing these products are re-rendered.
        await pageCache.invalidate([...new Set(snapshot.lines.map((l) => cacheTags.product(l.productId)))]);
        await orderService.sendConfirmation(order, payment.userId);
      }
      return { order, created: outcome.created };
    },

    /** Payments started before `startedBefore` still unanswered, or paid without an order: reconciliation verifies these. Oldest first. */
    async unsettled({ startedBefore, limit = 100 }: { startedBefore: Date; limit?: number }) {
      return db
        .select({ reference: payments.reference, status: payments.status, createdAt: payments.createdAt })
        .from(payments)
        .where(and(inArray(payments.status, ['initialized', 'paid']), lte(payments.createdAt, startedBefore)))
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

    /**
     * Orders placed before `placedBefore` whose confirmation mail was never recorded as sent (the server
     * died or lost its database between placing the order and mailing it): mailed now. Returns how many.
     */
    async mailLostConfirmations({ placedBefore, limit = 100 }: { placedBefore: Date; limit?: number }): Promise<number> {
      const rows = await db
        .select({ id: orders.id, userId: orders.userId })
        .from(orders)
        .where(and(isNull(orders.confirmationMailedAt), lte(orders.createdAt, placedBefore)))
        .orderBy(asc(orders.createdAt))
        .limit(limit);
      let sent = 0;
      for (const row of rows) {
        const order = await orderService.load(row.id);
        if (order && (await orderService.sendConfirmation(order, row.userId))) sent++;
      }
      return sent;
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

    /** Gives up on a payment the shopper never completed. A late payment is still fulfilled by the webhook or the return. */
    async abandon(reference: string): Promise<boolean> {
      const rows = await db
        .update(payments)
        .set({ status: 'abandoned', updatedAt: clock() })
        .where(and(eq(payments.reference, reference), eq(payments.status, 'initialized')))
        .returning({ id: payments.id });
      return rows.length > 0;
    },

    /**
     * Refunds a payment through the provider: what is left of it without an amount, otherwise
     * `amountMinor`. Idempotent: a payment already refunded in full is answered from its record
     * and the provider is not asked again; a refund in progress blocks a second one (Conflict).
     * The claim is taken under a row lock before the provider is called and the result recorded
     * after, so two calls can never both refund. If the provider's answer is lost (unreachable,
     * timeout) the claim stays: staff check the provider and `npm run payments -- release REF`.
     */
    /**
     * `refundedBefore`: what the caller saw refunded when it decided (the back office form sends
     * it), so a form sent twice cannot refund twice: the second finds more refunded and is refused.
     * `onClaim` runs inside the claim's transaction (the audit row of the claim), so a claim is
     * never left without it, whatever becomes of the provider's answer.
     */
    async refund(
      reference: string,
      amountMinor?: number,
      opts: { refundedBefore?: number; onClaim?: RefundClaimHook } = {},
    ): Promise<RefundResult> {
      if (amountMinor !== undefined && (!Number.isInteger(amountMinor) || amountMinor <= 0)) {
        throw new Invalid('The refund amount must be a positive whole number of minor units');
      }
      const claim = await db.transaction(async (tx) => {
        const [p] = await tx.select().from(payments).where(eq(payments.reference, reference)).for('update');
        if (!p) throw new NotFound('Payment reference not found.');
        if (p.refundPendingMinor !== null) throw new Conflict('A refund of this payment is already in progress');
        if (opts.refundedBefore !== undefined && p.refundedMinor !== opts.refundedBefore) {
          throw new Conflict('This payment has been refunded since the page was opened. Check the amounts and try again.');
        }
        const left = p.amountMinor - p.refundedMinor;
        if (p.status === 'refunded' || (includes(REFUNDABLE, p.status) && left <= 0)) return { done: p };
        if (!includes(REFUNDABLE, p.status)) throw new Conflict(`A payment that is ${p.status.replace('_', ' ')} cannot be refunded`);
        const amount = amountMinor ?? left;
        if (amount > left) throw new Invalid(`At most ${left} (minor units) of this payment can still be refunded`);
        await tx.update(payments).set({ refundPendingMinor: amount, updatedAt: clock() }).where(eq(payments.id, p.id));
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
        refund = await provider.refund(reference, whole ? undefined : amount, payment.currency);
      } catch (err) {
        if (err instanceof PaymentFailed) {
          // Refused: nothing was refunded, so the claim is let go.
          await db.update(payments).set({ refundPendingMinor: null, updatedAt: clock() }).where(eq(payments.id, payment.id));
        } else {
          log.error('refund outcome unknown; the claim is kept until staff check the provider', { reference, amountMinor: amount, err });
        }
        throw err;
      }
      const refundedMinor = payment.refundedMinor + refund.amountMinor;
      const [recorded] = await db
        .update(payments)
        .set({
          status: whole || refundedMinor >= payment.amountMinor ? 'refunded' : 'partially_refunded',
          refundedMinor,
          refundPendingMinor: null,
          refundedAt: clock(),
          refundId: refund.refundId,
          updatedAt: clock(),
        })
        .where(eq(payments.id, payment.id))
        .returning();
      log.info('payment refunded', { reference, refundedMinor: refund.amountMinor, refundId: refund.refundId, provider: provider.name });
      return summary(recorded!, refund.amountMinor);
    },

    /** Lets go of a refund claim whose outcome was lost, after staff checked with the provider that nothing was refunded. */
    async releaseRefundClaim(reference: string): Promise<boolean> {
      const rows = await db
        .update(payments)
        .set({ refundPendingMinor: null, updatedAt: clock() })
        .where(and(eq(payments.reference, reference), sql`${payments.refundPendingMinor} is not null`))
        .returning({ id: payments.id });
      return rows.length > 0;
    },

    /** What the simulated payment page shows. */
    async simulatedPayment(reference: string) {
      if (provider.name !== 'simulated') throw new NotFound('Payment not found');
      const [payment] = await db.select().from(payments).where(eq(payments.reference, reference)).limit(1);
      if (!payment) throw new NotFound('Payment not found');
      const snapshot = snapshotSchema.parse(payment.snapshot);
      return {
        reference,
        email: payment.email,
        amount: toMajor(payment.amountMinor),
        currency: payment.currency as CurrencyCode,
        status: payment.status,
        itemCount: snapshot.lines.reduce((n, l) => n + l.quantity, 0),
        callbackUrl: snapshot.callbackUrl,
      };
    },

    /** Pay or Decline on the simulated page; returns where to send the shopper (like Paystack: ?trxref=&reference=). */
    async answerSimulated(reference: string, outcome: 'pay' | 'decline'): Promise<string> {
      const payment = await this.simulatedPayment(reference);
      if (!provider.recordOutcome || !(await provider.recordOutcome(reference, outcome))) throw new Conflict('This payment has already been answered');
      const back = new URL(payment.callbackUrl);
      back.searchParams.set('trxref', reference);
      back.searchParams.set('reference', reference);
      return back.toString();
    },
  };
}
export type CheckoutService = ReturnType<typeof createCheckoutService>;
/** Runs inside a refund claim's transaction, with the amount claimed (see refund). */
export type RefundClaimHook = (tx: Tx, claim: { amountMinor: number }) => Promise<void>;
