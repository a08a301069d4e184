import { eq, sql, type SQL } from 'drizzle-orm';
import type { MarketCode } from '@/lib/domain/markets';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { productFromPrices, products } from '@/lib/server/catalogue/tables';

/**
 * Reading prices: every variant has its own price per market
 * (variant_prices, written by admin/prices.ts). A product is sold in a market when one of its
 * variants is, and its listed price there is the lowest of them ("from"). The database keeps that
 * "from" price per product and market in product_from_prices (triggers of migration 0015), so reads
 * never aggregate every variant's price.
 */

/** Each product's lowest variant price in the market, as a subquery to join on `productId`. */
export function productPricesIn(db: Db | Tx, market: MarketCode) {
  return db
    .select({ productId: productFromPrices.productId, priceMinor: sql<number>`${productFromPrices.priceMinor}`.mapWith(Number).as('from_price_minor') })
    .from(productFromPrices)
    .where(eq(productFromPrices.market, market))
    .as('market_price');
}

/** The markets a product (the outer query's `products` row) is sold in, in code order. */
export const productMarketsSql: SQL<MarketCode[]> = sql<MarketCode[]>`(select coalesce(array_agg(${productFromPrices.market} order by ${productFromPrices.market}), '{}') from ${productFromPrices} where ${productFromPrices.productId} = ${products.id})`;
