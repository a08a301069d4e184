import { aliasedTable, and, asc, eq, exists, gt, inArray, type SQL } from 'drizzle-orm';
import type { ProductDto } from '@/lib/domain/catalogue';
import { imageUrl } from '@/lib/domain/images';
import { MARKETS, type MarketCode } from '@/lib/domain/markets';
import { toMajor } from '@/lib/domain/money';
import type { Db } from '@/lib/server/infra/db/client';
import { categories, colors, designers, productImages, products, sizes, variantPrices, variants } from '@/lib/server/catalogue/tables';
import { productPricesIn } from '../prices';

/**
 * A product as the shop shows it, on a card, in a list and in the API: the row with its "from"
 * price in the market, its pictures and the variants sold there (read for many products at once).
 */

export const parent = aliasedTable(categories, 'parent');

/** Width used for the plain image URLs in API responses; pages build srcsets from the hash. */
export const API_IMAGE_WIDTH = 640;

/** A product's columns with its "from" price in the market (the lowest of its variants' there). */
export const productColumns = (price: ReturnType<typeof productPricesIn>) => ({
  id: products.id,
  name: products.name,
  slug: products.slug,
  description: products.description,
  priceMinor: price.priceMinor,
  createdAt: products.createdAt,
  subCategoryId: categories.id,
  subCategoryName: categories.name,
  categoryId: parent.id,
  categoryName: parent.name,
  designerId: designers.id,
  designerName: designers.name,
  designerSlug: designers.slug,
});
export type ProductRow = {
  id: number;
  name: string;
  slug: string;
  description: string;
  priceMinor: number;
  createdAt: Date;
  subCategoryId: number;
  subCategoryName: string;
  categoryId: number;
  categoryName: string;
  /** Null without a designer (the product's row left-joins its designer). */
  designerId: number | null;
  designerName: string | null;
  designerSlug: string | null;
};

interface VariantFacts {
  size: string | null;
  sizePos: number | null;
  color: string | null;
  colorId: number | null;
  stock: number;
  priceMinor: number;
}

interface ImageFacts {
  hash: string;
  /** The colour the image shows; null: every colour. */
  color: string | null;
}

/**
 * What a card shows of a product: its price (the cheapest variant's, or within the filtered
 * colour: the order price sorts by), whether others cost more ("From"), the colour it opens (the
 * cheapest that can be bought: never a sold-out colour while another is in stock) and the
 * pictures with that colour's first, so the card and the page it links to agree.
 */
function cardFacts(r: ProductRow, images: ImageFacts[], variantFacts: VariantFacts[], colorId: number | undefined) {
  const inColour = colorId ? variantFacts.filter((v) => v.colorId === colorId) : variantFacts;
  const priced = inColour.length ? inColour : variantFacts;
  const cheapestOf = (list: VariantFacts[]) => list.reduce<VariantFacts | null>((low, v) => (!low || v.priceMinor < low.priceMinor ? v : low), null);
  const cheapest = cheapestOf(priced);
  const opened = cheapestOf(priced.filter((v) => v.stock > 0)) ?? cheapest;
  const color = opened?.color ?? null;
  const ordered = color ? [...images.filter((i) => i.color === color), ...images.filter((i) => i.color !== color)] : images;
  return {
    priceMinor: cheapest?.priceMinor ?? r.priceMinor,
    priceFrom: new Set(priced.map((v) => v.priceMinor)).size > 1,
    color,
    hashes: ordered.map((i) => i.hash),
  };
}

/** A product row, its images in order and its variants, as the API and pages show it (`colorId`: a colour filter's). */
export function toProductDto(r: ProductRow, market: MarketCode, imageFacts: ImageFacts[], variantFacts: VariantFacts[], colorId?: number): ProductDto {
  const card = cardFacts(r, imageFacts, variantFacts, colorId);
  const sizeNames = new Map<string, number>();
  const colorNames = new Set<string>();
  let stock = 0;
  for (const v of variantFacts) {
    if (v.size) sizeNames.set(v.size, v.sizePos ?? 0);
    if (v.color) colorNames.add(v.color);
    stock += v.stock;
  }
  return {
    id: r.id,
    name: r.name,
    slug: r.slug,
    designer: r.designerId !== null ? { id: r.designerId, name: r.designerName!, slug: r.designerSlug! } : null,
    price: toMajor(card.priceMinor),
    priceFrom: card.priceFrom,
    cardColor: card.color,
    currency: MARKETS[market].currency,
    description: r.description,
    images: card.hashes.map((hash) => imageUrl(hash, API_IMAGE_WIDTH)),
    sizeNames: [...sizeNames.entries()].sort((a, b) => a[1] - b[1]).map(([n]) => n),
    colorNames: [...colorNames].sort(),
    categoryNames: [r.categoryName, r.subCategoryName],
    categoryId: r.categoryId,
    subCategoryId: r.subCategoryId,
    inStock: stock > 0,
    createdAt: r.createdAt.toISOString(),
  };
}

/** Loads images and the names of the variants sold in the market for many products in two queries (no N+1). */
export async function hydrate(db: Db, rows: ProductRow[], market: MarketCode, colorId?: number): Promise<ProductDto[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [imageRows, variantRows] = await Promise.all([
    db
      .select({ productId: productImages.productId, hash: productImages.mediaHash, color: colors.name })
      .from(productImages)
      .leftJoin(colors, eq(colors.id, productImages.colorId))
      .where(inArray(productImages.productId, ids))
      .orderBy(asc(productImages.productId), asc(productImages.position)),
    db
      .select({
        productId: variants.productId,
        size: sizes.name,
        sizePos: sizes.position,
        color: colors.name,
        colorId: variants.colorId,
        stock: variants.stock,
        priceMinor: variantPrices.priceMinor,
      })
      .from(variants)
      .innerJoin(variantPrices, and(eq(variantPrices.variantId, variants.id), eq(variantPrices.market, market)))
      .leftJoin(sizes, eq(sizes.id, variants.sizeId))
      .leftJoin(colors, eq(colors.id, variants.colorId))
      .where(inArray(variants.productId, ids)),
  ]);
  const images = new Map<number, ImageFacts[]>();
  for (const r of imageRows) {
    const list = images.get(r.productId) ?? [];
    list.push({ hash: r.hash, color: r.color });
    images.set(r.productId, list);
  }
  const byProduct = new Map<number, VariantFacts[]>();
  for (const v of variantRows) {
    const list = byProduct.get(v.productId) ?? [];
    list.push(v);
    byProduct.set(v.productId, list);
  }
  return rows.map((r) => toProductDto(r, market, images.get(r.id) ?? [], byProduct.get(r.id) ?? [], colorId));
}

/** Products sold in the market (a variant has a price there), with their "from" price. */
/** The product (the outer query's row) has a variant in stock that is sold in the market: what the store may promote. */
export function buyableIn(db: Db, market: MarketCode): SQL {
  return exists(
    db
      .select({ one: variants.id })
      .from(variants)
      .innerJoin(variantPrices, and(eq(variantPrices.variantId, variants.id), eq(variantPrices.market, market)))
      .where(and(eq(variants.productId, products.id), gt(variants.stock, 0))),
  );
}

export function baseProductQuery(db: Db, market: MarketCode) {
  const price = productPricesIn(db, market);
  const query = db
    .select(productColumns(price))
    .from(products)
    .innerJoin(price, eq(price.productId, products.id))
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .innerJoin(parent, eq(parent.id, categories.parentId))
    .leftJoin(designers, eq(designers.id, products.designerId));
  return { price, query };
}
