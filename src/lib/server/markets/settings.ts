import { eq } from 'drizzle-orm';
import type { MarketCode } from '@/lib/domain/markets';
import { DEFAULT_PAY_ON_DELIVERY_RULES, type PayOnDeliveryRules } from '@/lib/domain/payment-methods';
import { DEFAULT_PRIVACY_REQUEST_DAYS } from '@/lib/domain/privacy';
import { DEFAULT_GIFT_WRAP_MINOR } from '@/lib/domain/gifts';
import { DEFAULT_LOCKER_FEE_MINOR } from '@/lib/domain/lockers';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import type { Actor, AuditLog } from '@/lib/server/backoffice/audit';
import { marketSettings } from './tables';

/**
 * Each market's settings as staff set them (market_settings, whose one writer this is): the
 * pay-on-delivery rules, gift wrapping's and the locker's fees, and the days a data request may
 * take. A market without a row uses the defaults (DEFAULT_PAY_ON_DELIVERY_RULES and the others).
 * Every write is audited with the value before and after.
 */
export function createMarketSettings({ db, clock, audit }: { db: Db; clock: () => Date; audit?: AuditLog | undefined }) {
  async function payOnDeliveryRules(market: MarketCode, tx: Db | Tx = db): Promise<PayOnDeliveryRules> {
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

  /** Gift wrapping's fee in `market` (minor units): what staff set, else DEFAULT_GIFT_WRAP_MINOR. */
  async function giftWrapFee(market: MarketCode, tx: Db | Tx = db): Promise<number> {
    const [row] = await tx.select({ fee: marketSettings.giftWrapMinor }).from(marketSettings).where(eq(marketSettings.market, market)).limit(1);
    return row?.fee ?? DEFAULT_GIFT_WRAP_MINOR[market];
  }

  /**
   * The fee for delivery to a courier's locker in `market` (minor units): what staff set, else
   * DEFAULT_LOCKER_FEE_MINOR (null: the market has no lockers to offer). The one place checkout,
   * its price check and the order read it; a placed order keeps the fee it was priced with.
   */
  async function lockerFee(market: MarketCode, tx: Db | Tx = db): Promise<number | null> {
    const [row] = await tx.select({ fee: marketSettings.lockerFeeMinor }).from(marketSettings).where(eq(marketSettings.market, market)).limit(1);
    return row?.fee ?? DEFAULT_LOCKER_FEE_MINOR[market];
  }

  /** Days the store has to answer a data request made by mail or phone in `market`. */
  async function privacyRequestDays(market: MarketCode, tx: Db | Tx = db): Promise<number> {
    const [row] = await tx.select({ days: marketSettings.privacyRequestDays }).from(marketSettings).where(eq(marketSettings.market, market)).limit(1);
    return row?.days ?? DEFAULT_PRIVACY_REQUEST_DAYS;
  }

  type Column = 'giftWrapMinor' | 'lockerFeeMinor' | 'privacyRequestDays';
  const READS: Record<Column, (market: MarketCode, tx: Tx) => Promise<number | null>> = {
    giftWrapMinor: giftWrapFee,
    lockerFeeMinor: lockerFee,
    privacyRequestDays,
  };

  return {
    payOnDeliveryRules,
    giftWrapFee,
    lockerFee,
    privacyRequestDays,

    /** Staff set a market's pay-on-delivery rules (already validated); audited with the rules before and after. */
    async savePayOnDeliveryRules(actor: Actor, market: MarketCode, next: PayOnDeliveryRules): Promise<void> {
      await db.transaction(async (tx) => {
        const before = await payOnDeliveryRules(market, tx);
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
      });
    },

    /**
     * Writes one of a market's settings, audited with its value before and after. A market without a
     * row gets one, holding its current pay-on-delivery rules (the row's other columns keep their defaults).
     */
    async saveMarketSetting<K extends Column>(actor: Actor, market: MarketCode, column: K, value: number, action: string): Promise<void> {
      await db.transaction(async (tx) => {
        const r = await payOnDeliveryRules(market, tx);
        const before = await READS[column](market, tx);
        const set = { [column]: value, updatedAt: clock() } as { [P in K]: number } & { updatedAt: Date };
        await tx
          .insert(marketSettings)
          .values({ market, podEnabled: r.enabled, podCapMinor: r.capMinor, podCeilingMinor: r.ceilingMinor, podDepositPercent: r.depositPercent, podMaxOpenOrders: r.maxOpenOrders, ...set })
          .onConflictDoUpdate({ target: marketSettings.market, set });
        await audit?.record(actor, { action, entity: 'market', entityId: market, details: { before, after: value } }, tx);
      });
    },
  };
}
export type MarketSettings = ReturnType<typeof createMarketSettings>;
