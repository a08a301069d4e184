import { and, eq, inArray, sql } from 'drizzle-orm';
import { Invalid } from '@/lib/domain/errors';
import { MARKETS, type MarketCode } from '@/lib/domain/markets';
import { fill, message } from '@/lib/domain/messages';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { variantPrices, variants } from '@/lib/server/catalogue/tables';

/**
 * Prices belong to variants, per market: the one writer of `variant_prices` (and so of the products'
 * "from" prices, `product_from_prices`, which the database keeps from it).
 */

/** Prices per market in minor units: a number sets it, null takes it off sale there, absent leaves it. */
export type MarketPrices = Partial<Record<MarketCode, number | null>>;

/** The prices an input sets: `prices`, with `priceMinor` standing for Nigeria's when given alone. */
export function pricesOf(input: { priceMinor?: number | undefined; prices?: MarketPrices | undefined }): MarketPrices {
  return checkedPrices({ ...(input.priceMinor !== undefined ? { NG: input.priceMinor } : {}), ...input.prices });
}

export function checkedPrices(prices: MarketPrices = {}): MarketPrices {
  for (const [code, minor] of Object.entries(prices)) {
    if (!(code in MARKETS)) throw new Invalid(fill('market-unknown', code));
    if (minor !== null && minor !== undefined && (!Number.isSafeInteger(minor) || minor < 0)) {
      throw new Invalid(message('price-minor-units'));
    }
  }
  return prices;
}

/** Writes one variant's prices: a number sets it, null takes the variant off sale in that market. */
export async function writeVariantPrices(tx: Db | Tx, variantIds: number[], prices: MarketPrices): Promise<void> {
  if (variantIds.length === 0) return;
  for (const [market, minor] of Object.entries(prices)) {
    if (minor === undefined) continue;
    if (minor === null) {
      await tx.delete(variantPrices).where(and(inArray(variantPrices.variantId, variantIds), eq(variantPrices.market, market)));
    } else {
      await tx
        .insert(variantPrices)
        .values(variantIds.map((variantId) => ({ variantId, market, priceMinor: minor })))
        .onConflictDoUpdate({ target: [variantPrices.variantId, variantPrices.market], set: { priceMinor: minor } });
    }
  }
}

/** Sets the given markets' price on every variant of the product. */
export async function writeProductPrices(tx: Db | Tx, productId: number, prices: MarketPrices): Promise<void> {
  const ids = await tx.select({ id: variants.id }).from(variants).where(eq(variants.productId, productId));
  await writeVariantPrices(
    tx,
    ids.map((v) => v.id),
    prices,
  );
}

/** Many variants' prices at once (an import): a number sets the variant's price in the market, null takes it off sale there. */
export async function writePriceRows(tx: Tx, rows: readonly { variantId: number; market: MarketCode; priceMinor: number | null }[]): Promise<void> {
  const set = rows.filter((r): r is { variantId: number; market: MarketCode; priceMinor: number } => r.priceMinor !== null);
  for (let i = 0; i < set.length; i += 1000) {
    await tx
      .insert(variantPrices)
      .values(set.slice(i, i + 1000))
      .onConflictDoUpdate({ target: [variantPrices.variantId, variantPrices.market], set: { priceMinor: sql`excluded.price_minor` } });
  }
  for (const r of rows.filter((x) => x.priceMinor === null)) {
    await tx.delete(variantPrices).where(and(eq(variantPrices.variantId, r.variantId), eq(variantPrices.market, r.market)));
  }
}
