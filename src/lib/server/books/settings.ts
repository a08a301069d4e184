import { eq } from 'drizzle-orm';
import { Invalid } from '@/lib/domain/errors';
import { MARKET_CODES, type MarketCode } from '@/lib/domain/markets';
import { fill } from '@/lib/domain/messages';
import { percentToBasisPoints, taxSettingsInput, type TaxSettings } from '@/lib/domain/tax-settings';
import type { Actor, AuditLog } from '@/lib/server/backoffice/audit';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { parseWith } from '@/lib/server/infra/http';
import { taxSettings } from './tables';

/**
 * Each market's tax settings (tax_settings, whose one writer this is). A market without a row is
 * not registered: its orders carry no VAT and get no tax documents. Every change is audited with
 * the settings before and after, in the transaction that makes it. A rate added with a later date
 * applies to orders placed from that day; placed orders keep the VAT they were placed with.
 */

type Row = typeof taxSettings.$inferSelect;

function fromRow(row: Row): TaxSettings {
  return {
    market: row.market,
    registered: row.registered,
    legalName: row.legalName,
    address: row.address,
    taxNumber: row.taxNumber,
    rates: row.rates,
    deliveryTaxed: row.deliveryTaxed,
    giftWrapTaxed: row.giftWrapTaxed,
    lockerFeeTaxed: row.lockerFeeTaxed,
    periodMonths: row.periodMonths === 2 ? 2 : 1,
    periodStartsOdd: row.periodStartsOdd,
    notice: row.notice,
  };
}

/** A market's settings read in `tx` (null: not set, so not registered). */
export async function taxSettingsOf(tx: Db | Tx, market: MarketCode): Promise<TaxSettings | null> {
  const [row] = await tx.select().from(taxSettings).where(eq(taxSettings.market, market)).limit(1);
  return row ? fromRow(row) : null;
}

/** The demo store's notice on every document it issues. */
export const DEMO_TAX_NOTICE = 'Demo numbers: not a real registration. This document is not valid for tax.';

/**
 * The demo store's settings: registered in both markets, with numbers of the right shape that say
 * they are not real (all zeros after the prefix), and the notice on every document.
 */
export async function seedDemoTaxSettings(tx: Db | Tx): Promise<void> {
  const at = new Date();
  await tx
    .insert(taxSettings)
    .values([
      {
        market: 'ZA',
        registered: true,
        legalName: 'Maison Luxe (Pty) Ltd (demo)',
        address: '1 Demo Avenue, Sandton\nJohannesburg 2196\nSouth Africa',
        taxNumber: '4000000000',
        rates: [{ basisPoints: 1500, from: '2018-04-01' }],
        periodMonths: 2,
        periodStartsOdd: true,
        notice: DEMO_TAX_NOTICE,
        updatedAt: at,
      },
      {
        market: 'NG',
        registered: true,
        legalName: 'Maison Luxe Nigeria Ltd (demo)',
        address: '1 Demo Close, Ikoyi\nLagos\nNigeria',
        taxNumber: '00000000-0001',
        rates: [{ basisPoints: 750, from: '2020-02-01' }],
        periodMonths: 1,
        periodStartsOdd: true,
        notice: DEMO_TAX_NOTICE,
        updatedAt: at,
      },
    ])
    .onConflictDoNothing();
}

export function createTaxSettingsService({ db, clock, audit }: { db: Db; clock: () => Date; audit?: AuditLog | undefined }) {
  function marketOf(market: string): MarketCode {
    if (!(MARKET_CODES as readonly string[]).includes(market)) throw new Invalid(fill('market-unknown', market));
    return market as MarketCode;
  }

  return {
    read: (market: MarketCode, tx: Db | Tx = db) => taxSettingsOf(tx, market),

    async all(): Promise<Record<MarketCode, TaxSettings | null>> {
      const entries = await Promise.all(MARKET_CODES.map(async (m) => [m, await taxSettingsOf(db, m)] as const));
      return Object.fromEntries(entries) as Record<MarketCode, TaxSettings | null>;
    },

    /** The owner sets a market's settings (validated per market; audited before and after). */
    async save(actor: Actor, marketCode: string, input: unknown): Promise<TaxSettings> {
      const market = marketOf(marketCode);
      const next = parseWith(taxSettingsInput(market), input);
      const rates = [...new Map(next.rates.map((r) => [r.from, { basisPoints: percentToBasisPoints(r.percent), from: r.from }])).values()].sort((a, b) => a.from.localeCompare(b.from));
      return db.transaction(async (tx) => {
        const before = await taxSettingsOf(tx, market);
        const values = {
          registered: next.registered,
          legalName: next.legalName,
          address: next.address,
          taxNumber: next.taxNumber,
          rates,
          deliveryTaxed: next.deliveryTaxed,
          giftWrapTaxed: next.giftWrapTaxed,
          lockerFeeTaxed: next.lockerFeeTaxed,
          periodMonths: next.periodMonths,
          periodStartsOdd: next.periodStartsOdd,
          updatedAt: clock(),
        };
        const [row] = await tx
          .insert(taxSettings)
          .values({ market, ...values, notice: before?.notice ?? null })
          .onConflictDoUpdate({ target: taxSettings.market, set: values })
          .returning();
        await audit?.record(actor, { action: 'market.tax-settings', entity: 'market', entityId: market, details: { before, after: values } }, tx);
        return fromRow(row!);
      });
    },
  };
}
export type TaxSettingsService = ReturnType<typeof createTaxSettingsService>;
