import { and, eq, sql } from 'drizzle-orm';
import type { ReturnStatus } from '@/lib/domain/after-sales';
import type { Tx } from '@/lib/server/infra/db/client';
import { returnItems, returns } from '@/lib/server/aftersales/tables';

export type ReturnRow = typeof returns.$inferSelect;

/**
 * Whose return it is: a gift's recipient who asked for it (`credit_user_id`, ADR 0045), else the
 * order's buyer. Their data export lists it, and it stands in the way of their account's deletion.
 */
export const returnAskedBy = sql<string>`coalesce(${returns.creditUserId}, ${returns.userId})`;
export type ReturnItemInsert = Omit<typeof returnItems.$inferInsert, 'returnId'>;

/**
 * The one writer of `returns` and `return_items` (ADR 0014, ADR 0040). The shopper's request, the
 * staff's steps and the payment of an exchange difference each write through here, so what a row
 * may become is read in one place; every caller holds the row's (or its order's) lock already.
 */

/** A new return and its lines, in the request's transaction. */
export async function insertReturn(tx: Tx, values: typeof returns.$inferInsert, items: readonly ReturnItemInsert[]): Promise<ReturnRow> {
  const [row] = await tx.insert(returns).values(values).returning();
  await tx.insert(returnItems).values(items.map((i) => ({ ...i, returnId: row!.id })));
  return row!;
}

/** Moves a locked return to `to` (only from the status it was locked in). */
export async function moveReturn(tx: Tx, row: ReturnRow, to: ReturnStatus, now: Date, set: Partial<ReturnRow> = {}): Promise<ReturnRow> {
  const [updated] = await tx
    .update(returns)
    .set({ ...set, status: to, updatedAt: now })
    .where(and(eq(returns.id, row.id), eq(returns.status, row.status)))
    .returning();
  return updated!;
}

/** What staff found in one returned line's parcel. */
export async function recordReceived(tx: Tx, itemId: number, received: number, damaged: number): Promise<void> {
  await tx.update(returnItems).set({ receivedQuantity: received, damagedQuantity: damaged }).where(eq(returnItems.id, itemId));
}

/** An exchange's dearer difference is paid (under the return's row lock). */
export async function markDifferencePaid(tx: Tx, id: string, now: Date): Promise<void> {
  await tx.update(returns).set({ differencePaidAt: now, updatedAt: now }).where(eq(returns.id, id));
}
