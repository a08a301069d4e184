import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { Invalid, NotFound } from '@/lib/domain/errors';
import { fill, message } from '@/lib/domain/messages';
import { LIVE_RETURN_STATUSES } from '@/lib/domain/after-sales';
import { paidForUnits } from '@/lib/domain/promotions';
import { UUID } from '@/lib/domain/validation';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { returnItems, returns } from '@/lib/server/aftersales/tables';
import { orderItems, orders } from '@/lib/server/orders/tables';
import { unitsPaidBack } from '@/lib/server/aftersales/units-back';

/**
 * The bookkeeping of a refund by line (order-refunds.ts asks it; payments pay it): the units a line
 * refund takes and gives back, the one writer of `order_items.refunded_quantity`, and what its
 * units were paid.
 */
export function createLineRefunds({ db }: { db: Db }) {
  return {
    /**
     * A line refund's units, taken inside the refund's claim (payments.refund's onClaim) under the
     * order's row lock, the lock a return request takes: units refunded from the back office are
     * never returned for money again, and units being returned are not refunded here too.
     */
    async takeLineRefund(tx: Tx, orderId: string, position: number, quantity: number): Promise<void> {
      await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId)).for('update');
      const lines = await tx.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.id));
      const line = lines[position - 1];
      if (!line) throw new Invalid(message('refund-no-such-line'));
      // Units in returns that are not rejected (a read of the returns module's rows).
      const [held] = await tx
        .select({ units: sql<number>`coalesce(sum(${returnItems.quantity}), 0)::int` })
        .from(returnItems)
        .innerJoin(returns, eq(returns.id, returnItems.returnId))
        .where(and(eq(returnItems.orderItemId, line.id), inArray(returns.status, LIVE_RETURN_STATUSES)));
      const left = line.quantity - line.refundedQuantity - Number(held?.units ?? 0);
      if (quantity > left) throw new Invalid(fill('refund-line-units', String(Math.max(0, left))));
      await tx.update(orderItems).set({ refundedQuantity: line.refundedQuantity + quantity }).where(eq(orderItems.id, line.id));
    },

    /** Gives a line refund's units back when the provider refused the refund (nothing went back). */
    async releaseLineRefund(orderId: string, position: number, quantity: number): Promise<void> {
      const lines = await db.select({ id: orderItems.id, refunded: orderItems.refundedQuantity }).from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.id));
      const line = lines[position - 1];
      if (!line) return;
      await db
        .update(orderItems)
        .set({ refundedQuantity: sql`greatest(0, ${orderItems.refundedQuantity} - ${quantity})` })
        .where(eq(orderItems.id, line.id));
    },

    /**
     * What was paid for `quantity` units of the order's line at `position` (from 1, in the order's
     * line order), in minor units: the line's total less its discount share, for those units
     * (paidForUnits). Throws Invalid for a line the order does not have or more units than it holds.
     */
    async paidForLine(orderId: string, position: number, quantity: number): Promise<{ amountMinor: number; productName: string }> {
      if (!UUID.test(orderId)) throw new NotFound(message('order-not-found'));
      const lines = await db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.id));
      const line = lines[position - 1];
      if (!line) throw new Invalid(message('refund-no-such-line'));
      if (quantity > line.quantity) throw new Invalid(message('refund-line-units', String(line.quantity)));
      const before = (await unitsPaidBack(db, [line.id])).get(line.id) ?? 0;
      return { amountMinor: paidForUnits(line.lineTotalMinor, line.discountMinor, line.quantity, quantity, before), productName: line.productName };
    },
  };
}
