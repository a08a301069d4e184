import { and, eq, inArray, ne, notInArray } from 'drizzle-orm';
import { Invalid } from '@/lib/domain/errors';
import type { MarketCode } from '@/lib/domain/markets';
import { fill, message } from '@/lib/domain/messages';
import { formatMoney, toMajor, type CurrencyCode } from '@/lib/domain/money';
import { discountMinor, normaliseCode, spreadDiscount, type DiscountRule } from '@/lib/domain/promotions';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { categories } from '@/lib/server/catalogue/tables';
import { promotionCodes, promotionRedemptions, promotions } from '@/lib/server/promotions/tables';
import { hasOrder, ownWaitingHolds, unpaidTooLong } from './holds';
import type { PromotionRow } from './rows';

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

const notValid = () => new Invalid(message('code-not-valid'));
const expired = () => new Invalid(message('code-expired'));
const usedInvalid = () => new Invalid(message('code-used'));

export function ruleOf(p: Pick<PromotionRow, 'kind' | 'percentOff' | 'amountOff'>, market: MarketCode): DiscountRule | null {
  if (p.kind === 'percent') return p.percentOff ? { kind: 'percent', percentOff: p.percentOff } : null;
  const amount = p.amountOff[market];
  return amount === undefined || amount === null || amount <= 0 ? null : { kind: 'fixed', amountOffMinor: amount };
}

/** Which categories count for a promotion limited to `ids`: those, and their sub-categories. */
async function eligibleCategories(tx: Db | Tx, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const children = await tx.select({ id: categories.id }).from(categories).where(inArray(categories.parentId, ids));
  return new Set([...ids, ...children.map((c) => c.id)]);
}

/**
 * Whether a code applies to a cart, and what it takes off each line: its dates, its market, its
 * categories, the places left under its limits as a hold would find them, once per customer, first
 * order only and the minimum spend. Nothing is written: the place is taken at payment (limits.ts).
 */
export function createCodeCheck({ db, clock }: { db: Db; clock: () => Date }) {
  return {
    async evaluate(input: string, cart: CartForDiscount, tx: Db | Tx = db): Promise<AppliedDiscount> {
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
      // Places held too long by unpaid payments are free too (hold releases them).
      const own = await ownWaitingHolds(tx, cart.userId, p.id);
      const free = new Map(own.map((h) => [h.id, h.codeId]));
      if (p.usageLimit !== null || c.usageLimit !== null) {
        const stale = await tx.select({ id: promotionRedemptions.id, codeId: promotionRedemptions.codeId }).from(promotionRedemptions).where(unpaidTooLong(p.id, clock()));
        for (const h of stale) free.set(h.id, h.codeId);
      }
      const freeOnCode = [...free.values()].filter((codeId) => codeId === c.id).length;
      if (p.usageLimit !== null && p.redemptions - free.size >= p.usageLimit) throw usedInvalid();
      if (c.usageLimit !== null && c.redemptions - freeOnCode >= c.usageLimit) throw usedInvalid();
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

      // The minimum spend is on the cart's subtotal (every line, before the discount, without delivery).
      const subtotal = cart.lines.reduce((a, l) => a + l.lineTotalMinor, 0);
      const min = p.minSubtotal[cart.market];
      if (min !== undefined && min !== null && subtotal < min) throw new Invalid(fill('code-min-spend', formatMoney(toMajor(min), cart.currency)));

      const off = discountMinor(eligibleSubtotal, rule);
      return { code, promotionId: p.id, codeId: c.id, discountMinor: off, lineDiscountsMinor: spreadDiscount(eligibleTotals, off) };
    },

    /** The code row (tests, back office). */
    async findCode(code: string, tx: Db | Tx = db): Promise<typeof promotionCodes.$inferSelect | null> {
      const [c] = await tx.select().from(promotionCodes).where(eq(promotionCodes.code, normaliseCode(code))).limit(1);
      return c ?? null;
    },
  };
}
