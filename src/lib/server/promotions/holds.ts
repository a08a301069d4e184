import { and, eq, lt, ne, sql, type SQL } from 'drizzle-orm';
import { UNPAID_HOLD_MINUTES } from '@/lib/domain/promotions';
import { PAYMENT_STATUSES } from '@/lib/domain/payments';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { orders } from '@/lib/server/orders/tables';
import { payments } from '@/lib/server/payments/tables';
import { promotionRedemptions } from '@/lib/server/promotions/tables';

/** Who holds a place under a promotion's limits: read alike by a code's check and by a hold, so the check finds what the hold will. */

/**
 * The shopper's own held redemptions of this promotion whose payment is still waiting (started,
 * not paid): a new payment replaces them, so they do not count against the shopper.
 */
export async function ownWaitingHolds(tx: Db | Tx, userId: string, promotionId: number) {
  return tx
    .select({ id: promotionRedemptions.id, codeId: promotionRedemptions.codeId, paymentId: promotionRedemptions.paymentId })
    .from(promotionRedemptions)
    .innerJoin(payments, eq(payments.id, promotionRedemptions.paymentId))
    .where(
      and(
        eq(promotionRedemptions.userId, userId),
        eq(promotionRedemptions.promotionId, promotionId),
        eq(promotionRedemptions.state, 'held'),
        eq(payments.status, PAYMENT_STATUSES.initialized),
      ),
    );
}

/**
 * This promotion's places held by payments still unpaid (initialized) after UNPAID_HOLD_MINUTES:
 * free for the next shopper. A late payment of one takes a place again when its order is placed,
 * or is refunded when none is left (use).
 */
export function unpaidTooLong(promotionId: number, now: Date): SQL {
  const since = new Date(now.getTime() - UNPAID_HOLD_MINUTES * 60_000);
  return and(
    eq(promotionRedemptions.promotionId, promotionId),
    eq(promotionRedemptions.state, 'held'),
    lt(promotionRedemptions.createdAt, since),
    sql`${promotionRedemptions.paymentId} in (select ${payments.id} from ${payments} where ${payments.status} = ${PAYMENT_STATUSES.initialized})`,
  )!;
}

/** Whether the shopper has an order (a cancelled one does not count: it gave its code back). */
export async function hasOrder(tx: Db | Tx, userId: string): Promise<boolean> {
  const rows = await tx.select({ id: orders.id }).from(orders).where(and(eq(orders.userId, userId), ne(orders.status, 'cancelled'))).limit(1);
  return rows.length > 0;
}
