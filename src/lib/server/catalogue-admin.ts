import { eq } from 'drizzle-orm';
import { Invalid, NotFound } from '../domain/errors';
import type { Db } from './db/client';
import { products, variants } from './db/schema';
import { cacheTags, type PageCacheInvalidator } from './page-cache';

/**
 * Staff changes to the catalogue (the staff command today, the back office next). Every change
 * invalidates the cached pages that show it, on every app server.
 */
export function createCatalogueAdmin(deps: { db: Db; pageCache: PageCacheInvalidator }) {
  const { db, pageCache } = deps;
  return {
    async setPrice(productId: number, priceMinor: number): Promise<{ productId: number; priceMinor: number; currency: string }> {
      if (!Number.isSafeInteger(priceMinor) || priceMinor < 0) throw new Invalid('The price must be a whole number of minor units, 0 or more');
      const [row] = await db
        .update(products)
        .set({ priceMinor })
        .where(eq(products.id, productId))
        .returning({ productId: products.id, priceMinor: products.priceMinor, currency: products.currency });
      if (!row) throw new NotFound('Product not found');
      await pageCache.invalidate([cacheTags.product(productId)]);
      return row;
    },

    async setStock(variantId: number, stock: number): Promise<{ variantId: number; productId: number; stock: number }> {
      if (!Number.isSafeInteger(stock) || stock < 0) throw new Invalid('Stock must be a whole number, 0 or more');
      const [row] = await db
        .update(variants)
        .set({ stock })
        .where(eq(variants.id, variantId))
        .returning({ variantId: variants.id, productId: variants.productId, stock: variants.stock });
      if (!row) throw new NotFound('Variant not found');
      await pageCache.invalidate([cacheTags.product(row.productId)]);
      return row;
    },
  };
}
