import { phoneVerified } from '@/lib/server/accounts/phone-verification';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { Invalid } from '@/lib/domain/errors';
import { MARKET_CODES, MARKETS, type MarketCode } from '@/lib/domain/markets';
import { message } from '@/lib/domain/messages';
import { formatMoney, toMajor } from '@/lib/domain/money';
import {
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
import { marketSettings, users } from '@/lib/server/infra/db/schema';
import { DEFAULT_PRIVACY_REQUEST_DAYS } from '@/lib/domain/privacy';
import type { Actor, AuditLog } from '@/lib/server/backoffice/audit';

/**
 * Pay on delivery: each market's rules (the one owner of market_settings; a market without a row
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
  })
  .refine((r) => r.capMinor <= r.ceilingMinor, { message: message('pod-rules-cap-above-ceiling'), path: ['capMinor'] });

/** The text that says why pay on delivery is not offered. */
export function refusalText(reason: PayOnDeliveryRefusal, market: MarketCode, rules: PayOnDeliveryRules): string {
  switch (reason) {
    case 'pod-disabled':
      return message('pod-disabled', market);
    case 'pod-above-ceiling':
      return message('pod-above-ceiling', formatMoney(toMajor(rules.ceilingMinor), MARKETS[market].currency));
    case 'pod-refused-deliveries':
      return message('pod-refused-deliveries', String(MAX_REFUSED_DELIVERIES));
    case 'phone-not-verified':
      return message('phone-not-verified');
  }
}

export type OnDeliveryTerms = PayOnDeliveryTerms & { rules: PayOnDeliveryRules; text?: string };

export function createOnDeliveryService({ db, clock, audit }: { db: Db; clock: () => Date; audit?: AuditLog | undefined }) {
  async function rules(market: MarketCode, tx: Db | Tx = db): Promise<PayOnDeliveryRules> {
    const [row] = await tx.select().from(marketSettings).where(eq(marketSettings.market, market)).limit(1);
    if (!row) return { ...DEFAULT_PAY_ON_DELIVERY_RULES[market] };
    return { enabled: row.podEnabled, capMinor: row.podCapMinor, ceilingMinor: row.podCeilingMinor, depositPercent: row.podDepositPercent };
  }

  /** The shopper's standing: a verified phone (the phone module's rule) and refused deliveries. */
  async function standing(userId: string): Promise<PayOnDeliveryStanding> {
    const [u] = await db
      .select({ phoneNumber: users.phoneNumber, phoneVerifiedNumber: users.phoneVerifiedNumber, refused: users.refusedDeliveries })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    return { phoneVerified: u !== undefined && phoneVerified(u), refusedDeliveries: u?.refused ?? 0 };
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

    /** Days the store has to answer a data request made by mail or phone in `market`. */
    async privacyRequestDays(market: MarketCode): Promise<number> {
      const [row] = await db.select({ days: marketSettings.privacyRequestDays }).from(marketSettings).where(eq(marketSettings.market, market)).limit(1);
      return row?.days ?? DEFAULT_PRIVACY_REQUEST_DAYS;
    },

    /** Staff set those days for a market (a market without a row gets the default pay-on-delivery rules with it); audited. */
    async setPrivacyRequestDays(actor: Actor, market: MarketCode, days: number): Promise<void> {
      await db.transaction(async (tx) => {
        const r = await rules(market, tx);
        const [before] = await tx.select({ days: marketSettings.privacyRequestDays }).from(marketSettings).where(eq(marketSettings.market, market)).limit(1);
        await tx
          .insert(marketSettings)
          .values({ market, podEnabled: r.enabled, podCapMinor: r.capMinor, podCeilingMinor: r.ceilingMinor, podDepositPercent: r.depositPercent, privacyRequestDays: days, updatedAt: clock() })
          .onConflictDoUpdate({ target: marketSettings.market, set: { privacyRequestDays: days, updatedAt: clock() } });
        await audit?.record(actor, { action: 'market.privacy-request-days', entity: 'market', entityId: market, details: { before: before?.days ?? DEFAULT_PRIVACY_REQUEST_DAYS, after: days } }, tx);
      });
    },

    /** The terms for this shopper's order of `totalMinor` in `market`, with the text of a refusal. */
    async termsFor(userId: string, market: MarketCode, totalMinor: number): Promise<OnDeliveryTerms> {
      const [r, s] = await Promise.all([rules(market), standing(userId)]);
      const terms = payOnDeliveryTerms(totalMinor, r, s);
      return terms.allowed ? { ...terms, rules: r } : { ...terms, rules: r, text: refusalText(terms.reason, market, r) };
    },
  };
}
export type OnDeliveryService = ReturnType<typeof createOnDeliveryService>;
