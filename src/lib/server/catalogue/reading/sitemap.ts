import { and, asc, count, eq, gte, lte } from 'drizzle-orm';
import { imageUrl } from '@/lib/domain/images';
import type { MarketCode } from '@/lib/domain/markets';
import type { Db } from '@/lib/server/infra/db/client';
import { categories, productImages, products } from '@/lib/server/catalogue/tables';
import { productMarketsSql } from '../prices';

/** The pictures the sitemap offers image search: large ones. */
const SITEMAP_IMAGE_WIDTH = 1280;
/**
 * Products per part of the sitemap. A sitemap file holds at most 50,000 URLs and 50 MB
 * (sitemaps.org); a product's entry, with its market alternates and pictures, is 1 to 2 KB.
 */
export const SITEMAP_PART_PRODUCTS = 5000;

/** What the sitemap lists: the categories (its first part), then the products in parts of SITEMAP_PART_PRODUCTS. */
export function createSitemapReading({ db }: { db: Db }) {
  return {
    /** The categories the sitemap lists (its first part). */
    async sitemapCategories(): Promise<{ id: number; parentId: number | null }[]> {
      return db.select({ id: categories.id, parentId: categories.parentId }).from(categories).orderBy(asc(categories.id));
    },

    /** How many parts of SITEMAP_PART_PRODUCTS products the sitemap's products take (at least one). */
    async sitemapProductParts(): Promise<number> {
      const [row] = await db.select({ n: count() }).from(products).where(eq(products.active, true));
      return Math.max(1, Math.ceil(Number(row?.n ?? 0) / SITEMAP_PART_PRODUCTS));
    },

    /** The products of the sitemap's part `part` (from 1, by id), each with the markets it is sold in and its pictures; none sold anywhere are left out. */
    async sitemapProducts(part: number): Promise<{ id: number; updated: Date; markets: MarketCode[]; images: string[] }[]> {
      const p = await db
        .select({ id: products.id, updated: products.createdAt, markets: productMarketsSql })
        .from(products)
        .where(eq(products.active, true))
        .orderBy(asc(products.id))
        .offset((part - 1) * SITEMAP_PART_PRODUCTS)
        .limit(SITEMAP_PART_PRODUCTS);
      if (p.length === 0) return [];
      const i = await db
        .select({ productId: productImages.productId, hash: productImages.mediaHash })
        .from(productImages)
        .where(and(gte(productImages.productId, p[0]!.id), lte(productImages.productId, p[p.length - 1]!.id)))
        .orderBy(asc(productImages.productId), asc(productImages.position));
      const images = new Map<number, string[]>();
      for (const r of i) {
        const list = images.get(r.productId) ?? [];
        list.push(imageUrl(r.hash, SITEMAP_IMAGE_WIDTH));
        images.set(r.productId, list);
      }
      return p.filter((row) => row.markets.length > 0).map((row) => ({ ...row, images: images.get(row.id) ?? [] }));
    },
  };
}
