import { phoneVerified } from '@/lib/server/accounts/phone-verification';
import { and, count, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { Conflict, Invalid } from '@/lib/domain/errors';
import { MARKET_CODES, MARKETS, type MarketCode } from '@/lib/domain/markets';
import { fill, message } from '@/lib/domain/messages';
import { formatMoney, toMajor } from '@/lib/domain/money';
import {
  DEFAULT_MAX_OPEN_POD_ORDERS,
  MAX_REFUSED_DELIVERIES,
  payOnDeliveryTerms,
  type PayOnDeliveryRefusal,
  type PayOnDeliveryRules,
  type PayOnDeliveryStanding,
  type PayOnDeliveryTerms,
} from '@/lib/domain/payment-methods';
import { parseWith } from '@/lib/server/infra/http';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { users, verifiedPhones } from '@/lib/server/accounts/tables';
import { orders } from '@/lib/server/orders/tables';
import { payments } from '@/lib/server/payments/tables';
import { OPEN_PAYMENT_STATUSES, PAYMENT_STATUSES } from '@/lib/domain/payments';
import type { Actor } from '@/lib/server/backoffice/audit';
import type { MarketSettings } from '@/lib/server/markets/settings';

/**
 * Pay on delivery: each market's rules (kept with the market's other settings by
 * markets/settings.ts), validated as staff set them, and the terms a shopper gets for an order
 * under them (payOnDeliveryTerms), with the text of a refusal.
 */

const minor = z.coerce.number().int().min(0).max(1_000_000_000_000);
export const payOnDeliveryRulesSchema = z
  .object({
    enabled: z.preprocess((v) => v === true || v === 'true' || v === 'on', z.boolean()),
    capMinor: minor,
    ceilingMinor: minor,
    depositPercent: z.coerce.number().int().min(1).max(100),
    maxOpenOrders: z.coerce.number().int().min(1).max(100).default(DEFAULT_MAX_OPEN_POD_ORDERS),
  })
  .refine((r) => r.capMinor <= r.ceilingMinor, { message: message('pod-rules-cap-above-ceiling'), path: ['capMinor'] });

/** Gift wrapping's fee as staff set it, in minor units. */
export const giftWrapFeeSchema = z.object({
  giftWrapMinor: z.coerce.number({ error: message('gift-wrap-range') }).int(message('gift-wrap-range')).min(0, message('gift-wrap-range')).max(1_000_000_000_000, message('gift-wrap-range')),
});

/** The locker delivery fee as staff set it, in minor units. */
export const lockerFeeSchema = z.object({
  lockerFeeMinor: z.coerce
    .number({ error: message('locker-fee-range') })
    .int(message('locker-fee-range'))
    .min(0, message('locker-fee-range'))
    .max(1_000_000_000_000, message('locker-fee-range')),
});

/** The text that says why pay on delivery is not offered. */
export function refusalText(reason: PayOnDeliveryRefusal, market: MarketCode, rules: PayOnDeliveryRules): string {
  switch (reason) {
    case 'pod-disabled':
      return message('pod-disabled', market);
    case 'pod-above-ceiling':
      return message('pod-above-ceiling', formatMoney(toMajor(rules.ceilingMinor), MARKETS[market].currency));
    case 'pod-refused-deliveries':
      return message('pod-refused-deliveries', String(MAX_REFUSED_DELIVERIES));
    case 'pod-open-orders':
      return message('pod-open-orders', String(rules.maxOpenOrders));
    case 'pod-open-above-ceiling':
      return message('pod-open-above-ceiling', formatMoney(toMajor(rules.ceilingMinor), MARKETS[market].currency));
    case 'phone-not-verified':
      return message('phone-not-verified');
  }
}

export type OnDeliveryTerms = PayOnDeliveryTerms & { rules: PayOnDeliveryRules; text?: string };

/** A shopper's pay-on-delivery orders placed and still open (neither settled at the door nor cancelled), and what they come to less store credit. */
async function openOrders(tx: Db | Tx, userId: string, currency: string): Promise<{ n: number; minor: number }> {
  const [row] = await tx
    .select({ n: count(), minor: sql<string>`coalesce(sum(${orders.totalMinor} - ${orders.storeCreditMinor}), 0)` })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.currency, currency), eq(orders.paymentMethod, 'on_delivery'), isNull(orders.collectionOutcome), ne(orders.status, 'cancelled')));
  return { n: Number(row?.n ?? 0), minor: Number(row?.minor ?? 0) };
}

