import { and, asc, desc, eq, ne } from 'drizzle-orm';
import type { ProductDetailDto, ProductDto } from '@/lib/domain/catalogue';
import { NotFound } from '@/lib/domain/errors';
import { imageUrl } from '@/lib/domain/images';
import { DEFAULT_MARKET, MARKETS, type MarketCode } from '@/lib/domain/markets';
import { message } from '@/lib/domain/messages';
import { toMajor } from '@/lib/domain/money';
import type { Db } from '@/lib/server/infra/db/client';
import { categories, colors, designers, productImages, products, sizes, variantPrices, variants } from '@/lib/server/catalogue/tables';
import { cacheTags } from '@/lib/server/storefront/page-cache';
import { remember, type ReadMemo } from '@/lib/server/infra/read-memo';
import { productMarketsSql, productPricesIn } from '../prices';
import { API_IMAGE_WIDTH, baseProductQuery, buyableIn, hydrate, parent, productColumns, toProductDto } from './products';

/** A product's page: the product with its variants, pictures and markets, and "You may also like". */
export function createProductPage({ db, memo }: { db: Db; memo?: ReadMemo | undefined }) {
  async function loadProduct(id: number, market: MarketCode): Promise<ProductDetailDto> {
    const price = productPricesIn(db, market);
    const [rows, imageRows, variantRows] = await Promise.all([
      db
        .select({ ...productColumns(price), markets: productMarketsSql, subCategorySlug: categories.slug, categorySlug: parent.slug, dimensionsCm: products.dimensionsCm })
        .from(products)
        .innerJoin(price, eq(price.productId, products.id))
        .innerJoin(categories, eq(categories.id, products.categoryId))
        .innerJoin(parent, eq(parent.id, categories.parentId))
        .leftJoin(designers, eq(designers.id, products.designerId))
        .where(and(eq(products.id, id), eq(products.active, true)))
        .limit(1),
      db
        .select({ hash: productImages.mediaHash, alt: productImages.alt, color: colors.name })
        .from(productImages)
        .leftJoin(colors, eq(colors.id, productImages.colorId))
        .where(eq(productImages.productId, id))
        .orderBy(asc(productImages.position)),
      db
        // Only the variants sold in the market, each at its own price there.
        .select({ id: variants.id, size: sizes.name, sizePos: sizes.position, color: colors.name, colorId: variants.colorId, hex: colors.hex, stock: variants.stock, priceMinor: variantPrices.priceMinor, sku: variants.sku })
        .from(variants)
        .innerJoin(variantPrices, and(eq(variantPrices.variantId, variants.id), eq(variantPrices.market, market)))
        .leftJoin(sizes, eq(sizes.id, variants.sizeId))
        .leftJoin(colors, eq(colors.id, variants.colorId))
        .where(eq(variants.productId, id))
        .orderBy(asc(sizes.position), asc(colors.name)),
    ]);
    const row = rows[0];
    if (!row) throw new NotFound(message('product-not-found'));
    const colorHex = new Map<string, string>();
    for (const v of variantRows) if (v.color && v.hex) colorHex.set(v.color, v.hex);
    return {
      // The page keeps the images in staff's order (its gallery follows the chosen colour itself).
      ...toProductDto(row, market, [], variantRows),
      images: imageRows.map((i) => imageUrl(i.hash, API_IMAGE_WIDTH)),
      variants: variantRows.map(({ id: vid, size, color, stock, priceMinor, sku }) => ({ id: vid, size, color, stock, price: toMajor(priceMinor), sku })),
      imageAlts: imageRows.map((a) => a.alt),
      imageColors: imageRows.map((a) => a.color),
      colors: [...colorHex].map(([name, hex]) => ({ name, hex })).sort((a, b) => a.name.localeCompare(b.name)),
      markets: row.markets.filter((m) => m in MARKETS),
      categorySlugs: [row.categorySlug, row.subCategorySlug],
      dimensionsCm: row.dimensionsCm,
    };
  }

  async function loadRelated(product: Pick<ProductDto, 'id' | 'subCategoryId'>, limit: number, market: MarketCode): Promise<ProductDto[]> {
    const rows = await baseProductQuery(db, market)
      .query.where(and(eq(products.categoryId, product.subCategoryId), eq(products.active, true), ne(products.id, product.id), buyableIn(db, market)))
      .orderBy(desc(products.salesCount), asc(products.id))
      .limit(limit);
    return hydrate(db, rows, market);
  }

  return {
    /**
     * One product with its variants and image alts: three queries, run together. Not found in a
     * market where the product has no price: it is not sold there. The memo keys on the market.
     */
    getProduct(id: number, market: MarketCode = DEFAULT_MARKET): Promise<ProductDetailDto> {
      return remember(memo, `product:${id}:${market}`, () => loadProduct(id, market), () => [cacheTags.product(id)]);
    },

    /** Best sellers from the same sub-category that can be bought in the market ("You may also like"): three queries. */
    related(product: Pick<ProductDto, 'id' | 'subCategoryId'>, limit = 4, market: MarketCode = DEFAULT_MARKET): Promise<ProductDto[]> {
      return remember(
        memo,
        `related:${product.id}:${limit}:${market}`,
        () => loadRelated(product, limit, market),
        (list) => [cacheTags.listing, cacheTags.product(product.id), ...list.map((p) => cacheTags.product(p.id))],
      );
    },
  };
}
