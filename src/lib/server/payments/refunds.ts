import { eq } from 'drizzle-orm';
import { Conflict, Invalid, NotFound, PaymentFailed } from '@/lib/domain/errors';
import { isPaymentStatusIn, PAYMENT_STATUSES, REFUNDABLE } from '@/lib/domain/payments';
import type { Db } from '@/lib/server/infra/db/client';
import { payments } from '@/lib/server/payments/tables';
import type { Logger } from '@/lib/server/infra/log';
import type { PaymentProvider } from './port';
import { type PaymentRow, type PaymentRows } from './rows';
import { NO_LEDGER, type RefundClaimHook, type RefundLedger, type RefundResult } from './types';
import { fill, message } from '@/lib/domain/messages';

/**
 * Refunds: money going back to a payment through the provider, claimed under the payment's row
 * lock before the provider is asked and recorded after, each step told to the order's money
 * account (the refund ledger). Staff's back office, owed refunds and the returns call this.
 */

export function createRefunds({
  db,
  provider,
  log,
  rows,
  refundLedger: accountLedger,
}: {
  db: Db;
  provider: PaymentProvider;
  log: Logger;
  rows: PaymentRows;
  /** The order's money account, told of every refund (ADR 0021). */
  refundLedger: RefundLedger;
}) {
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
  async function refund(
    reference: string,
    amountMinor?: number,
    opts: { refundedBefore?: number; onClaim?: RefundClaimHook; key?: string; accounted?: boolean } = {},
  ): Promise<RefundResult> {
    if (amountMinor !== undefined && (!Number.isInteger(amountMinor) || amountMinor <= 0)) {
      throw new Invalid(message('refund-amount-invalid'));
    }
    // An owed refund's amount is in its order's account from the moment it was owed.
    const ledger = opts.accounted ? NO_LEDGER : accountLedger;
    const claim = await db.transaction(async (tx) => {
      const [p] = await tx.select().from(payments).where(eq(payments.reference, reference)).for('update');
      if (!p) throw new NotFound(message('payment-not-found'));
      // The same key's claim, left by a process that died while the provider was asked: asked again
      // with that key (the provider pays a key once), then recorded.
      if (opts.key && p.refundPendingKey === opts.key && p.refundPendingMinor !== null) {
        return { payment: p, amount: p.refundPendingMinor, whole: false };
      }
      if (p.refundPendingMinor !== null) throw new Conflict(message('refund-in-progress'));
      if (opts.refundedBefore !== undefined && p.refundedMinor !== opts.refundedBefore) {
        throw new Conflict(message('refund-changed'));
      }
      const left = p.amountMinor - p.refundedMinor;
      if (p.status === PAYMENT_STATUSES.refunded || (isPaymentStatusIn(REFUNDABLE, p.status) && left <= 0)) return { done: p };
      if (!isPaymentStatusIn(REFUNDABLE, p.status)) throw new Conflict(fill('payment-not-refundable', p.status.replace('_', ' ')));
      const amount = amountMinor ?? left;
      if (amount > left) throw new Invalid(fill('refund-at-most', left));
      await rows.claimRefund(tx, p.id, amount, opts.key ?? null);
      await ledger.claimed(tx, p, amount);
      await opts.onClaim?.(tx, { amountMinor: amount });
      return { payment: p, amount, whole: amountMinor === undefined && p.refundedMinor === 0 };
    });
    const summary = (p: PaymentRow, now: number): RefundResult => ({
      reference,
      status: p.status === PAYMENT_STATUSES.refunded || p.refundedMinor >= p.amountMinor ? PAYMENT_STATUSES.refunded : PAYMENT_STATUSES.partially_refunded,
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
          await rows.dropRefundClaim(tx, payment.id);
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
      const row = await rows.recordRefund(tx, payment.id, {
        status: whole || refundedMinor >= payment.amountMinor ? PAYMENT_STATUSES.refunded : PAYMENT_STATUSES.partially_refunded,
        refundedMinor,
        refundId: refund.refundId,
      });
      await ledger.recorded(tx, payment, amount, refund.amountMinor);
      return { row, again: false };
    });
    if (recorded.again) return summary(recorded.row, 0);
    log.info('payment refunded', { reference, refundedMinor: refund.amountMinor, refundId: refund.refundId, provider: provider.name });
    return summary(recorded.row, refund.amountMinor);
  }

  /** Lets go of a refund claim whose outcome was lost, after staff checked with the provider that nothing was refunded. */
  async function releaseRefundClaim(reference: string): Promise<boolean> {
    return db.transaction(async (tx) => {
      const [p] = await tx.select().from(payments).where(eq(payments.reference, reference)).for('update');
      if (!p || p.refundPendingMinor === null) return false;
      await rows.dropRefundClaim(tx, p.id);
      // A keyed claim is an owed refund's, whose amount stays owed in its order's account (the worker tries it again).
      if (!p.refundPendingKey) await accountLedger.released(tx, p, p.refundPendingMinor);
      return true;
    });
  }

  return { refund, releaseRefundClaim };
}
