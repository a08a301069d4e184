import { NotFound } from '../domain/errors';
import type { Actor, AuditLog } from './audit';
import type { CheckoutService, RefundResult } from './checkout';
import type { OrderService } from './orders';

/**
 * Staff refunds of an order (the back office's Refund button): full, or partial with an amount,
 * through the one provider refund path (checkout.refund: claimed under a row lock, never twice),
 * recorded in the audit log.
 */
export function createOrderRefunds(deps: { orders: OrderService; checkout: CheckoutService; audit?: AuditLog }) {
  return {
    /** A payment in the refund queue (it may have no order: sold out after paying). */
    async refundPayment(reference: string, actor: Actor): Promise<RefundResult> {
      const result = await deps.checkout.refund(reference);
      await deps.audit?.record(actor, {
        action: 'payment.refund',
        entity: 'payment',
        entityId: reference,
        details: { refundedNowMinor: result.refundedNowMinor, refundedMinor: result.refundedMinor, status: result.status },
      });
      return result;
    },

    /** `refundedBefore` (minor units): what the staff member saw refunded; see checkout.refund. */
    async refund(orderId: string, amountMinor: number | undefined, actor: Actor, opts: { refundedBefore?: number } = {}): Promise<RefundResult> {
      const { order, payment } = await deps.orders.adminDetail(orderId);
      if (!payment) throw new NotFound('This order has no payment to refund');
      const result = await deps.checkout.refund(payment.reference, amountMinor, opts);
      await deps.audit?.record(actor, {
        action: 'order.refund',
        entity: 'order',
        entityId: order.id,
        details: { reference: payment.reference, requestedMinor: amountMinor ?? null, refundedNowMinor: result.refundedNowMinor, refundedMinor: result.refundedMinor, status: result.status },
      });
      return result;
    },
  };
}
