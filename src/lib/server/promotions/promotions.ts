import { randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull, lt, ne, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { Conflict, Invalid } from '@/lib/domain/errors';
import type { MarketCode } from '@/lib/domain/markets';
import { fill, message } from '@/lib/domain/messages';
import { formatMoney, toMajor, type CurrencyCode } from '@/lib/domain/money';
import { discountMinor, NEWSLETTER_WELCOME, normaliseCode, spreadDiscount, type DiscountRule } from '@/lib/domain/promotions';
import type { AuditLog } from '@/lib/server/backoffice/audit';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { categories, orders, payments, promotionCodes, promotionRedemptions, promotions } from '@/lib/server/infra/db/schema';

/**
 * Promotions (issue 18): the one writer of promotions, promotion_codes and promotion_redemptions.
 *
 * A code is checked against a cart (evaluate), takes a place under its limits when payment starts
 * (hold, in the transaction that creates the payment row), becomes a use when the order is placed
 * (use, in the order's transaction) and gives its place back when the payment fails, is declined,
 * abandoned or cannot become an order (release).
 *
 * Limits are the database's: `redemptions` counts held and used redemptions on the promotion and
 * on the code, and a hold is a conditional update (`redemptions < usage_limit`) that returns no row
 * when the place is gone, plus a CHECK that refuses a counter past its limit. Once per customer is
 * a partial unique index on (promotion, customer) over live redemptions. No read-then-write: 50
 * concurrent holds of a code limited to 1 give exactly one.
 */

export interface DiscountLine {
  variantId: number;
  categoryId: number | null;
  lineTotalMinor: number;
}
export interface CartForDiscount {
  userId: string;
  email: string;
  market: MarketCode;
  currency: CurrencyCode;
  lines: DiscountLine[];
}
export interface AppliedDiscount {
  /** Normalised (upper-case). */
  code: string;
  promotionId: number;
  codeId: number;
  /** Off the eligible subtotal, never delivery. */
  discountMinor: number;
  /** Same order as cart.lines, sums to discountMinor (spread over eligible lines, 0 for others). */
  lineDiscountsMinor: number[];
}

/** Codes issued to subscribers: 'WELCOME-' and 8 characters without look-alikes (no 0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const WELCOME_PREFIX = 'WELCOME-';

function randomCode(length = 8): string {
  // Rejection sampling keeps every character equally likely.
  const out: string[] = [];
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 256 - (256 % CODE_ALPHABET.length) && out.length < length) out.push(CODE_ALPHABET[byte % CODE_ALPHABET.length]!);
    }
  }
  return out.join('');
}

/** A PostgreSQL error's SQLSTATE and constraint, wherever the driver or Drizzle put it. */
function pgError(err: unknown): { code?: string; constraint?: string } {
  let e: unknown = err;
  for (let depth = 0; e && depth < 4; depth++) {
    const o = e as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof o.code === 'string' && /^[0-9A-Z]{5}$/.test(o.code)) {
      return { code: o.code, constraint: typeof o.constraint === 'string' ? o.constraint : undefined };
    }
    e = o.cause;
  }
  return {};
}

const notValid = () => new Invalid(message('code-not-valid'));
const expired = () => new Invalid(message('code-expired'));
const usedInvalid = () => new Invalid(message('code-used'));
const usedConflict = () => new Conflict(message('code-used'));

type PromotionRow = typeof promotions.$inferSelect;
type CodeRow = typeof promotionCodes.$inferSelect;

export function ruleOf(p: Pick<PromotionRow, 'kind' | 'percentOff' | 'amountOff'>, market: MarketCode): DiscountRule | null {
  if (p.kind === 'percent') return p.percentOff ? { kind: 'percent', percentOff: p.percentOff } : null;
  const amount = p.amountOff[market];
  return amount === undefined || amount === null || amount <= 0 ? null : { kind: 'fixed', amountOffMinor: amount };
}

