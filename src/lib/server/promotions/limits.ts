import { eq, inArray, TransactionRollbackError } from 'drizzle-orm';
import { Conflict } from '@/lib/domain/errors';
import { message } from '@/lib/domain/messages';
import type { CurrencyCode } from '@/lib/domain/money';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { pgError } from '@/lib/server/infra/db/pg-errors';
import { promotionRedemptions } from '@/lib/server/promotions/tables';
import type { AppliedDiscount } from './code-check';
import { hasOrder, ownWaitingHolds, unpaidTooLong } from './holds';
import { insertRedemption, markUsed, releaseWhere, takePlace } from './rows';

const usedConflict = () => new Conflict(message('code-used'));

/**
 * A code's place under its limits, through the payment's life: held when payment starts, used when
 * the order is placed, given back when the payment settles without an order or the order is
 * cancelled. Limits are the database's (rows.ts): no read-then-write.
 */
export function createPromotionLimits({ db, clock }: { db: Db; clock: () => Date }) {
  return {
    /**
     * At payment start, in the transaction that creates the payment row: takes a place under the
     * limits (conditional counter updates + the redemption row; the database refuses past a limit).
     * Throws Conflict('This code has already been used.') when the place is gone.
     */
    async hold(tx: Tx, input: { applied: AppliedDiscount; userId: string; paymentId: string; currency: CurrencyCode }): Promise<void> {
      const { applied, userId, paymentId } = input;
      // The shopper's earlier payment with this promotion, never paid, is replaced by this one (a
      // late payment of it takes a place again when its order is placed, or is refunded).
      const own = await ownWaitingHolds(tx, userId, applied.promotionId);
      const ownIds = own.map((h) => h.id);
      if (ownIds.length) await releaseWhere(tx, inArray(promotionRedemptions.id, ownIds), clock);
      await releaseWhere(tx, unpaidTooLong(applied.promotionId, clock()), clock);
      const p = await takePlace(tx, applied.promotionId, applied.codeId);
      if (!p) throw usedConflict();
      if (p.firstOrderOnly && (await hasOrder(tx, userId))) throw usedConflict();
      try {
        // A savepoint: the refused insert must not leave the caller's transaction aborted for its own error handling.
        await tx.transaction(async (sp) => {
          await insertRedemption(sp, {
            promotionId: applied.promotionId,
            codeId: applied.codeId,
            userId,
            customerKey: p.oncePerCustomer || p.firstOrderOnly ? userId : null,
            paymentId,
            state: 'held',
            discountMinor: applied.discountMinor,
            currency: input.currency,
            createdAt: clock(),
            updatedAt: clock(),
          });
        });
      } catch (err) {
        if (pgError(err).code === '23505') throw usedConflict();
        throw err;
      }
    },

    /**
     * The order is placed (same transaction as the order): held -> used. Idempotent; no-op without a
     * redemption. A redemption released meanwhile (the payment was abandoned, or replaced by a newer
     * one, and then paid after all) takes its place again, or throws Conflict when it is gone: the
     * order must not be placed with the discount (the caller refunds the payment).
     */
    async use(tx: Tx, paymentId: string, orderId: string): Promise<void> {
      // Promotion and code before the redemption (releaseWhere's order), so no lock on the redemption
      // is held while its promotion's row is awaited; a redemption that changed meanwhile is read again.
      for (let pass = 0; pass < 5; pass++) {
        const [r] = await tx.select().from(promotionRedemptions).where(eq(promotionRedemptions.paymentId, paymentId)).limit(1);
        if (!r || r.state === 'used') return;
        try {
          const used = await tx.transaction(async (sp) => {
            if (r.state === 'released' && !(await takePlace(sp, r.promotionId, r.codeId))) throw usedConflict();
            // Released or moved since it was read: the savepoint gives back any place just taken.
            if ((await markUsed(sp, r, orderId, clock())) === null) sp.rollback();
            return true;
          });
          if (used) return;
        } catch (err) {
          if (err instanceof TransactionRollbackError) continue;
          // Back from released while the same customer has another live one (once per customer).
          if (pgError(err).code === '23505') throw usedConflict();
          throw err;
        }
      }
      throw usedConflict();
    },

    /** Failed, declined, abandoned (or fulfilment impossible): held -> released, counters give the place back. Idempotent; no-op without one. */
    async release(tx: Db | Tx, paymentId: string): Promise<void> {
      // The state change and the counters together (a savepoint inside the caller's transaction).
      await tx.transaction(async (t) => void (await releaseWhere(t, eq(promotionRedemptions.paymentId, paymentId), clock)));
    },

    /**
     * A cancelled order (in its transaction, under its row lock) gives its code's place back: the
     * redemption is released, so the shopper may use the code again. No-op without one.
     */
    async giveBack(tx: Tx, orderId: string): Promise<void> {
      await releaseWhere(tx, eq(promotionRedemptions.orderId, orderId), clock, 'used');
    },

    /** A payment's redemption, if any (tests, order views). */
    async redemptionOf(paymentId: string, tx: Db | Tx = db) {
      const [r] = await tx.select().from(promotionRedemptions).where(eq(promotionRedemptions.paymentId, paymentId)).limit(1);
      return r ?? null;
    },
  };
}
