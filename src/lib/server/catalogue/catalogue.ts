import { aliasedTable, and, asc, count, desc, eq, exists, gte, inArray, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type {
  CategoryDto,
  NamedRef,
  ParentCategoryDto,
  ProductDetailDto,
  ProductDto,
  ProductListDto,
  ProductQuery,
} from '@/lib/domain/catalogue';
import { NotFound } from '@/lib/domain/errors';
import { message } from '@/lib/domain/messages';
import { imageUrl } from '@/lib/domain/images';
import { DEFAULT_MARKET, MARKETS, type MarketCode } from '@/lib/domain/markets';
import { toMajor } from '@/lib/domain/money';
import type { Db } from '@/lib/server/infra/db/client';
import { cacheTags } from '@/lib/server/infra/page-cache';
import type { SearchService } from './search';
import type { ReadMemo } from '@/lib/server/infra/read-memo';
import { categories, colors, productImages, productFromPrices, products, sizes, variantPrices, variants } from '@/lib/server/infra/db/schema';
import { productMarketsSql, productPricesIn } from './prices';
import { pageOf, type Ordering } from '@/lib/server/infra/db/paging';

const parent = aliasedTable(categories, 'parent');

/** Width used for the plain image URLs in API responses; pages build srcsets from the hash. */
const API_IMAGE_WIDTH = 640;
const BANNER_WIDTH = 1280;
/** The pictures the sitemap offers image search: large ones. */
const SITEMAP_IMAGE_WIDTH = 1280;
/**
 * Products per part of the sitemap. A sitemap file holds at most 50,000 URLs and 50 MB
 * (sitemaps.org); a product's entry, with its market alternates and pictures, is 1 to 2 KB.
 */
export const SITEMAP_PART_PRODUCTS = 5000;
/** Pages of products kept in memory (each up to 100 products). */
const LISTS_KEPT = 400;

/** A product's columns with its "from" price in the market (the lowest of its variants' there). */
const productColumns = (price: ReturnType<typeof productPricesIn>) => ({
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
});
type ProductRow = {
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
};

function categoryDto(row: typeof categories.$inferSelect): CategoryDto {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    image: row.imageHash ? imageUrl(row.imageHash, BANNER_WIDTH) : null,
    parentId: row.parentId,
  };
}

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
 * What a card shows of a product: the colour it prices (the cheapest variant's, or within the
 * filtered colour), that price, whether others cost more ("From"), and the pictures with that
 * colour's first, so the card, its price and the page it links to agree.
 */
function cardFacts(r: ProductRow, images: ImageFacts[], variantFacts: VariantFacts[], colorId: number | undefined) {
  const inColour = colorId ? variantFacts.filter((v) => v.colorId === colorId) : variantFacts;
  const priced = inColour.length ? inColour : variantFacts;
  const cheapest = priced.reduce<VariantFacts | null>((low, v) => (!low || v.priceMinor < low.priceMinor ? v : low), null);
  const color = cheapest?.color ?? null;
  const ordered = color ? [...images.filter((i) => i.color === color), ...images.filter((i) => i.color !== color)] : images;
  return {
    priceMinor: cheapest?.priceMinor ?? r.priceMinor,
    priceFrom: new Set(priced.map((v) => v.priceMinor)).size > 1,
    color,
    hashes: ordered.map((i) => i.hash),
  };
}