export function createPromotionService(deps: { db: Db; clock: () => Date; audit?: AuditLog }) {
  const { db, clock } = deps;

  /**
   * The shopper's own held redemptions of this promotion whose payment is still waiting (started,
   * not paid): a new payment replaces them, so they do not count against the shopper.
   */
  async function ownWaitingHolds(tx: Db | Tx, userId: string, promotionId: number) {
    return tx
      .select({ id: promotionRedemptions.id, codeId: promotionRedemptions.codeId, paymentId: promotionRedemptions.paymentId })
      .from(promotionRedemptions)
      .innerJoin(payments, eq(payments.id, promotionRedemptions.paymentId))
      .where(
        and(
          eq(promotionRedemptions.userId, userId),
          eq(promotionRedemptions.promotionId, promotionId),
          eq(promotionRedemptions.state, 'held'),
          eq(payments.status, 'initialized'),
        ),
      );
  }

  /** held -> released for the matching rows, and their places back on the counters. */
  async function releaseWhere(tx: Db | Tx, where: SQL): Promise<number> {
    const released = await tx
      .update(promotionRedemptions)
      .set({ state: 'released', updatedAt: clock() })
      .where(and(where, eq(promotionRedemptions.state, 'held')))
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
    return released.length;
  }

  /** Takes one place on the promotion and on the code, or throws Conflict when either limit is reached. */
  async function takePlace(tx: Tx, promotionId: number, codeId: number): Promise<Pick<PromotionRow, 'oncePerCustomer' | 'firstOrderOnly'>> {
    const [p] = await tx
      .update(promotions)
      .set({ redemptions: sql`${promotions.redemptions} + 1` })
      .where(and(eq(promotions.id, promotionId), or(isNull(promotions.usageLimit), lt(promotions.redemptions, promotions.usageLimit))))
      .returning({ oncePerCustomer: promotions.oncePerCustomer, firstOrderOnly: promotions.firstOrderOnly });
    if (!p) throw usedConflict();
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
    if (!c) throw usedConflict();
    return p;
  }

  async function hasOrder(tx: Db | Tx, userId: string): Promise<boolean> {
    const rows = await tx.select({ id: orders.id }).from(orders).where(eq(orders.userId, userId)).limit(1);
    return rows.length > 0;
  }

  /** Which categories count for a promotion limited to `ids`: those, and their sub-categories. */
  async function eligibleCategories(tx: Db | Tx, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const children = await tx.select({ id: categories.id }).from(categories).where(inArray(categories.parentId, ids));
    return new Set([...ids, ...children.map((c) => c.id)]);
  }

  async function evaluate(input: string, cart: CartForDiscount, tx: Db | Tx = db): Promise<AppliedDiscount> {
    const code = normaliseCode(input);
    if (!code || code.length > 64) throw notValid();
    const [row] = await tx
      .select({ p: promotions, c: promotionCodes })
      .from(promotionCodes)
      .innerJoin(promotions, eq(promotions.id, promotionCodes.promotionId))
      .where(eq(promotionCodes.code, code))
      .limit(1);
    if (!row) throw notValid();
    const { p, c } = row;
    const now = clock().getTime();
    if (p.status !== 'active') throw notValid();
    if (p.startsAt && p.startsAt.getTime() > now) throw notValid();
    if (c.email && c.email !== cart.email.trim().toLowerCase()) throw notValid();
    if ((p.endsAt && p.endsAt.getTime() <= now) || (c.expiresAt && c.expiresAt.getTime() <= now)) throw expired();
    const rule = ruleOf(p, cart.market);
    if (!rule) throw notValid();
    let eligible = cart.lines.map(() => true);
    if (p.categoryIds) {
      const allowed = await eligibleCategories(tx, p.categoryIds);
      eligible = cart.lines.map((l) => l.categoryId !== null && allowed.has(l.categoryId));
    }
    const eligibleTotals = cart.lines.map((l, i) => (eligible[i] ? l.lineTotalMinor : 0));
    const eligibleSubtotal = eligibleTotals.reduce((a, b) => a + b, 0);
    if (eligibleSubtotal <= 0) throw notValid();

    // Limits: the shopper's own waiting payment with this promotion is replaced by the next one.
    const own = await ownWaitingHolds(tx, cart.userId, p.id);
    const ownOnCode = own.filter((h) => h.codeId === c.id).length;
    if (p.usageLimit !== null && p.redemptions - own.length >= p.usageLimit) throw usedInvalid();
    if (c.usageLimit !== null && c.redemptions - ownOnCode >= c.usageLimit) throw usedInvalid();
    if (p.oncePerCustomer || p.firstOrderOnly) {
      const ownIds = own.map((h) => h.id);
      const live = await tx
        .select({ id: promotionRedemptions.id })
        .from(promotionRedemptions)
        .where(
          and(
            eq(promotionRedemptions.promotionId, p.id),
            eq(promotionRedemptions.userId, cart.userId),
            ne(promotionRedemptions.state, 'released'),
            ownIds.length ? notInArray(promotionRedemptions.id, ownIds) : undefined,
          ),
        )
        .limit(1);
      if (live.length) throw usedInvalid();
    }
    if (p.firstOrderOnly && (await hasOrder(tx, cart.userId))) throw usedInvalid();

    const subtotal = cart.lines.reduce((a, l) => a + l.lineTotalMinor, 0);
    const min = p.minSubtotal[cart.market];
    if (min !== undefined && min !== null && subtotal < min) throw new Invalid(fill('code-min-spend', formatMoney(toMajor(min), cart.currency)));

    const off = discountMinor(eligibleSubtotal, rule);
    return { code, promotionId: p.id, codeId: c.id, discountMinor: off, lineDiscountsMinor: spreadDiscount(eligibleTotals, off) };
  }

  return {
    evaluate,

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
      if (ownIds.length) await releaseWhere(tx, inArray(promotionRedemptions.id, ownIds));
      const p = await takePlace(tx, applied.promotionId, applied.codeId);
      if (p.firstOrderOnly && (await hasOrder(tx, userId))) throw usedConflict();
      try {
        // A savepoint: the refused insert must not leave the caller's transaction aborted for its own error handling.
        await tx.transaction(async (sp) => {
          await sp.insert(promotionRedemptions).values({
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
      const [r] = await tx.select().from(promotionRedemptions).where(eq(promotionRedemptions.paymentId, paymentId)).for('update');
      if (!r || r.state === 'used') return;
      if (r.state === 'released') await takePlace(tx, r.promotionId, r.codeId);
      try {
        await tx.transaction(async (sp) => {
          await sp
            .update(promotionRedemptions)
            .set({ state: 'used', orderId, updatedAt: clock() })
            .where(eq(promotionRedemptions.id, r.id));
        });
      } catch (err) {
        // Back from released while the same customer has another live one (once per customer).
        if (pgError(err).code === '23505') throw usedConflict();
        throw err;
      }
    },

    /** Failed, declined, abandoned (or fulfilment impossible): held -> released, counters give the place back. Idempotent; no-op without one. */
    async release(tx: Db | Tx, paymentId: string): Promise<void> {
      // The state change and the counters together (a savepoint inside the caller's transaction).
      await tx.transaction(async (t) => void (await releaseWhere(t, eq(promotionRedemptions.paymentId, paymentId))));
    },

    /** A new unique code of the 'Newsletter welcome' promotion bound to this e-mail, usage limit 1, valid code_valid_days. */
    async issueWelcomeCode(email: string, tx: Db | Tx = db): Promise<{ code: string; expiresAt: Date; percentOff: number }> {
      const [p] = await tx.select().from(promotions).where(eq(promotions.systemKey, NEWSLETTER_WELCOME)).limit(1);
      if (!p) throw new Error('the Newsletter welcome promotion is missing (migration 0006)');
      const expiresAt = new Date(clock().getTime() + (p.codeValidDays ?? 30) * 86_400_000);
      for (let attempt = 0; ; attempt++) {
        const code = WELCOME_PREFIX + randomCode();
        try {
          // A savepoint (or a transaction of its own): a collision is retried without aborting the caller's transaction.
          await tx.transaction(async (sp) => {
            await sp.insert(promotionCodes).values({
              promotionId: p.id,
              code,
              email: email.trim().toLowerCase(),
              expiresAt,
              usageLimit: 1,
              createdAt: clock(),
            });
          });
          return { code, expiresAt, percentOff: p.percentOff ?? 0 };
        } catch (err) {
          if (pgError(err).code !== '23505' || attempt >= 4) throw err;
        }
      }
    },

    /** The code row (tests, back office). */
    async findCode(code: string, tx: Db | Tx = db): Promise<CodeRow | null> {
      const [c] = await tx.select().from(promotionCodes).where(eq(promotionCodes.code, normaliseCode(code))).limit(1);
      return c ?? null;
    },

    /** A payment's redemption, if any (tests, order views). */
    async redemptionOf(paymentId: string, tx: Db | Tx = db) {
      const [r] = await tx.select().from(promotionRedemptions).where(eq(promotionRedemptions.paymentId, paymentId)).limit(1);
      return r ?? null;
    },
  };
}
export type PromotionService = ReturnType<typeof createPromotionService>;
