import { eq, sql, type SQL } from 'drizzle-orm';
import type { MarketCode } from '@/lib/domain/markets';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { products, variantPrices, variants } from '@/lib/server/infra/db/schema';

/**
 * Reading prices (DESIGN.md "Markets"): every variant has its own price per market
 * (variant_prices, written by catalogue-admin.ts). A product is sold in a market when one of its
 * variants is, and its listed price there is the lowest of them ("from").
 */

/** Each product's lowest variant price in the market, as a subquery to join on `productId`. */
export function productPricesIn(db: Db | Tx, market: MarketCode) {
  return db
    .select({
      productId: variants.productId,
      priceMinor: sql<number>`min(${variantPrices.priceMinor})`.mapWith(Number).as('from_price_minor'),
    })
    .from(variantPrices)
    .innerJoin(variants, eq(variants.id, variantPrices.variantId))
    .where(eq(variantPrices.market, market))
    .groupBy(variants.productId)
    .as('market_price');
}

/** The markets a product (the outer query's `products` row) is sold in, in code order. */
export const productMarketsSql: SQL<MarketCode[]> = sql<MarketCode[]>`(select coalesce(array_agg(distinct ${variantPrices.market} order by ${variantPrices.market}), '{}') from ${variantPrices} join ${variants} on ${variants.id} = ${variantPrices.variantId} where ${variants.productId} = ${products.id})`;