/** A product row, its images in order and its variants, as the API and pages show it (`colorId`: a colour filter's). */
function toProductDto(r: ProductRow, market: MarketCode, imageFacts: ImageFacts[], variantFacts: VariantFacts[], colorId?: number): ProductDto {
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

/**
 * Catalogue reads. With a memo (the app server's), the product, its related products and the menu
 * are kept in memory and dropped by the same tags as the route cache (read-memo.ts).
 */
export function createCatalogueService({ db, memo, search }: { db: Db; memo?: ReadMemo; search: SearchService }) {
  const remember = <T>(key: string, load: () => Promise<T>, tagsOf: (value: T) => readonly string[], on: ReadMemo | undefined = memo): Promise<T> =>
    on ? on.get(key, load, tagsOf) : load();
  // Pages of products (searches above all, for signed-in shoppers' API calls and the renders that
  // fill the route cache) are bulky, so they sit on a smaller shelf of the memo.
  const lists = memo?.shelf(LISTS_KEPT);

  /** Loads images and the names of the variants sold in the market for many products in two queries (no N+1). */
  async function hydrate(rows: ProductRow[], market: MarketCode, colorId?: number): Promise<ProductDto[]> {
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

  /**
   * The parent categories with their sub-categories. With a market, only what has something for
   * sale there (an active product with a price in that market, in the category or one of its
   * sub-categories): an empty category made by staff stays out of the shoppers' menu and banner.
   */
  async function loadParentCategories(market?: MarketCode): Promise<ParentCategoryDto[]> {
    const [rows, selling] = await Promise.all([
      db.select().from(categories).orderBy(asc(categories.position), asc(categories.id)),
      market
        ? db
            .selectDistinct({ categoryId: products.categoryId })
            .from(products)
            .where(
              and(
                eq(products.active, true),
                sql`exists (select 1 from ${productFromPrices} pp where pp.product_id = ${products.id} and pp.market = ${market})`,
              ),
            )
        : Promise.resolve(null),
    ]);
    const forSale = selling && new Set(selling.map((r) => r.categoryId));
    const shown = (id: number) => !forSale || forSale.has(id);
    return rows
      .filter((r) => r.parentId === null)
      .map((p) => {
        const subs = rows.filter((r) => r.parentId === p.id && shown(r.id));
        return { parent: p, own: shown(p.id), subs };
      })
      .filter(({ own, subs }) => own || subs.length > 0)
      .map(({ parent, subs }) => ({ ...categoryDto(parent), subCategories: subs.map((r) => ({ id: r.id, name: r.name })) }));
  }

  async function loadProduct(id: number, market: MarketCode): Promise<ProductDetailDto> {
    const price = productPricesIn(db, market);
    const [rows, imageRows, variantRows] = await Promise.all([
      db
        .select({ ...productColumns(price), markets: productMarketsSql, subCategorySlug: categories.slug, categorySlug: parent.slug, dimensionsCm: products.dimensionsCm })
        .from(products)
        .innerJoin(price, eq(price.productId, products.id))
        .innerJoin(categories, eq(categories.id, products.categoryId))
        .innerJoin(parent, eq(parent.id, categories.parentId))
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
    const rows = await baseProductQuery(market)
      .query.where(and(eq(products.categoryId, product.subCategoryId), eq(products.active, true), ne(products.id, product.id)))
      .orderBy(desc(products.salesCount), asc(products.id))
      .limit(limit);
    return hydrate(rows, market);
  }

  /** Products sold in the market (a variant has a price there), with their "from" price. */
  function baseProductQuery(market: MarketCode) {
    const price = productPricesIn(db, market);
    const query = db
      .select(productColumns(price))
      .from(products)
      .innerJoin(price, eq(price.productId, products.id))
      .innerJoin(categories, eq(categories.id, products.categoryId))
      .innerJoin(parent, eq(parent.id, categories.parentId));
    return { price, query };
  }

  /** The first `limit` active products sold in the market, in the given order (the home page's rows). */
  async function firstActive(market: MarketCode, limit: number, order: SQL[]): Promise<ProductDto[]> {
    const rows = await baseProductQuery(market)
      .query.where(eq(products.active, true))
      .orderBy(...order)
      .limit(limit);
    return hydrate(rows, market);
  }

  async function facetsFor(categoryId: number | undefined, market: MarketCode): Promise<Pick<ProductListDto, 'colors' | 'sizes' | 'subCategories'>> {
    // Facets describe the chosen category (or the whole store) in the market, not the current
    // filter, so a shopper can always switch to another colour or size that is sold there.
    const inCategory = categoryId
      ? sql`${products.categoryId} in (select ${categories.id} from ${categories} where ${categories.id} = ${categoryId} or ${categories.parentId} = ${categoryId})`
      : sql`true`;
    // The colour or size ids of the variants sold here (active products, priced in the market).
    const soldHere = (option: typeof variants.colorId | typeof variants.sizeId) =>
      db
        .select({ id: option })
        .from(variants)
        .innerJoin(variantPrices, and(eq(variantPrices.variantId, variants.id), eq(variantPrices.market, market)))
        .innerJoin(products, eq(products.id, variants.productId))
        .where(and(eq(products.active, true), inCategory));
    // The chosen category's sub-categories (a sub-category shows its siblings), or every sub-category.
    const subCategoriesHere = categoryId
      ? or(eq(categories.parentId, categoryId), eq(categories.parentId, sql`(select ${categories.parentId} from ${categories} where ${categories.id} = ${categoryId})`))
      : sql`${categories.parentId} is not null`;
    const [colorRows, sizeRows, subRows] = await Promise.all([
      db.select({ id: colors.id, name: colors.name }).from(colors).where(inArray(colors.id, soldHere(variants.colorId))).orderBy(asc(colors.name)),
      db.select({ id: sizes.id, name: sizes.name }).from(sizes).where(inArray(sizes.id, soldHere(variants.sizeId))).orderBy(asc(sizes.position)),
      db.select({ id: categories.id, name: categories.name }).from(categories).where(subCategoriesHere).orderBy(asc(categories.position)),
    ]);
    return {
      colors: colorRows,
      sizes: sizeRows,
      subCategories: subRows,
    };
  }

  async function loadList(query: ProductQuery, market: MarketCode): Promise<ProductListDto> {
    const where: SQL[] = [eq(products.active, true)];
    if (query.categoryId) where.push(or(eq(categories.id, query.categoryId), eq(parent.id, query.categoryId))!);
    if (query.subCategoryId) where.push(eq(categories.id, query.subCategoryId));
    if (query.colorId || query.sizeId) {
      // a variant in that colour and size sold in the market
      const variantWhere: SQL[] = [eq(variants.productId, products.id), eq(variantPrices.market, market)];
      if (query.colorId) variantWhere.push(eq(variants.colorId, query.colorId));
      if (query.sizeId) variantWhere.push(eq(variants.sizeId, query.sizeId));
      where.push(
        exists(
          db
            .select({ one: sql`1` })
            .from(variants)
            .innerJoin(variantPrices, eq(variantPrices.variantId, variants.id))
            .where(and(...variantWhere)),
        ),
      );
    }
    const { price, query: products$ } = baseProductQuery(market);
    const offset = (query.page - 1) * query.limit;
    // A listing (no search) is paged by key: its order is by sales or by price in the market, then id.
    const priceOf = (id: string) => sql`(select ${productFromPrices.priceMinor} from ${productFromPrices} where ${productFromPrices.productId} = ${id} and ${productFromPrices.market} = ${market})`;
    const listing: Ordering<ProductRow> = {
      table: products,
      id: products.id,
      idKind: 'int',
      idOf: (r) => r.id,
      // Ties go the sort's own way (the newest of equal sellers first), so the key is one row
      // comparison on an index: (sales_count, id), or the market's (price_minor, product_id).
      keys:
        query.sort === 'low-high' || query.sort === 'high-low'
          ? [
              { column: price.priceMinor, desc: query.sort === 'high-low', at: priceOf },
              { column: price.productId, desc: query.sort === 'high-low', at: (id) => sql`${Number(id)}` },
            ]
          : [
              { column: products.salesCount, desc: true },
              { column: products.id, desc: true },
            ],
    };
    const counted = async (all: SQL | undefined) =>
      (
        await db
          .select({ count: sql<number>`count(*)::int` })
          .from(products)
          .innerJoin(price, eq(price.productId, products.id))
          .innerJoin(categories, eq(categories.id, products.categoryId))
          .innerJoin(parent, eq(parent.id, categories.parentId))
          .where(all)
      )[0]?.count ?? 0;
    // The same for every page and sort of a listing, and a fifth of a second at 50,000 products: read once per catalogue change.
    const listingCount = () =>
      remember(`count:${market}:${JSON.stringify([query.categoryId, query.subCategoryId, query.colorId, query.sizeId])}`, () => counted(and(...where)), () => [cacheTags.listing]);
    const listed = async () => {
      const shown = await pageOf((w) => products$.where(and(...where, w.where)).orderBy(...w.orderBy).limit(w.limit).offset(w.offset), listing, listingCount, query, query.limit);
      return { rows: shown.rows, totalDocs: shown.total, cursors: shown.cursors };
    };
    const page = async (extra: SQL | undefined, rank: SQL | undefined) => {
      const all = and(...where, extra);
      const order =
        query.sort === 'low-high'
          ? [asc(price.priceMinor), asc(products.id)]
          : query.sort === 'high-low'
            ? [desc(price.priceMinor), desc(products.id)]
            : rank
              ? [desc(rank), desc(products.salesCount), desc(products.id)]
              : [desc(products.salesCount), desc(products.id)];
      const [rows, totalDocs] = await Promise.all([products$.where(all).orderBy(...order).limit(query.limit).offset(offset), counted(all)]);
      return { rows, totalDocs, cursors: undefined };
    };
    const facetCategory = query.subCategoryId && !query.categoryId ? query.subCategoryId : query.categoryId;
    // The same for every page and search in the category: read once per catalogue change.
    const facets = remember(`facets:${facetCategory ?? 'all'}:${market}`, () => facetsFor(facetCategory, market), () => [cacheTags.listing, cacheTags.nav]);
    let found: { rows: ProductRow[]; totalDocs: number; cursors: ProductListDto['cursors'] };
    let searched: ProductListDto['search'];
    // Nothing searchable typed (only punctuation or little words): everything, as without a search.
    const plan = query.q ? await search.plan(query.q) : null;
    if (query.q && plan) {
      // Every word first; when that finds nothing, any of them (best matches first).
      const every = search.match(plan, true);
      found = await page(every.where, every.rank);
      if (found.totalDocs === 0 && plan.words.length > 1) {
        const some = search.match(plan, false);
        found = await page(some.where, some.rank);
      }
      searched = { query: query.q, corrected: plan.corrected, didYouMean: found.totalDocs === 0 ? await search.didYouMean(plan) : [] };
    } else {
      found = await listed();
    }
    const totalDocs = found.totalDocs;
    return {
      docs: await hydrate(found.rows, market, query.colorId),
      ...(await facets),
      totalDocs,
      page: query.page,
      limit: query.limit,
      totalPages: Math.max(1, Math.ceil(totalDocs / query.limit)),
      ...(found.cursors ? { cursors: found.cursors } : {}),
      ...(searched ? { search: searched } : {}),
    };
  }

  return {
    /** A page of products (a search when `q` is given: recorded for the back office's report, each time it is asked on its first page). */
    async listProducts(query: ProductQuery, market: MarketCode = DEFAULT_MARKET): Promise<ProductListDto> {
      const { q, categoryId, subCategoryId, colorId, sizeId, sort, page, limit, after, before } = query;
      const key = `list:${market}:${JSON.stringify([q, categoryId, subCategoryId, colorId, sizeId, sort, page, limit, after, before])}`;
      const list = await remember(key, () => loadList(query, market), (l) => [cacheTags.listing, ...l.docs.map((p) => cacheTags.product(p.id))], lists);
      if (list.search && page === 1) search.record(list.search.query, list.totalDocs, market);
      return list;
    },

    bestSellers(limit = 15, market: MarketCode = DEFAULT_MARKET): Promise<ProductDto[]> {
      return firstActive(market, limit, [desc(products.salesCount), asc(products.id)]);
    },

    latest(limit = 30, market: MarketCode = DEFAULT_MARKET): Promise<ProductDto[]> {
      return firstActive(market, limit, [desc(products.createdAt), desc(products.id)]);
    },

    /** One product with its variants and image alts: three queries, run together. */
    /** Not found in a market where the product has no price: it is not sold there. The memo keys on the market. */
    getProduct(id: number, market: MarketCode = DEFAULT_MARKET): Promise<ProductDetailDto> {
      return remember(`product:${id}:${market}`, () => loadProduct(id, market), () => [cacheTags.product(id)]);
    },

    /** Best sellers from the same sub-category ("You may also like"): three queries. */
    related(product: Pick<ProductDto, 'id' | 'subCategoryId'>, limit = 4, market: MarketCode = DEFAULT_MARKET): Promise<ProductDto[]> {
      return remember(
        `related:${product.id}:${limit}:${market}`,
        () => loadRelated(product, limit, market),
        (list) => [cacheTags.listing, cacheTags.product(product.id), ...list.map((p) => cacheTags.product(p.id))],
      );
    },

    /** The menu on every page. */
    parentCategories(market?: MarketCode): Promise<ParentCategoryDto[]> {
      // What is for sale changes with the products (listing), as well as with the categories (nav).
      return remember(`nav:${market ?? 'all'}`, () => loadParentCategories(market), () => [cacheTags.nav, cacheTags.listing]);
    },

    async subCategories(parentId: number): Promise<NamedRef[]> {
      const [p] = await db.select({ id: categories.id }).from(categories).where(eq(categories.id, parentId)).limit(1);
      if (!p) throw new NotFound(message('category-not-found'));
      return db
        .select({ id: categories.id, name: categories.name })
        .from(categories)
        .where(eq(categories.parentId, parentId))
        .orderBy(asc(categories.position));
    },

    async getCategory(id: number): Promise<CategoryDto & { subCategories: NamedRef[] }> {
      const [row] = await db.select().from(categories).where(eq(categories.id, id)).limit(1);
      if (!row) throw new NotFound(message('category-not-found'));
      const subs = await db
        .select({ id: categories.id, name: categories.name })
        .from(categories)
        .where(eq(categories.parentId, id))
        .orderBy(asc(categories.position));
      return { ...categoryDto(row), subCategories: subs };
    },

    async findCategoryBySlug(slug: string): Promise<CategoryDto | null> {
      const [row] = await db.select().from(categories).where(eq(categories.slug, slug)).limit(1);
      return row ? categoryDto(row) : null;
    },

    /** Every product id (with the markets it is sold in and its pictures) and category id, for the sitemap. */
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
export type CatalogueService = ReturnType<typeof createCatalogueService>;

