import { and, desc, eq, sql } from 'drizzle-orm';
import { NotFound } from '../domain/errors';
import { imageUrl, PLACEHOLDER_IMAGE } from '../domain/images';
import { toMajor, type CurrencyCode } from '../domain/money';
import type { Db } from './db/client';
import { favourites, productImages, products } from './db/schema';

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

/** A shopper's saved products. */
export function createFavouriteService({ db }: { db: Db }) {
  return {
    async list(userId: string): Promise<FavouriteDto[]> {
      const rows = await db
        .select({
          id: products.id,
          name: products.name,
          priceMinor: products.priceMinor,
          currency: products.currency,
          imageHash: sql<string | null>`(select ${productImages.mediaHash} from ${productImages} where ${productImages.productId} = ${products.id} order by ${productImages.position} limit 1)`,
          addedAt: favourites.createdAt,
        })
        .from(favourites)
        .innerJoin(products, eq(products.id, favourites.productId))
        .where(and(eq(favourites.userId, userId), eq(products.active, true)))
        .orderBy(desc(favourites.createdAt), desc(products.id));
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        price: toMajor(r.priceMinor),
        currency: r.currency as CurrencyCode,
        image: r.imageHash ? imageUrl(r.imageHash, FAVOURITE_IMAGE_WIDTH) : PLACEHOLDER_IMAGE,
        imageHash: r.imageHash,
        addedAt: r.addedAt.toISOString(),
      }));
    },

    async ids(userId: string): Promise<number[]> {
      const rows = await db.select({ id: favourites.productId }).from(favourites).where(eq(favourites.userId, userId));
      return rows.map((r) => r.id);
    },

    async add(userId: string, productId: number): Promise<void> {
      const [product] = await db
        .select({ id: products.id })
        .from(products)
        .where(and(eq(products.id, productId), eq(products.active, true)))
        .limit(1);
      if (!product) throw new NotFound('Product not found');
      await db.insert(favourites).values({ userId, productId }).onConflictDoNothing();
    },

    async remove(userId: string, productId: number): Promise<void> {
      await db.delete(favourites).where(and(eq(favourites.userId, userId), eq(favourites.productId, productId)));
    },
  };
}
export type FavouriteService = ReturnType<typeof createFavouriteService>;
