import { eq, inArray } from 'drizzle-orm';
import { AppError, Forbidden, NotFound, PaymentFailed } from '@/lib/domain/errors';
import { marketOfCurrency, type MarketCode } from '@/lib/domain/markets';
import type { OnlineChannel } from '@/lib/domain/payment-methods';
import type { OrderDto } from '@/lib/domain/orders';
import { isPaymentStatusIn, MAY_HAVE_ORDER, PAYMENT_STATUSES, REFUND_STATES } from '@/lib/domain/payments';
import { message, named } from '@/lib/domain/messages';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { payments } from '@/lib/server/payments/tables';
import type { Logger } from '@/lib/server/infra/log';
import type { PaymentProvider } from './port';
import { type PaymentRow, type PaymentRows } from './rows';
import { paymentSnapshotSchema } from './snapshots';
import { CannotFulfil, type CannotFulfilReason, type ConfirmedPayment, type DifferenceFulfilment, type Fulfilment } from './types';

/**
 * Fulfilment: the one path from a confirmed payment to what it paid for, a checkout's order
 * (Fulfilment, checkout.ts) or an exchange difference's return marked paid (DifferenceFulfilment,
 * returns.ts), made once under the payment's row lock. What cannot be fulfilled goes to refund.
 */

const CANNOT_FULFIL_LOG: Record<CannotFulfilReason, string> = {
  out_of_stock: 'paid checkout ran out of stock; payment needs a refund',
  code_taken: "paid checkout's discount code has no place left (it went to a newer payment); payment needs a refund",
  credit_given_back: "paid checkout's store credit was given back meanwhile; payment needs a refund",
  return_not_waiting: 'exchange difference paid for a return that no longer waits for it; payment needs a refund',
  pod_limit: "paid pay-on-delivery deposit would pass the shopper's open-orders limit or ceiling; payment needs a refund",
};

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

const refundMessage = (label?: string) =>
  label
    ? `Sorry, ${label} sold out while you were paying. Your payment will be refunded.`
    : 'This payment could not be turned into an order. It will be refunded.';

