import { Invalid, NotFound, PaymentFailed } from '@/lib/domain/errors';
import { message } from '@/lib/domain/messages';
import type { Actor, AuditEntry, AuditLog } from '@/lib/server/backoffice/audit';
import type { OrderService } from './orders';
import type { PaymentService } from '@/lib/server/payments/service';
import type { RefundClaimHook, RefundResult } from '@/lib/server/payments/types';

/**
 * Staff refunds of an order (the back office's Refund button): full, or partial with an amount,
 * through the one provider refund path (payments.refund: claimed under a row lock, never twice),
 * recorded in the audit log.
 */
export function createOrderRefunds(deps: { orders: OrderService; payments: PaymentService; audit?: AuditLog }) {
  /**
   * A refund's audit trail: a row for the claim, written in the claim's own transaction (so a
   * refund whose provider answer is lost is still on record), then a row for its outcome:
   * succeeded, failed (the provider refused; the claim was let go) or unknown (no answer; the
   * claim is kept until staff check the provider). A payment already refunded in full makes no
   * claim and gets one row.
   */
  async function audited(actor: Actor, entry: AuditEntry & { details: Record<string, unknown> }, refund: (onClaim: RefundClaimHook) => Promise<RefundResult>) {
    const audit = deps.audit;
    let claimed = false;
    const record = (outcome: string, more: Record<string, unknown> = {}, tx?: Parameters<AuditLog['record']>[2]) =>
      audit?.record(actor, { ...entry, details: { ...entry.details, outcome, ...more } }, tx);
    try {
      const result = await refund(async (tx, claim) => {
        claimed = true;
        await record('claimed', { claimedMinor: claim.amountMinor }, tx);
      });
      await record(claimed ? 'succeeded' : 'already refunded', { refundedNowMinor: result.refundedNowMinor, refundedMinor: result.refundedMinor, status: result.status });
      return result;
    } catch (err) {
      // The claim's own row is already committed; this one is added when the database lets us.
      if (claimed) await record(err instanceof PaymentFailed ? 'failed' : 'unknown', { error: err instanceof Error ? err.message : String(err) })?.catch(() => undefined);
      throw err;
    }
  }

  return {
    /** A payment in the refund queue (it may have no order: sold out after paying). */
    async refundPayment(reference: string, actor: Actor): Promise<RefundResult> {
      return audited(actor, { action: 'payment.refund', entity: 'payment', entityId: reference, details: {} }, (onClaim) =>
        deps.payments.refund(reference, undefined, { onClaim }),
      );
    },

    /**
     * `refundedBefore` (minor units): what the staff member saw refunded; see payments.refund.
     * `line`: a line refund (the line's position from 1, and how many of its units) instead of an
     * amount: it returns what was paid for those units, the line's discount share taken off
     * (orders.paidForLine), and never more than is left of the payment (payments.refund).
     */
    async refund(
      orderId: string,
      amountMinor: number | undefined,
      actor: Actor,
      opts: { refundedBefore?: number; line?: { position: number; quantity: number } } = {},
    ): Promise<RefundResult> {
      const { order, payment } = await deps.orders.adminDetail(orderId);
      if (!payment) throw new NotFound(message('no-payment-to-refund'));
      const { line, ...refundOpts } = opts;
      let amount = amountMinor;
      const details: Record<string, unknown> = { reference: payment.reference, requestedMinor: amountMinor ?? null };
      if (line) {
        const paid = await deps.orders.paidForLine(order.id, line.position, line.quantity);
        if (paid.amountMinor <= 0) throw new Invalid(message('refund-nothing-paid'));
        amount = paid.amountMinor;
        Object.assign(details, { requestedMinor: amount, line: line.position, quantity: line.quantity, product: paid.productName });
      }
      return audited(actor, { action: 'order.refund', entity: 'order', entityId: order.id, details }, async (onClaim) => {
        try {
          return await deps.payments.refund(payment.reference, amount, {
            ...refundOpts,
            // A line refund takes its units with the claim: they cannot be refunded again, nor returned for money.
            onClaim: async (tx, claim) => {
              if (line) await deps.orders.takeLineRefund(tx, order.id, line.position, line.quantity);
              await onClaim(tx, claim);
            },
          });
        } catch (err) {
          // The provider refused after the claim: nothing went back, so the units are free again.
          if (line && err instanceof PaymentFailed) await deps.orders.releaseLineRefund(order.id, line.position, line.quantity);
          throw err;
        }
      });
    },
  };
}
