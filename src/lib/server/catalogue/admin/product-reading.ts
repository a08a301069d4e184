import { and, asc, count, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { NotFound } from '@/lib/domain/errors';
import { MARKET_CODES, type MarketCode } from '@/lib/domain/markets';
import { message } from '@/lib/domain/messages';
import type { PageAt } from '@/lib/domain/paging';
import { id as idSchema } from '@/lib/domain/validation';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { pageOf, type PageWindow } from '@/lib/server/infra/db/paging';
import { amongValuesOf, containing } from '@/lib/server/infra/db/text-search';
import { categories, colors, designers, productImages, productFromPrices, products, sizes, variantPrices, variants } from '@/lib/server/catalogue/tables';

export interface ProductFilter extends PageAt {
  q?: string | undefined;
  /** A parent or sub-category. */
  categoryId?: number | undefined;
  status?: 'active' | 'draft' | undefined;
  /** Only products with a variant at or below the low-stock threshold. */
  lowStock?: boolean | undefined;
}

export const LOW_STOCK_THRESHOLD = 3;
const PAGE_SIZE = 24;

/** Aggregates of bigint columns come back as strings on some drivers. */
const numberOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** The product with its "from" price per market (its lowest variant price there; null: not sold there). */
export async function productExists(tx: Db | Tx, productId: number): Promise<typeof products.$inferSelect & { prices: Record<MarketCode, number | null> }> {
  const [p] = await tx.select().from(products).where(eq(products.id, productId)).limit(1);
  if (!p) throw new NotFound(message('product-not-found'));
  const rows = await tx.select({ market: productFromPrices.market, priceMinor: productFromPrices.priceMinor }).from(productFromPrices).where(eq(productFromPrices.productId, productId));
  const prices = Object.fromEntries(MARKET_CODES.map((m) => [m, numberOrNull(rows.find((r) => r.market === m)?.priceMinor)])) as Record<MarketCode, number | null>;
  return { ...p, prices };
}

/** What the back office reads of the catalogue: its product list, the product form's choices and one product as staff edit it. */
export function createProductReading({ db }: { db: Db }) {
  return {
    /** The back office product list: search, category, active/draft, low stock; 24 a page. */
    async listProducts(f: ProductFilter) {
      const parts: SQL[] = [];
      const q = f.q?.trim();
      if (q) {
        const asId = idSchema.safeParse(q).data ?? null;
        parts.push(
          or(
            ilike(products.name, containing(q)),
            // The products with a matching SKU first (its trigram index).
            amongValuesOf(products.id, db.select({ id: variants.productId }).from(variants).where(ilike(variants.sku, containing(q)))),
            ...(asId !== null ? [eq(products.id, asId)] : []),
          )!,
        );
      }
      if (f.categoryId) {
        const subs = db.select({ id: categories.id }).from(categories).where(eq(categories.parentId, f.categoryId));
        parts.push(or(eq(products.categoryId, f.categoryId), inArray(products.categoryId, subs))!);
      }
      if (f.status) parts.push(eq(products.active, f.status === 'active'));
      if (f.lowStock) {
        parts.push(sql`exists (select 1 from ${variants} where ${variants.productId} = ${products.id} and ${variants.stock} <= ${LOW_STOCK_THRESHOLD})`);
      }
      const where = parts.length ? and(...parts) : undefined;
      const query = (w: PageWindow) => db
        .select({
          id: products.id,
          name: products.name,
          // the "from" price per market: each market's lowest variant price
          prices: sql<Record<string, number> | null>`(select json_object_agg(${productFromPrices.market}, ${productFromPrices.priceMinor}) from ${productFromPrices} where ${productFromPrices.productId} = ${products.id})`,
          active: products.active,
          category: categories.name,
          stock: sql<number>`(select coalesce(sum(${variants.stock}), 0)::int from ${variants} where ${variants.productId} = ${products.id})`,
          minStock: sql<number | null>`(select min(${variants.stock})::int from ${variants} where ${variants.productId} = ${products.id})`,
          imageHash: sql<string | null>`(select ${productImages.mediaHash} from ${productImages} where ${productImages.productId} = ${products.id} order by ${productImages.position} limit 1)`,
        })
        .from(products)
        .innerJoin(categories, eq(categories.id, products.categoryId))
        .where(and(where, w.where))
        .orderBy(...w.orderBy)
        .limit(w.limit)
        .offset(w.offset);
      return pageOf(
        query,
        { table: products, id: products.id, idKind: 'int', idOf: (r) => r.id, keys: [{ column: products.createdAt, desc: true }, { column: products.id, desc: true }] },
        async () => (await db.select({ n: count() }).from(products).where(where))[0]?.n ?? 0,
        f,
        PAGE_SIZE,
      );
    },

    /** What the product form offers: categories (parents with their subs), colours, sizes, designers A–Z. */
    async formOptions() {
      const cats = await db.select().from(categories).orderBy(asc(categories.position), asc(categories.id));
      const parents = cats.filter((c) => c.parentId === null).map((p) => ({ ...p, subs: cats.filter((c) => c.parentId === p.id) }));
      const colorRows = await db.select().from(colors).orderBy(asc(colors.name));
      const sizeRows = await db.select().from(sizes).orderBy(asc(sizes.position));
      const designerRows = await db.select({ id: designers.id, name: designers.name }).from(designers).orderBy(asc(sql`lower(${designers.name})`));
      return { categories: parents, colors: colorRows, sizes: sizeRows, designers: designerRows };
    },

    /** One product as staff edit it: fields, variants (with colour and size names and prices per market), images. */
    async getProduct(productId: number) {
      const product = await productExists(db, productId);
      const vs = await db
        .select({ id: variants.id, colorId: variants.colorId, sizeId: variants.sizeId, stock: variants.stock, sku: variants.sku, color: colors.name, size: sizes.name, sizePosition: sizes.position })
        .from(variants)
        .leftJoin(colors, eq(colors.id, variants.colorId))
        .leftJoin(sizes, eq(sizes.id, variants.sizeId))
        .where(eq(variants.productId, productId))
        .orderBy(asc(colors.name), asc(sizes.position), asc(variants.id));
      const images = await db.select().from(productImages).where(eq(productImages.productId, productId)).orderBy(asc(productImages.position));
      const priceRows = vs.length ? await db.select().from(variantPrices).where(inArray(variantPrices.variantId, vs.map((v) => v.id))) : [];
      const pricesOfVariant = (id: number) =>
        Object.fromEntries(MARKET_CODES.map((m) => [m, priceRows.find((r) => r.variantId === id && r.market === m)?.priceMinor ?? null])) as Record<MarketCode, number | null>;
      return { product, variants: vs.map((v) => ({ ...v, prices: pricesOfVariant(v.id) })), images };
    },
  };
}