export function createFulfilling({
  db,
  provider,
  fulfilment,
  differences,
  log,
  rows,
}: {
  db: Db;
  provider: PaymentProvider;
  fulfilment: Fulfilment;
  /** Exchange differences; without it, such payments cannot be fulfilled. */
  differences: DifferenceFulfilment | undefined;
  log: Logger;
  rows: PaymentRows;
}) {
  /** The order a payment already became, if any: its checkout's order, or for an exchange difference, its return's order. */
  async function existingOrder(payment: { id: string; purpose: string; returnId: string | null }, tx?: Tx): Promise<OrderDto | null> {
    if (payment.purpose === 'checkout') return fulfilment.orderOf(payment.id, tx);
    const orderId = differences && payment.returnId ? await differences.orderOfReturn(payment.returnId, tx) : null;
    return orderId ? differences!.order(orderId) : null;
  }

  /**
   * A verified exchange difference: under the payment's row lock its return is marked paid (once);
   * a return that no longer waits for it (rejected, or paid by another payment) sends it to refund.
   */
  async function fulfilDifference(payment: PaymentRow, channel: OnlineChannel | null): Promise<{ order: OrderDto; created: boolean }> {
    if (!differences || !payment.returnId) throw new Error('exchange difference payments need the returns fulfilment');
    const returnId = payment.returnId;
    let outcome: { orderId: string; created: boolean } | 'refund';
    try {
      outcome = await db.transaction(async (tx) => {
        const [locked] = await tx.select().from(payments).where(eq(payments.id, payment.id)).for('update');
        if (isPaymentStatusIn(MAY_HAVE_ORDER, locked!.status)) {
          const orderId = await differences.orderOfReturn(returnId, tx);
          if (orderId) return { orderId, created: false };
        }
        if (isPaymentStatusIn(REFUND_STATES, locked!.status) || locked!.refundPendingMinor !== null) return 'refund' as const;
        const orderId = await differences.place(tx, { id: payment.id, returnId, amountMinor: payment.amountMinor, currency: payment.currency });
        await rows.markFulfilled(tx, payment.id, channel);
        return { orderId, created: true };
      });
    } catch (err) {
      if (!(err instanceof CannotFulfil)) throw err;
      await rows.markNeedsRefund(payment.id);
      log.warn(CANNOT_FULFIL_LOG[err.reason], { reference: payment.reference, reason: err.reason, returnId });
      throw new PaymentFailed(message('return-difference-not-needed'));
    }
    if (outcome === 'refund') throw new PaymentFailed(message('return-difference-not-needed'));
    return { order: await differences.order(outcome.orderId), created: outcome.created };
  }

  /**
   * The one path from a payment to an order, used by place-order, the return page, the webhook and
   * reconciliation. Verifies with the provider, then under a row lock on the payment has the
   * fulfilment make the order (its stock, its lines, the cart) and marks the payment fulfilled.
   * Repeated or concurrent calls get the same order.
   */
  async function fulfil(reference: string, opts: { userId?: string; signedBy?: MarketCode } = {}): Promise<{ order: OrderDto; created: boolean }> {
    const [payment] = await db.select().from(payments).where(eq(payments.reference, reference)).limit(1);
    if (!payment) throw new NotFound(message('payment-not-found'));
    if (opts.userId && payment.userId !== opts.userId) throw new Forbidden(message('payment-other-account'));
    // A webhook speaks for one market's Paystack account; it cannot settle another market's payment.
    if (opts.signedBy && marketOfCurrency(payment.currency)?.code !== opts.signedBy) {
      log.warn('payment webhook from another market\'s account', { reference, currency: payment.currency, signedBy: opts.signedBy });
      throw new Forbidden(message('payment-other-market'));
    }
    if (isPaymentStatusIn(MAY_HAVE_ORDER, payment.status)) {
      const existing = await existingOrder(payment);
      if (existing) return { order: existing, created: false };
    }
    if (isPaymentStatusIn(REFUND_STATES, payment.status)) throw new PaymentFailed(refundMessage());

    // Nothing was charged online for an order paid wholly on delivery or with store credit: no provider to ask.
    const chargesNothing = payment.provider === 'on_delivery' || payment.provider === 'store_credit';
    const verification =
      chargesNothing
        ? { status: payment.status === PAYMENT_STATUSES.paid ? ('success' as const) : ('failed' as const), amountMinor: 0, currency: payment.currency }
        : await provider.verify(reference, payment.currency);
    if (verification.status !== 'success') {
      if (verification.status === 'failed' || verification.status === 'reversed') {
        await rows.settleWithoutOrder(eq(payments.id, payment.id), PAYMENT_STATUSES.failed, inArray(payments.status, [PAYMENT_STATUSES.initialized, PAYMENT_STATUSES.pending, PAYMENT_STATUSES.abandoned]));
      }
      if (verification.status === 'pending') {
        // The money is on its way (a bank transfer): no order until the provider confirms it.
        await rows.markPending(payment.id, verification.channel ?? payment.channel);
      }
      throw new PaymentFailed(
        message(verification.status === 'failed' ? 'payment-declined' : 'payment-incomplete'),
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
      await rows.markNeedsRefund(payment.id);
      throw new PaymentFailed(message('payment-amount-mismatch'));
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
        if (isPaymentStatusIn(MAY_HAVE_ORDER, locked!.status)) {
          const existing = await fulfilment.orderOf(payment.id, tx);
          if (existing) return { existing };
        }
        // Refunded (or being refunded) without an order: it never becomes one.
        if (isPaymentStatusIn(REFUND_STATES, locked!.status) || locked!.refundPendingMinor !== null) return 'refund' as const;
        // A payment charging nothing that another call just failed (sold out) never becomes an order.
        if (chargesNothing && locked!.status !== PAYMENT_STATUSES.paid) return 'failed' as const;
        const orderId = await fulfilment.place(tx, confirmed);
        await rows.markFulfilled(tx, payment.id, confirmed.channel);
        return { orderId };
      });
    } catch (err) {
      if (err instanceof CannotFulfil && chargesNothing) {
        // Nothing to refund: the payment simply fails, and its code's place is given back.
        await rows.settleWithoutOrder(eq(payments.id, payment.id), PAYMENT_STATUSES.failed, eq(payments.status, PAYMENT_STATUSES.paid));
        throw new PaymentFailed(err.label ? named('item-out-of-stock', err.label) : message('pod-order-unavailable'));
      }
      if (err instanceof CannotFulfil) {
        await rows.markNeedsRefund(payment.id);
        log.warn(CANNOT_FULFIL_LOG[err.reason], { reference, reason: err.reason, item: err.label });
        throw new PaymentFailed(refundMessage(err.label));
      }
      throw err;
    }
    if (outcome === 'refund') throw new PaymentFailed(refundMessage());
    if (outcome === 'failed') throw new PaymentFailed(message('pod-order-unavailable'));
    if ('existing' in outcome) return { order: outcome.existing, created: false };
    return { order: await fulfilment.placed(outcome.orderId, confirmed), created: true };
  }

  return { fulfil, existingOrder };
}
export type Fulfil = ReturnType<typeof createFulfilling>['fulfil'];