export function createOnDeliveryService({ db, settings }: { db: Db; settings: MarketSettings }) {
  const rules = settings.payOnDeliveryRules;

  /**
   * The shopper's standing in `market`: a verified phone (the phone module's rule), refused
   * deliveries (the account's, or its verified number's when more), and the pay-on-delivery orders
   * still open: orders neither settled at the door nor cancelled, and checkout payments on their way
   * to becoming one. A payment of `exceptCart` only waiting to be paid is left out: the start being
   * made for that cart replaces it.
   */
  async function standing(userId: string, market: MarketCode, opts: { tx?: Db | Tx; exceptCart?: string } = {}): Promise<PayOnDeliveryStanding> {
    const tx = opts.tx ?? db;
    const currency = MARKETS[market].currency;
    const [u] = await tx
      .select({
        phoneNumber: users.phoneNumber,
        phoneVerifiedNumber: users.phoneVerifiedNumber,
        refused: users.refusedDeliveries,
        phoneRefused: verifiedPhones.refusedDeliveries,
      })
      .from(users)
      .leftJoin(verifiedPhones, eq(verifiedPhones.phone, users.phoneVerifiedNumber))
      .where(eq(users.id, userId))
      .limit(1);
    const placed = await openOrders(tx, userId, currency);
    const [starting] = await tx
      .select({
        n: count(),
        minor: sql<string>`coalesce(sum((${payments.snapshot}->>'totalMinor')::bigint - coalesce((${payments.snapshot}->>'storeCreditMinor')::bigint, 0)), 0)`,
      })
      .from(payments)
      .where(
        and(
          eq(payments.userId, userId),
          eq(payments.currency, currency),
          eq(payments.purpose, 'checkout'),
          inArray(payments.status, OPEN_PAYMENT_STATUSES),
          sql`${payments.snapshot}->>'paymentMethod' = 'on_delivery'`,
          opts.exceptCart ? or(ne(payments.cartId, opts.exceptCart), ne(payments.status, PAYMENT_STATUSES.initialized)) : undefined,
        ),
      );
    return {
      phoneVerified: u !== undefined && phoneVerified(u),
      refusedDeliveries: Math.max(u?.refused ?? 0, u?.phoneRefused ?? 0),
      openOrders: placed.n + Number(starting?.n ?? 0),
      openMinor: placed.minor + Number(starting?.minor ?? 0),
    };
  }

  async function terms(userId: string, market: MarketCode, totalMinor: number, opts: { tx?: Db | Tx; exceptCart?: string } = {}): Promise<OnDeliveryTerms> {
    const r = await rules(market, opts.tx);
    const s = await standing(userId, market, opts);
    const t = payOnDeliveryTerms(totalMinor, r, s);
    return t.allowed ? { ...t, rules: r } : { ...t, rules: r, text: refusalText(t.reason, market, r) };
  }

  const { giftWrapFee, lockerFee } = settings;

  return {
    rules,
    standing,

    /** Every market's rules, for the back office. */
    async allRules(): Promise<Record<MarketCode, PayOnDeliveryRules>> {
      const entries = await Promise.all(MARKET_CODES.map(async (m) => [m, await rules(m)] as const));
      return Object.fromEntries(entries) as Record<MarketCode, PayOnDeliveryRules>;
    },

    /** Staff set a market's rules (validated; audited with the rules before and after). */
    async setRules(actor: Actor, market: MarketCode, input: unknown): Promise<PayOnDeliveryRules> {
      if (!(MARKET_CODES as readonly string[]).includes(market)) throw new Invalid(fill('market-unknown', String(market)));
      const next = parseWith(payOnDeliveryRulesSchema, input);
      await settings.savePayOnDeliveryRules(actor, market, next);
      return next;
    },

    giftWrapFee,

    /** Staff set gift wrapping's fee for a market; audited. */
    async setGiftWrapFee(actor: Actor, market: MarketCode, input: unknown): Promise<number> {
      if (!(MARKET_CODES as readonly string[]).includes(market)) throw new Invalid(fill('market-unknown', String(market)));
      const fee = parseWith(giftWrapFeeSchema, input).giftWrapMinor;
      await settings.saveMarketSetting(actor, market, 'giftWrapMinor', fee, 'market.gift-wrap');
      return fee;
    },

    lockerFee,

    /** Staff set the locker delivery fee for a market; audited. */
    async setLockerFee(actor: Actor, market: MarketCode, input: unknown): Promise<number> {
      if (!(MARKET_CODES as readonly string[]).includes(market)) throw new Invalid(fill('market-unknown', String(market)));
      const fee = parseWith(lockerFeeSchema, input).lockerFeeMinor;
      await settings.saveMarketSetting(actor, market, 'lockerFeeMinor', fee, 'market.locker-fee');
      return fee;
    },

    /** The terms for this shopper's order of `totalMinor` in `market` from `cartId`, with the text of a refusal. */
    async termsFor(userId: string, market: MarketCode, totalMinor: number, cartId?: string): Promise<OnDeliveryTerms> {
      return terms(userId, market, totalMinor, cartId ? { exceptCart: cartId } : {});
    },

    /**
     * The shopper's row lock, which pay on delivery's counts are taken under: a checkout start takes
     * it first (before the cart's), placing an order after the payment's.
     */
    async lockShopper(tx: Tx, userId: string): Promise<void> {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    },

    /**
     * The same terms again inside the transaction that creates the checkout's payment, under the
     * shopper's row lock (lockShopper): two checkouts of one shopper at once are counted one after
     * the other, so together they cannot pass the open-orders limit or the ceiling. Refused
     * (Conflict) when pay on delivery is no longer allowed, or asks a different deposit than the one
     * the payment was priced with.
     */
    async confirmTerms(tx: Tx, input: { userId: string; market: MarketCode; totalMinor: number; cartId: string; dueMinor: number }): Promise<void> {
      const now = await terms(input.userId, input.market, input.totalMinor, { tx, exceptCart: input.cartId });
      if (!now.allowed) throw new Conflict(now.text ?? message('pod-disabled', input.market));
      if (now.dueMinor !== input.dueMinor) throw new Conflict(message('pod-terms-changed'));
    },

    /**
     * Whether a paid pay-on-delivery checkout may become an order now, under the shopper's row lock:
     * with the orders already placed (not the starts still waiting, this one among them) it stays
     * within the open-orders limit and the ceiling of its market.
     */
    async mayPlace(tx: Tx, input: { userId: string; currency: string; totalMinor: number }): Promise<boolean> {
      const market = MARKET_CODES.find((m) => MARKETS[m].currency === input.currency);
      if (!market) return true;
      const r = await rules(market, tx);
      const placed = await openOrders(tx, input.userId, input.currency);
      return placed.n < r.maxOpenOrders && placed.minor + input.totalMinor <= r.ceilingMinor;
    },
  };
}
export type OnDeliveryService = ReturnType<typeof createOnDeliveryService>;
