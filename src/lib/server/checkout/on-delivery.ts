import { phoneVerified } from '@/lib/server/accounts/phone-verification';
import { and, count, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { Conflict, Invalid } from '@/lib/domain/errors';
import { MARKET_CODES, MARKETS, type MarketCode } from '@/lib/domain/markets';
import { message } from '@/lib/domain/messages';
import { formatMoney, toMajor } from '@/lib/domain/money';
import {
  DEFAULT_MAX_OPEN_POD_ORDERS,
  DEFAULT_PAY_ON_DELIVERY_RULES,
  MAX_REFUSED_DELIVERIES,
  payOnDeliveryTerms,
  type PayOnDeliveryRefusal,
  type PayOnDeliveryRules,
  type PayOnDeliveryStanding,
  type PayOnDeliveryTerms,
} from '@/lib/domain/payment-methods';
import { parseWith } from '@/lib/server/infra/http';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { marketSettings, orders, payments, users, verifiedPhones } from '@/lib/server/infra/db/schema';
import { DEFAULT_PRIVACY_REQUEST_DAYS } from '@/lib/domain/privacy';
import { DEFAULT_GIFT_WRAP_MINOR } from '@/lib/domain/gifts';
import { DEFAULT_PICKUP_POINT_FEE_MINOR } from '@/lib/domain/pickup-points';
import type { Actor, AuditLog } from '@/lib/server/backoffice/audit';

/**
 * Pay on delivery: each market's rules (the one owner of market_settings, which also keeps gift wrapping's and the locker's fees; a market without a row
 * uses DEFAULT_PAY_ON_DELIVERY_RULES), and the terms a shopper gets for an order under them
 * (payOnDeliveryTerms), with the text of a refusal.
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
export const pickupPointFeeSchema = z.object({
  pickupPointFeeMinor: z.coerce
    .number({ error: message('pickup-point-fee-range') })
    .int(message('pickup-point-fee-range'))
    .min(0, message('pickup-point-fee-range'))
    .max(1_000_000_000_000, message('pickup-point-fee-range')),
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

export function createOnDeliveryService({ db, clock, audit }: { db: Db; clock: () => Date; audit?: AuditLog | undefined }) {
  async function rules(market: MarketCode, tx: Db | Tx = db): Promise<PayOnDeliveryRules> {
    const [row] = await tx.select().from(marketSettings).where(eq(marketSettings.market, market)).limit(1);
    if (!row) return { ...DEFAULT_PAY_ON_DELIVERY_RULES[market] };
    return {
      enabled: row.podEnabled,
      capMinor: row.podCapMinor,
      ceilingMinor: row.podCeilingMinor,
      depositPercent: row.podDepositPercent,
      maxOpenOrders: row.podMaxOpenOrders,
    };
  }

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
          inArray(payments.status, ['initialized', 'pending', 'paid']),
          sql`${payments.snapshot}->>'paymentMethod' = 'on_delivery'`,
          opts.exceptCart ? or(ne(payments.cartId, opts.exceptCart), ne(payments.status, 'initialized')) : undefined,
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

  /** Gift wrapping's fee in `market` (minor units): what staff set, else DEFAULT_GIFT_WRAP_MINOR. */
  async function giftWrapFee(market: MarketCode, tx: Db | Tx = db): Promise<number> {
    const [row] = await tx.select({ fee: marketSettings.giftWrapMinor }).from(marketSettings).where(eq(marketSettings.market, market)).limit(1);
    return row?.fee ?? DEFAULT_GIFT_WRAP_MINOR[market];
  }

  /**
   * The fee for delivery to a courier's pickup point in `market` (minor units): what staff set, else
   * DEFAULT_PICKUP_POINT_FEE_MINOR (null: the market has no lockers to offer). The one place checkout,
   * its price check and the order read it; a placed order keeps the fee it was priced with.
   */
  async function pickupPointFee(market: MarketCode, tx: Db | Tx = db): Promise<number | null> {
    const [row] = await tx.select({ fee: marketSettings.pickupPointFeeMinor }).from(marketSettings).where(eq(marketSettings.market, market)).limit(1);
    return row?.fee ?? DEFAULT_PICKUP_POINT_FEE_MINOR[market];
  }

  /** Days the store has to answer a data request made by mail or phone in `market`. */
  async function privacyRequestDays(market: MarketCode, tx: Db | Tx = db): Promise<number> {
    const [row] = await tx.select({ days: marketSettings.privacyRequestDays }).from(marketSettings).where(eq(marketSettings.market, market)).limit(1);
    return row?.days ?? DEFAULT_PRIVACY_REQUEST_DAYS;
  }

  /**
   * Writes one of a market's settings, audited with its value before and after. A market without a
   * row gets one, holding its current pay-on-delivery rules (the row's other columns keep their defaults).
   */
  async function saveMarketSetting<K extends 'giftWrapMinor' | 'pickupPointFeeMinor' | 'privacyRequestDays'>(
    actor: Actor,
    market: MarketCode,
    column: K,
    value: number,
    read: (tx: Tx) => Promise<number | null>,
    action: string,
  ): Promise<void> {
    await db.transaction(async (tx) => {
      const r = await rules(market, tx);
      const before = await read(tx);
      const set = { [column]: value, updatedAt: clock() } as { [P in K]: number } & { updatedAt: Date };
      await tx
        .insert(marketSettings)
        .values({ market, podEnabled: r.enabled, podCapMinor: r.capMinor, podCeilingMinor: r.ceilingMinor, podDepositPercent: r.depositPercent, podMaxOpenOrders: r.maxOpenOrders, ...set })
        .onConflictDoUpdate({ target: marketSettings.market, set });
      await audit?.record(actor, { action, entity: 'market', entityId: market, details: { before, after: value } }, tx);
    });
  }

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
      if (!(MARKET_CODES as readonly string[]).includes(market)) throw new Invalid(`Unknown market ${String(market)}`);
      const next = parseWith(payOnDeliveryRulesSchema, input);
      return db.transaction(async (tx) => {
        const before = await rules(market, tx);
        const values = {
          podEnabled: next.enabled,
          podCapMinor: next.capMinor,
          podCeilingMinor: next.ceilingMinor,
          podDepositPercent: next.depositPercent,
          podMaxOpenOrders: next.maxOpenOrders,
          updatedAt: clock(),
        };
        await tx
          .insert(marketSettings)
          .values({ market, ...values })
          .onConflictDoUpdate({ target: marketSettings.market, set: values });
        await audit?.record(actor, { action: 'market.pay-on-delivery', entity: 'market', entityId: market, details: { before, after: next } }, tx);
        return next;
      });
    },

    giftWrapFee,

    /** Staff set gift wrapping's fee for a market; audited. */
    async setGiftWrapFee(actor: Actor, market: MarketCode, input: unknown): Promise<number> {
      if (!(MARKET_CODES as readonly string[]).includes(market)) throw new Invalid(`Unknown market ${String(market)}`);
      const fee = parseWith(giftWrapFeeSchema, input).giftWrapMinor;
      await saveMarketSetting(actor, market, 'giftWrapMinor', fee, (tx) => giftWrapFee(market, tx), 'market.gift-wrap');
      return fee;
    },

    pickupPointFee,

    /** Staff set the locker delivery fee for a market; audited. */
    async setPickupPointFee(actor: Actor, market: MarketCode, input: unknown): Promise<number> {
      if (!(MARKET_CODES as readonly string[]).includes(market)) throw new Invalid(`Unknown market ${String(market)}`);
      const fee = parseWith(pickupPointFeeSchema, input).pickupPointFeeMinor;
      await saveMarketSetting(actor, market, 'pickupPointFeeMinor', fee, (tx) => pickupPointFee(market, tx), 'market.pickup-point-fee');
      return fee;
    },

    privacyRequestDays,

    /** Staff set those days for a market; audited. */
    async setPrivacyRequestDays(actor: Actor, market: MarketCode, days: number): Promise<void> {
      await saveMarketSetting(actor, market, 'privacyRequestDays', days, (tx) => privacyRequestDays(market, tx), 'market.privacy-request-days');
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
