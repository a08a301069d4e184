import { and, asc, desc, eq, exists, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { ProductDto, ProductListDto, ProductQuery } from '@/lib/domain/catalogue';
import { DEFAULT_MARKET, type MarketCode } from '@/lib/domain/markets';
import type { Db } from '@/lib/server/infra/db/client';
import { pageOf, type Ordering } from '@/lib/server/infra/db/paging';
import { categories, colors, designers, productFromPrices, products, sizes, variantPrices, variants } from '@/lib/server/catalogue/tables';
import { cacheTags } from '@/lib/server/storefront/page-cache';
import { remember, type ReadMemo } from '@/lib/server/infra/read-memo';
import type { SearchService } from '../search';
import { baseProductQuery, buyableIn, hydrate, parent, type ProductRow } from './products';

/** Pages of products kept in memory (each up to 100 products). */
const LISTS_KEPT = 400;

/**
 * Lists of products: a category's or the whole store's page (filtered, sorted, paged by key), a
 * search's (through the search module), with the facets to narrow it; the home page's rows.
 */
export function createListings({ db, memo, search }: { db: Db; memo?: ReadMemo | undefined; search: SearchService }) {
  // Pages of products (searches above all, for signed-in shoppers' API calls and the renders that
  // fill the route cache) are bulky, so they sit on a smaller shelf of the memo.
  const lists = memo?.shelf(LISTS_KEPT);

  /** The first `limit` active products that can be bought in the market, in the given order (the home page's rows: nothing sold out is promoted). */
  async function firstActive(market: MarketCode, limit: number, order: SQL[]): Promise<ProductDto[]> {
    const rows = await baseProductQuery(db, market)
      .query.where(and(eq(products.active, true), buyableIn(db, market)))
      .orderBy(...order)
      .limit(limit);
    return hydrate(db, rows, market);
  }

  async function facetsFor(categoryId: number | undefined, market: MarketCode): Promise<Pick<ProductListDto, 'colors' | 'sizes' | 'subCategories' | 'designers'>> {
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
    // The designers of the active products here that are sold in the market.
    const designersHere = db
      .select({ id: products.designerId })
      .from(products)
      .where(and(eq(products.active, true), inCategory, exists(db.select({ one: sql`1` }).from(variants).innerJoin(variantPrices, and(eq(variantPrices.variantId, variants.id), eq(variantPrices.market, market))).where(eq(variants.productId, products.id)))));
    const [colorRows, sizeRows, subRows, designerRows] = await Promise.all([
      db.select({ id: colors.id, name: colors.name }).from(colors).where(inArray(colors.id, soldHere(variants.colorId))).orderBy(asc(colors.name)),
      db.select({ id: sizes.id, name: sizes.name }).from(sizes).where(inArray(sizes.id, soldHere(variants.sizeId))).orderBy(asc(sizes.position)),
      db.select({ id: categories.id, name: categories.name }).from(categories).where(subCategoriesHere).orderBy(asc(categories.position)),
      db.select({ id: designers.id, name: designers.name, slug: designers.slug }).from(designers).where(inArray(designers.id, designersHere)).orderBy(asc(sql`lower(${designers.name})`)),
    ]);
    return {
      colors: colorRows,
      sizes: sizeRows,
      subCategories: subRows,
      designers: designerRows,
    };
  }

  async function loadList(query: ProductQuery, market: MarketCode): Promise<ProductListDto> {
    const where: SQL[] = [eq(products.active, true)];
    if (query.categoryId) where.push(or(eq(categories.id, query.categoryId), eq(parent.id, query.categoryId))!);
    if (query.subCategoryId) where.push(eq(categories.id, query.subCategoryId));
    if (query.designer) where.push(inArray(products.designerId, db.select({ id: designers.id }).from(designers).where(eq(designers.slug, query.designer))));
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
    const { price, query: products$ } = baseProductQuery(db, market);
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
      remember(memo, `count:${market}:${JSON.stringify([query.categoryId, query.subCategoryId, query.colorId, query.sizeId, query.designer])}`, () => counted(and(...where)), () => [cacheTags.listing]);
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
    const facets = remember(memo, `facets:${facetCategory ?? 'all'}:${market}`, () => facetsFor(facetCategory, market), () => [cacheTags.listing, cacheTags.nav, cacheTags.designers]);
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
      docs: await hydrate(db, found.rows, market, query.colorId),
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
      const { q, categoryId, subCategoryId, colorId, sizeId, designer, sort, page, limit, after, before } = query;
      const key = `list:${market}:${JSON.stringify([q, categoryId, subCategoryId, colorId, sizeId, designer, sort, page, limit, after, before])}`;
      const list = await remember(lists, key, () => loadList(query, market), (l) => [cacheTags.listing, ...l.docs.map((p) => cacheTags.product(p.id))]);
      if (list.search && page === 1) search.record(list.search.query, list.totalDocs, market);
      return list;
    },

    bestSellers(limit = 15, market: MarketCode = DEFAULT_MARKET): Promise<ProductDto[]> {
      return firstActive(market, limit, [desc(products.salesCount), asc(products.id)]);
    },

    latest(limit = 30, market: MarketCode = DEFAULT_MARKET): Promise<ProductDto[]> {
      return firstActive(market, limit, [desc(products.createdAt), desc(products.id)]);
    },
  };
}
