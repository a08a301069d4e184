import { eq, sql } from 'drizzle-orm';
import type { MarketCode } from '@/lib/domain/markets';
import { DEFAULT_PAY_ON_DELIVERY_RULES, type PayOnDeliveryRules } from '@/lib/domain/payment-methods';
import type { Actor, AuditLog } from '@/lib/server/backoffice/audit';
import type { Db } from '@/lib/server/infra/db/client';
import { marketSettings } from '@/lib/server/infra/db/schema';

/**
 * Pay on delivery's rules per market (ADR 0013): the one writer of market_settings; a market
 * without a row has DEFAULT_PAY_ON_DELIVERY_RULES. (The collect lane's minimal version: rules and
 * setRules only; the checkout side adds its offer and refusals here.)
 */
export function createOnDeliveryService({ db, audit }: { db: Db; audit?: AuditLog }) {
  return {
    async rules(market: MarketCode): Promise<PayOnDeliveryRules> {
      const [row] = await db.select().from(marketSettings).where(eq(marketSettings.market, market)).limit(1);
      if (!row) return { ...DEFAULT_PAY_ON_DELIVERY_RULES[market] };
      return { enabled: row.podEnabled, capMinor: row.podCapMinor, ceilingMinor: row.podCeilingMinor, depositPercent: row.podDepositPercent };
    },

    /** Staff change a market's rules (audited with the before and after). */
    async setRules(actor: Actor, market: MarketCode, rules: PayOnDeliveryRules): Promise<void> {
      await db.transaction(async (tx) => {
        const [before] = await tx.select().from(marketSettings).where(eq(marketSettings.market, market)).for('update');
        const values = { podEnabled: rules.enabled, podCapMinor: rules.capMinor, podCeilingMinor: rules.ceilingMinor, podDepositPercent: rules.depositPercent, updatedAt: sql`now()` };
        await tx.insert(marketSettings).values({ market, ...values }).onConflictDoUpdate({ target: marketSettings.market, set: values });
        await audit?.record(actor, { action: 'market.pay-on-delivery', entity: 'market', entityId: market, details: { before: before ?? DEFAULT_PAY_ON_DELIVERY_RULES[market], after: rules } }, tx);
      });
    },
  };
}
export type OnDeliveryService = ReturnType<typeof createOnDeliveryService>;
