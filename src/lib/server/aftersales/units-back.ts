import { and, eq, inArray, sql } from 'drizzle-orm';
import { MONEY_BACK_RETURN_STATUSES } from '@/lib/domain/after-sales';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { returnItems, returns } from '@/lib/server/aftersales/tables';
import { orderItems } from '@/lib/server/orders/tables';

/**
 * Units of each order line whose money already went back: refunded from the order page, or
 * received in a refunded or credited return. `paidForUnits` prices the next units after them, so
 * a line given back a unit at a time gives back exactly what it cost.
 */
export async function unitsPaidBack(tx: Db | Tx, orderItemIds: readonly number[]): Promise<Map<number, number>> {
  const ids = [...new Set(orderItemIds)];
  if (ids.length === 0) return new Map();
  const refunded = await tx.select({ id: orderItems.id, units: orderItems.refundedQuantity }).from(orderItems).where(inArray(orderItems.id, ids));
  const returned = await tx
    .select({ id: returnItems.orderItemId, units: sql<number>`coalesce(sum(coalesce(${returnItems.receivedQuantity}, ${returnItems.quantity})), 0)::int` })
    .from(returnItems)
    .innerJoin(returns, eq(returns.id, returnItems.returnId))
    .where(and(inArray(returnItems.orderItemId, ids), inArray(returns.status, [...MONEY_BACK_RETURN_STATUSES])))
    .groupBy(returnItems.orderItemId);
  const back = new Map(refunded.map((r) => [r.id, r.units]));
  for (const r of returned) back.set(r.id, (back.get(r.id) ?? 0) + Number(r.units));
  return back;
}
