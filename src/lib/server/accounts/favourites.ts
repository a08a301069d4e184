import { and, desc, eq, sql } from 'drizzle-orm';
import { NotFound } from '@/lib/domain/errors';
import { message } from '@/lib/domain/messages';
import { imageUrl, PLACEHOLDER_IMAGE } from '@/lib/domain/images';
import { DEFAULT_MARKET, MARKETS, type MarketCode } from '@/lib/domain/markets';
import { toMajor, type CurrencyCode } from '@/lib/domain/money';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { favourites } from '@/lib/server/accounts/tables';
import { productImages, products } from '@/lib/server/catalogue/tables';
import { productPricesIn } from '@/lib/server/catalogue/prices';
import type { PageCacheInvalidator } from '@/lib/server/storefront/page-cache';
import type { ReadMemo } from '@/lib/server/infra/read-memo';

export interface FavouriteDto {
  id: number;
  name: string;
  price: number;
  currency: CurrencyCode;
  image: string;
  imageHash: string | null;
  addedAt: string;
}

const FAVOURITE_IMAGE_WIDTH = 480;

const favouritesTag = (userId: string) => `favourites:${userId}`;

/**
 * A shopper's saved products. The ids (every heart on every page) are kept in the read memo and
 * dropped, on every app server, when the shopper adds or removes one.
 */
export function createFavouriteService({ db, memo, pageCache }: { db: Db; memo?: ReadMemo; pageCache: PageCacheInvalidator }) {
  async function loadIds(userId: string): Promise<number[]> {
    const rows = await db.select({ id: favourites.productId }).from(favourites).where(eq(favourites.userId, userId));
    return rows.map((r) => r.id);
  }
  return {
    /** The saved products sold in the market, at its prices. */
    async list(userId: string, market: MarketCode = DEFAULT_MARKET): Promise<FavouriteDto[]> {
      const price = productPricesIn(db, market);
      const rows = await db
        .select({
          id: products.id,
          name: products.name,
          priceMinor: price.priceMinor,
          imageHash: sql<string | null>`(select ${productImages.mediaHash} from ${productImages} where ${productImages.productId} = ${products.id} order by ${productImages.position} limit 1)`,
          addedAt: favourites.createdAt,
        })
        .from(favourites)
        .innerJoin(products, eq(products.id, favourites.productId))
        .innerJoin(price, eq(price.productId, products.id))
        .where(and(eq(favourites.userId, userId), eq(products.active, true)))
        .orderBy(desc(favourites.createdAt), desc(products.id));
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        price: toMajor(r.priceMinor),
        currency: MARKETS[market].currency,
        image: r.imageHash ? imageUrl(r.imageHash, FAVOURITE_IMAGE_WIDTH) : PLACEHOLDER_IMAGE,
        imageHash: r.imageHash,
        addedAt: r.addedAt.toISOString(),
      }));
    },

    ids(userId: string): Promise<number[]> {
      return memo ? memo.get(`favourite-ids:${userId}`, () => loadIds(userId), () => [favouritesTag(userId)]) : loadIds(userId);
    },

    async add(userId: string, productId: number): Promise<void> {
      const [product] = await db
        .select({ id: products.id })
        .from(products)
        .where(and(eq(products.id, productId), eq(products.active, true)))
        .limit(1);
      if (!product) throw new NotFound(message('product-not-found'));
      await db.insert(favourites).values({ userId, productId }).onConflictDoNothing();
      await pageCache.invalidate([favouritesTag(userId)]);
    },

    async remove(userId: string, productId: number): Promise<void> {
      await db.delete(favourites).where(and(eq(favourites.userId, userId), eq(favourites.productId, productId)));
      await pageCache.invalidate([favouritesTag(userId)]);
    },
  };
}
export type FavouriteService = ReturnType<typeof createFavouriteService>;

/** An account's deletion deletes its favourites. */
export async function eraseFavouritesOf(tx: Db | Tx, userId: string): Promise<void> {
  await tx.delete(favourites).where(eq(favourites.userId, userId));
}
