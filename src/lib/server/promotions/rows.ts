import { and, asc, eq, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { promotionCodes, promotionRedemptions, promotions } from '@/lib/server/promotions/tables';

/**
 * The one writer of `promotions`, `promotion_codes` and `promotion_redemptions`: the back office's
 * edits, the places taken and given back under the limits, and the codes issued. Rows are locked in
 * the module's one order, promotion, code, then redemption (a hold, a use, a release and the welcome
 * promotion's edit alike), so two of them never wait for each other.
 */

export type PromotionRow = typeof promotions.$inferSelect;
export type PromotionInsert = typeof promotions.$inferInsert;

/** A new promotion (its terms as given), returning its id. */
export async function insertPromotion(tx: Tx, values: PromotionInsert): Promise<number> {
  const [row] = await tx.insert(promotions).values(values).returning({ id: promotions.id });
  return row!.id;
}

/** Changes a promotion's terms. */
export async function updatePromotion(tx: Tx, id: number, set: Partial<PromotionInsert>): Promise<void> {
  await tx.update(promotions).set(set).where(eq(promotions.id, id));
}

/** A code of a promotion: its shared code (no e-mail), or one issued to a subscriber. */
export async function insertCode(tx: Db | Tx, values: typeof promotionCodes.$inferInsert): Promise<void> {
  await tx.insert(promotionCodes).values(values);
}

/** A new text for a promotion's shared code. */
export async function renameCode(tx: Tx, codeId: number, code: string): Promise<void> {
  await tx.update(promotionCodes).set({ code }).where(eq(promotionCodes.id, codeId));
}

/** Moves a promotion's codes and their redemptions to another promotion (the welcome promotion's issued codes keep their terms). */
export async function moveCodesAndUses(tx: Tx, fromId: number, toId: number): Promise<void> {
  await tx.update(promotionCodes).set({ promotionId: toId }).where(eq(promotionCodes.promotionId, fromId));
  await tx.update(promotionRedemptions).set({ promotionId: toId }).where(eq(promotionRedemptions.promotionId, fromId));
}

/**
 * Takes one place on the promotion and on the code (conditional counter updates: the database
 * refuses past a limit). Null when either limit is reached: the caller's transaction or savepoint
 * gives back a place taken on the promotion alone.
 */
export async function takePlace(tx: Tx, promotionId: number, codeId: number): Promise<Pick<PromotionRow, 'oncePerCustomer' | 'firstOrderOnly'> | null> {
  const [p] = await tx
    .update(promotions)
    .set({ redemptions: sql`${promotions.redemptions} + 1` })
    .where(and(eq(promotions.id, promotionId), or(isNull(promotions.usageLimit), lt(promotions.redemptions, promotions.usageLimit))))
    .returning({ oncePerCustomer: promotions.oncePerCustomer, firstOrderOnly: promotions.firstOrderOnly });
  if (!p) return null;
  const [c] = await tx
    .update(promotionCodes)
    .set({ redemptions: sql`${promotionCodes.redemptions} + 1` })
    .where(
      and(
        eq(promotionCodes.id, codeId),
        eq(promotionCodes.promotionId, promotionId),
        or(isNull(promotionCodes.usageLimit), lt(promotionCodes.redemptions, promotionCodes.usageLimit)),
      ),
    )
    .returning({ id: promotionCodes.id });
  return c ? p : null;
}

/** A payment's redemption, holding its place (once per customer: `customerKey` is unique over live redemptions). */
export async function insertRedemption(tx: Tx, values: typeof promotionRedemptions.$inferInsert): Promise<void> {
  await tx.insert(promotionRedemptions).values(values);
}

/** held (or released, having taken its place again) -> used by the order; the id of the row moved, or null when it changed since it was read. */
export async function markUsed(tx: Tx, r: Pick<typeof promotionRedemptions.$inferSelect, 'id' | 'state' | 'promotionId'>, orderId: string, now: Date): Promise<number | null> {
  const [row] = await tx
    .update(promotionRedemptions)
    .set({ state: 'used', orderId, updatedAt: now })
    .where(and(eq(promotionRedemptions.id, r.id), eq(promotionRedemptions.state, r.state), eq(promotionRedemptions.promotionId, r.promotionId)))
    .returning({ id: promotionRedemptions.id });
  return row?.id ?? null;
}

/**
 * held (or used, for a cancelled order) -> released for the matching rows, and their places back on
 * the counters: the counters are locked first, then the redemptions still on them are moved. One
 * moved to another promotion meanwhile (the welcome promotion's edit) is released on the next pass.
 */
export async function releaseWhere(tx: Db | Tx, where: SQL, clock: () => Date, from: 'held' | 'used' = 'held'): Promise<number> {
  let count = 0;
  for (let pass = 0; pass < 5; pass++) {
    const held = await tx
      .select({ promotionId: promotionRedemptions.promotionId, codeId: promotionRedemptions.codeId })
      .from(promotionRedemptions)
      .where(and(where, eq(promotionRedemptions.state, from)));
    if (held.length === 0) break;
    const promotionIds = [...new Set(held.map((h) => h.promotionId))];
    const codeIds = [...new Set(held.map((h) => h.codeId))];
    await tx.select({ id: promotions.id }).from(promotions).where(inArray(promotions.id, promotionIds)).orderBy(asc(promotions.id)).for('no key update');
    await tx.select({ id: promotionCodes.id }).from(promotionCodes).where(inArray(promotionCodes.id, codeIds)).orderBy(asc(promotionCodes.id)).for('no key update');
    const released = await tx
      .update(promotionRedemptions)
      .set({ state: 'released', updatedAt: clock() })
      .where(and(where, eq(promotionRedemptions.state, from), inArray(promotionRedemptions.promotionId, promotionIds), inArray(promotionRedemptions.codeId, codeIds)))
      .returning({ promotionId: promotionRedemptions.promotionId, codeId: promotionRedemptions.codeId });
    for (const r of released) {
      await tx
        .update(promotions)
        .set({ redemptions: sql`${promotions.redemptions} - 1` })
        .where(eq(promotions.id, r.promotionId));
      await tx
        .update(promotionCodes)
        .set({ redemptions: sql`${promotionCodes.redemptions} - 1` })
        .where(eq(promotionCodes.id, r.codeId));
    }
    count += released.length;
    if (released.length === held.length) break;
  }
  return count;
}

/** An account's deletion: codes issued to its e-mail stay bound to its anonymous address (usable by nobody else). */
export async function unbindCodesFrom(tx: Db | Tx, email: string, anonymous: string): Promise<void> {
  await tx.update(promotionCodes).set({ email: anonymous }).where(eq(promotionCodes.email, email));
}
