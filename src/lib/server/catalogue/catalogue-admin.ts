import { and, asc, count, eq, ilike, inArray, max, or, sql, type SQL } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { Conflict, Invalid, NotFound } from '@/lib/domain/errors';
import { fill, message } from '@/lib/domain/messages';
import { id as idSchema } from '@/lib/domain/validation';
import type { Actor, AuditLog } from '@/lib/server/backoffice/audit';
import { processCatalogueImage } from '@/lib/server/accounts/avatars';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { pageOf, type PageWindow } from '@/lib/server/infra/db/paging';
import { amongValuesOf, containing } from '@/lib/server/infra/db/text-search';
import type { PageAt } from '@/lib/domain/paging';
import { MARKET_CODES, MARKETS, type MarketCode } from '@/lib/domain/markets';
import { categories, colors, productImages, productFromPrices, products, sizes, variantPrices, variants } from '@/lib/server/infra/db/schema';
import type { SearchService } from './search';
import type { MediaService } from '@/lib/server/infra/media';
import { cacheTags, type PageCacheInvalidator } from '@/lib/server/infra/page-cache';
import { applyStockMoves } from './stock';

/** Prices per market in minor units: a number sets it, null takes it off sale there, absent leaves it. */
export type MarketPrices = Partial<Record<MarketCode, number | null>>;

/** A variant as staff edit it: a colour x size cell with its stock, SKU and prices. */
export interface VariantInput {
  colorId: number | null;
  sizeId: number | null;
  stock: number;
  sku?: string | null;
  /** A market left out takes the product's current "from" price there (none: not sold there). */
  prices?: MarketPrices | undefined;
}

/** One cell of the product editor's variant grid. */
export interface GridCell {
  variantId: number;
  stock: number;
  sku: string | null;
  prices?: MarketPrices | undefined;
}

export interface ProductInput {
  name: string;
  description: string;
  /** Every variant's Nigerian price (minor units), as callers written before markets send it; `prices` wins. */
  priceMinor?: number | undefined;
  /**
   * Every variant's price, per market (the staff command, the API, a new product's first
   * variant). The editor's grid sets variants one by one and wins over this.
   */
  prices?: MarketPrices | undefined;
  /** The sub-category. */
  categoryId: number;
  active: boolean;
  /** A bag's outer size ("38 × 30 × 14", cm; domain/catalogue.ts parseDimensions): null states none, undefined leaves it. */
  dimensionsCm?: string | null | undefined;
}

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

const slugify = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/(^-|-$)/g, '')
    .slice(0, 80) || 'product';

/** Aggregates of bigint columns come back as strings on some drivers. */
const numberOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));


/**
 * Staff changes to the catalogue (the staff command and the back office): the catalogue's write
 * owner. Every change is audited and invalidates the cached pages that show it, on every app server.
 */
/** The prices an input sets: `prices`, with `priceMinor` standing for Nigeria's when given alone. */
function pricesOf(input: Pick<ProductInput, 'priceMinor' | 'prices'>): MarketPrices {
  return checkedPrices({ ...(input.priceMinor !== undefined ? { NG: input.priceMinor } : {}), ...input.prices });
}

function checkedPrices(prices: MarketPrices = {}): MarketPrices {
  for (const [code, minor] of Object.entries(prices)) {
    if (!(code in MARKETS)) throw new Invalid(fill('market-unknown', code));
    if (minor !== null && minor !== undefined && (!Number.isSafeInteger(minor) || minor < 0)) {
      throw new Invalid(message('price-minor-units'));
    }
  }
  return prices;
}

export function createCatalogueAdmin(deps: { db: Db; clock?: () => Date; pageCache: PageCacheInvalidator; audit?: AuditLog; media?: MediaService; search?: Pick<SearchService, 'refresh'> }) {
  const { db, pageCache } = deps;
  const clock = deps.clock ?? (() => new Date());
  const cli: Actor = { id: null, email: 'staff command' };
  const record = async (actor: Actor, entry: Parameters<AuditLog['record']>[1], tx?: Parameters<AuditLog['record']>[2]) => {
    if (deps.audit) await deps.audit.record(actor, entry, tx);
  };

  async function subCategory(categoryId: number): Promise<void> {
    const [c] = await db.select({ id: categories.id, parentId: categories.parentId }).from(categories).where(eq(categories.id, categoryId)).limit(1);
    if (!c) throw new Invalid(message('category-required'));
    if (c.parentId === null) throw new Invalid(message('sub-category-required'));
  }

  /** A new variant's colour and size must be ones the catalogue has (not a database error). */
  async function knownColourAndSize(v: VariantInput): Promise<void> {
    if (v.colorId !== null && !(await db.select({ id: colors.id }).from(colors).where(eq(colors.id, v.colorId)).limit(1)).length) throw new Invalid(message('choose-listed-colour'));
    if (v.sizeId !== null && !(await db.select({ id: sizes.id }).from(sizes).where(eq(sizes.id, v.sizeId)).limit(1)).length) throw new Invalid(message('choose-listed-size'));
  }

  /** The product with its "from" price per market (its lowest variant price there; null: not sold there). */
  async function productExists(productId: number, tx: Db | Tx = db): Promise<typeof products.$inferSelect & { prices: Record<MarketCode, number | null> }> {
    const [p] = await tx.select().from(products).where(eq(products.id, productId)).limit(1);
    if (!p) throw new NotFound(message('product-not-found'));
    const rows = await tx.select({ market: productFromPrices.market, priceMinor: productFromPrices.priceMinor }).from(productFromPrices).where(eq(productFromPrices.productId, productId));
    const prices = Object.fromEntries(MARKET_CODES.map((m) => [m, numberOrNull(rows.find((r) => r.market === m)?.priceMinor)])) as Record<MarketCode, number | null>;
    return { ...p, prices };
  }

  /** Writes one variant's prices: a number sets it, null takes the variant off sale in that market. */
  async function writeVariantPrices(tx: Db | Tx, variantIds: number[], prices: MarketPrices): Promise<void> {
    if (variantIds.length === 0) return;
    for (const [market, minor] of Object.entries(prices)) {
      if (minor === undefined) continue;
      if (minor === null) {
        await tx.delete(variantPrices).where(and(inArray(variantPrices.variantId, variantIds), eq(variantPrices.market, market)));
      } else {
        await tx
          .insert(variantPrices)
          .values(variantIds.map((variantId) => ({ variantId, market, priceMinor: minor })))
          .onConflictDoUpdate({ target: [variantPrices.variantId, variantPrices.market], set: { priceMinor: minor } });
      }
    }
  }

  /** Sets the given markets' price on every variant of the product. */
  async function writeProductPrices(tx: Db | Tx, productId: number, prices: MarketPrices): Promise<void> {
    const ids = await tx.select({ id: variants.id }).from(variants).where(eq(variants.productId, productId));
    await writeVariantPrices(
      tx,
      ids.map((v) => v.id),
      prices,
    );
  }

  function validateVariant(v: VariantInput): void {
    if (!Number.isSafeInteger(v.stock) || v.stock < 0) throw new Invalid(message('stock-whole'));
    if (v.sku && v.sku.length > 64) throw new Invalid(message('sku-too-long'));
  }

  /** SKU clashes are a 409 with a message, not a database error. */
  async function withSkuCheck<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      const text = String((err as { cause?: unknown })?.cause ?? err);
      if (text.includes('variants_sku_uq')) throw new Conflict(message('sku-taken'));
      if (text.includes('variants_product_size_color_uq')) throw new Conflict(message('variant-taken'));
      throw err;
    }
  }

  return {
    /** Sets the price of every variant of a product in one market (Nigeria unless told). */
    async setPrice(productId: number, priceMinor: number, actor: Actor = cli, market: MarketCode = 'NG'): Promise<{ productId: number; priceMinor: number; currency: string; market: MarketCode }> {
      if (!Number.isSafeInteger(priceMinor) || priceMinor < 0) throw new Invalid(message('price-minor-units'));
      const before = await productExists(productId);
      const [anyVariant] = await db.select({ id: variants.id }).from(variants).where(eq(variants.productId, productId)).limit(1);
      if (!anyVariant) throw new Invalid(message('no-variants-to-price'));
      await writeProductPrices(db, productId, { [market]: priceMinor });
      await record(actor, { action: 'product.price', entity: 'product', entityId: productId, details: { market, before: before.prices[market], after: priceMinor } });
      await pageCache.invalidate([cacheTags.product(productId), cacheTags.listing]);
      return { productId, priceMinor, currency: MARKETS[market].currency, market };
    },

    /** Sets a variant's stock on hand; the difference goes through the stock ledger as an adjustment. */
    async setStock(variantId: number, stock: number, actor: Actor = cli, reason = message('stock-reason-count')): Promise<{ variantId: number; productId: number; stock: number }> {
      if (!Number.isSafeInteger(stock) || stock < 0) throw new Invalid(message('stock-whole'));
      const row = await db.transaction(async (tx) => {
        const [v] = await tx.select().from(variants).where(eq(variants.id, variantId)).for('update');
        if (!v) throw new NotFound(message('variant-not-found'));
        if (v.stock === stock) return { variantId, productId: v.productId, stock };
        const [after] = await applyStockMoves(tx, [{ variantId, delta: stock - v.stock, kind: 'adjustment', reason, actorId: actor.id }], clock());
        await record(actor, { action: 'stock.set', entity: 'variant', entityId: variantId, details: { before: v.stock, after: stock, reason } }, tx);
        return after!;
      });
      await pageCache.invalidate([cacheTags.product(row.productId)]);
      return row;
    },

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

    /** What the product form offers: categories (parents with their subs), colours, sizes. */
    async formOptions() {
      const cats = await db.select().from(categories).orderBy(asc(categories.position), asc(categories.id));
      const parents = cats.filter((c) => c.parentId === null).map((p) => ({ ...p, subs: cats.filter((c) => c.parentId === p.id) }));
      const colorRows = await db.select().from(colors).orderBy(asc(colors.name));
      const sizeRows = await db.select().from(sizes).orderBy(asc(sizes.position));
      return { categories: parents, colors: colorRows, sizes: sizeRows };
    },

    /** One product as staff edit it: fields, variants (with colour and size names and prices per market), images. */
    async getProduct(productId: number) {
      const product = await productExists(productId);
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

    /**
     * Creates a product with its first variant (prices belong to variants: the input's prices are
     * the first variant's); drafts stay off the storefront.
     */
    async createProduct(actor: Actor, input: ProductInput, firstVariant?: VariantInput): Promise<{ id: number }> {
      await subCategory(input.categoryId);
      const prices = { ...pricesOf(input), ...checkedPrices(firstVariant?.prices) };
      if (firstVariant) {
        validateVariant(firstVariant);
        await knownColourAndSize(firstVariant);
      }
      else if (Object.values(prices).some((p) => p !== null && p !== undefined)) throw new Invalid(message('first-variant-first'));
      const id = await withSkuCheck(() =>
        db.transaction(async (tx) => {
          const [row] = await tx
            .insert(products)
            .values({ name: input.name, description: input.description, categoryId: input.categoryId, active: input.active, dimensionsCm: input.dimensionsCm ?? null, slug: `${slugify(input.name)}-${Date.now().toString(36)}`, createdAt: clock() })
            .returning({ id: products.id });
          await tx.update(products).set({ slug: `${slugify(input.name)}-${row!.id}` }).where(eq(products.id, row!.id));
          if (firstVariant) {
            const [v] = await tx
              .insert(variants)
              .values({ productId: row!.id, colorId: firstVariant.colorId, sizeId: firstVariant.sizeId, sku: firstVariant.sku || null, stock: 0 })
              .returning({ id: variants.id });
            await writeVariantPrices(tx, [v!.id], prices);
            await applyStockMoves(tx, [{ variantId: v!.id, delta: firstVariant.stock, kind: 'opening', reason: message('stock-reason-new-variant'), actorId: actor.id }], clock());
          }
          await record(actor, { action: 'product.create', entity: 'product', entityId: row!.id, details: { after: { ...input, firstVariant: firstVariant && { ...firstVariant, prices } } } }, tx);
          await deps.search?.refresh([row!.id], tx);
          return row!.id;
        }),
      );
      await pageCache.invalidate([cacheTags.product(id), cacheTags.listing]);
      return { id };
    },

    /**
     * Saves the product's fields and its variant grid (stock, SKU and prices per variant). Input
     * prices, when given, first set every variant's price; the grid's own prices win. Stock
     * differences go through the ledger as adjustments.
     */
    async saveProduct(actor: Actor, productId: number, input: ProductInput, grid: GridCell[] = []): Promise<void> {
      const before = await productExists(productId);
      await subCategory(input.categoryId);
      const prices = pricesOf(input);
      grid.forEach((g) => {
        validateVariant({ colorId: null, sizeId: null, stock: g.stock, sku: g.sku });
        checkedPrices(g.prices);
      });
      await withSkuCheck(() =>
        db.transaction(async (tx) => {
          // The grid's variants first (in id order), then the product's row: the order a sale takes
          // them in (applyStockMoves: the variant's stock, then the product's sales count). The other
          // way round, a paid order fulfilled while its product's grid was saved deadlocked.
          const gridIds = grid.map((g) => g.variantId).sort((a, b) => a - b);
          if (gridIds.length) await tx.select({ id: variants.id }).from(variants).where(and(inArray(variants.id, gridIds), eq(variants.productId, productId))).orderBy(asc(variants.id)).for('update');
          await tx
            .update(products)
            .set({ name: input.name, description: input.description, categoryId: input.categoryId, active: input.active, ...(input.dimensionsCm !== undefined ? { dimensionsCm: input.dimensionsCm } : {}) })
            .where(eq(products.id, productId));
          await writeProductPrices(tx, productId, prices);
          const changes: Record<string, unknown>[] = [];
          // The grid's current prices in one query, not one per cell.
          const priceRows = grid.length ? await tx.select().from(variantPrices).where(inArray(variantPrices.variantId, grid.map((g) => g.variantId))) : [];
          for (const g of grid) {
            const [v] = await tx.select().from(variants).where(and(eq(variants.id, g.variantId), eq(variants.productId, productId))).for('update');
            if (!v) throw new NotFound(message('variant-not-found'));
            const priceBefore = (m: string) => priceRows.find((r) => r.variantId === v.id && r.market === m)?.priceMinor ?? null;
            const priceChanges = Object.entries(g.prices ?? {}).filter(([m, minor]) => minor !== undefined && priceBefore(m) !== minor);
            if ((v.sku ?? null) !== (g.sku || null)) await tx.update(variants).set({ sku: g.sku || null }).where(eq(variants.id, v.id));
            if (v.stock !== g.stock) {
              await applyStockMoves(tx, [{ variantId: v.id, delta: g.stock - v.stock, kind: 'adjustment', reason: message('stock-reason-editor'), actorId: actor.id }], clock());
            }
            if (priceChanges.length) await writeVariantPrices(tx, [v.id], Object.fromEntries(priceChanges));
            if (v.stock !== g.stock || (v.sku ?? null) !== (g.sku || null) || priceChanges.length) {
              changes.push({
                variantId: v.id,
                before: { stock: v.stock, sku: v.sku, ...(priceChanges.length ? { prices: Object.fromEntries(priceChanges.map(([m]) => [m, priceBefore(m)])) } : {}) },
                after: { stock: g.stock, sku: g.sku || null, ...(priceChanges.length ? { prices: Object.fromEntries(priceChanges) } : {}) },
              });
            }
          }
          await deps.search?.refresh([productId], tx);
          const after = await productExists(productId, tx);
          const fields = (['name', 'description', 'categoryId', 'active', 'dimensionsCm'] as const).filter((k) => input[k] !== undefined && before[k] !== input[k]);
          const priceChanges = MARKET_CODES.filter((m) => before.prices[m] !== after.prices[m]);
          await record(
            actor,
            {
              action: 'product.update',
              entity: 'product',
              entityId: productId,
              details: {
                before: { ...Object.fromEntries(fields.map((k) => [k, before[k]])), ...(priceChanges.length ? { prices: Object.fromEntries(priceChanges.map((m) => [m, before.prices[m]])) } : {}) },
                after: { ...Object.fromEntries(fields.map((k) => [k, input[k]])), ...(priceChanges.length ? { prices: Object.fromEntries(priceChanges.map((m) => [m, after.prices[m]])) } : {}) },
                variants: changes,
              },
            },
            tx,
          );
        }),
      );
      await pageCache.invalidate([cacheTags.product(productId), cacheTags.listing]);
    },

    /** Adds a colour x size cell to a product's grid, priced as given or at the product's current "from" prices. */
    async addVariant(actor: Actor, productId: number, v: VariantInput): Promise<{ id: number }> {
      const product = await productExists(productId);
      validateVariant(v);
      await knownColourAndSize(v);
      const given = checkedPrices(v.prices);
      const prices: MarketPrices = Object.fromEntries(MARKET_CODES.map((m) => [m, given[m] !== undefined ? given[m] : product.prices[m]]));
      const id = await withSkuCheck(() =>
        db.transaction(async (tx) => {
          // The product's row first, as saveProduct takes it: the new prices' trigger locks the
          // product's "from" prices and the search refresh updates the product row; taken in the
          // other order, a save of the same product at the same moment deadlocked with this one.
          await tx.select({ id: products.id }).from(products).where(eq(products.id, productId)).for('no key update');
          const [row] = await tx.insert(variants).values({ productId, colorId: v.colorId, sizeId: v.sizeId, sku: v.sku || null, stock: 0 }).returning({ id: variants.id });
          await writeVariantPrices(tx, [row!.id], prices);
          await applyStockMoves(tx, [{ variantId: row!.id, delta: v.stock, kind: 'opening', reason: message('stock-reason-new-variant'), actorId: actor.id }], clock());
          await record(actor, { action: 'variant.create', entity: 'product', entityId: productId, details: { after: { variantId: row!.id, ...v, prices } } }, tx);
          // A new colour is a new word search knows this piece by.
          await deps.search?.refresh([productId], tx);
          return row!.id;
        }),
      );
      await pageCache.invalidate([cacheTags.product(productId), cacheTags.listing]);
      return { id };
    },

    /** Uploads a picture (checked and re-encoded with sharp) as the product's last image. */
    async addImage(actor: Actor, productId: number, bytes: Uint8Array, alt: string): Promise<{ id: number; hash: string }> {
      if (!deps.media) throw new Error('catalogue admin has no media service');
      const product = await productExists(productId);
      const image = await processCatalogueImage(bytes, 'product');
      const hash = await deps.media.store(image.bytes, image.contentType, { width: image.width, height: image.height });
      const id = await db.transaction(async (tx) => {
        const [last] = await tx.select({ m: max(productImages.position) }).from(productImages).where(eq(productImages.productId, productId));
        const [row] = await tx
          .insert(productImages)
          .values({ productId, position: (last?.m ?? -1) + 1, mediaHash: hash, alt: alt.trim() || product.name })
          .returning({ id: productImages.id });
        await record(actor, { action: 'image.add', entity: 'product', entityId: productId, details: { after: { imageId: row!.id, hash, alt } } }, tx);
        return row!.id;
      });
      await pageCache.invalidate([cacheTags.product(productId), cacheTags.listing]);
      return { id, hash };
    },

    /** Alt text, move up/down (swap with the neighbour) or delete one image of a product. */
    /** One image: its alt text, the colour it shows (null: every colour; only a colour the product comes in), its place, or away. */
    async editImage(actor: Actor, productId: number, imageId: number, op: { alt?: string; colorId?: number | null; move?: 'up' | 'down'; remove?: boolean }): Promise<void> {
      await db.transaction(async (tx) => {
        const images = await tx.select().from(productImages).where(eq(productImages.productId, productId)).orderBy(asc(productImages.position)).for('update');
        const i = images.findIndex((im) => im.id === imageId);
        const image = images[i];
        if (!image) throw new NotFound(message('image-not-found'));
        if (op.remove) {
          await tx.delete(productImages).where(eq(productImages.id, imageId));
          await record(actor, { action: 'image.delete', entity: 'product', entityId: productId, details: { before: { imageId, hash: image.mediaHash, alt: image.alt } } }, tx);
          return;
        }
        if (op.alt !== undefined) {
          const alt = op.alt.trim();
          if (!alt) throw new Invalid(message('alt-required'));
          await tx.update(productImages).set({ alt }).where(eq(productImages.id, imageId));
          await record(actor, { action: 'image.alt', entity: 'product', entityId: productId, details: { imageId, before: image.alt, after: alt } }, tx);
        }
        if (op.colorId !== undefined) {
          if (op.colorId !== null) {
            const [sold] = await tx.select({ id: variants.id }).from(variants).where(and(eq(variants.productId, productId), eq(variants.colorId, op.colorId))).limit(1);
            if (!sold) throw new Invalid(message('image-colour-not-offered'));
          }
          await tx.update(productImages).set({ colorId: op.colorId }).where(eq(productImages.id, imageId));
          await record(actor, { action: 'image.colour', entity: 'product', entityId: productId, details: { imageId, before: image.colorId, after: op.colorId } }, tx);
        }
        if (op.move) {
          const other = images[op.move === 'up' ? i - 1 : i + 1];
          if (!other) return;
          // positions are unique per product: park one at -1 while swapping
          await tx.update(productImages).set({ position: -1 }).where(eq(productImages.id, image.id));
          await tx.update(productImages).set({ position: image.position }).where(eq(productImages.id, other.id));
          await tx.update(productImages).set({ position: other.position }).where(eq(productImages.id, image.id));
          await record(actor, { action: 'image.move', entity: 'product', entityId: productId, details: { imageId, before: image.position, after: other.position } }, tx);
        }
      });
      await pageCache.invalidate([cacheTags.product(productId), cacheTags.listing]);
    },

    // ------------------------------------------------------------ categories

    async listCategories() {
      const cats = await db.select().from(categories).orderBy(asc(categories.position), asc(categories.id));
      const counts = await db.select({ categoryId: products.categoryId, n: count() }).from(products).groupBy(products.categoryId);
      const countOf = new Map(counts.map((c) => [c.categoryId, c.n]));
      return cats
        .filter((c) => c.parentId === null)
        .map((p) => ({ ...p, subs: cats.filter((c) => c.parentId === p.id).map((s) => ({ ...s, products: countOf.get(s.id) ?? 0 })) }));
    },

    /** Creates (id null) or updates a category; with a parent it is a sub-category. */
    async saveCategory(actor: Actor, id: number | null, input: { name: string; description: string | null; position: number; parentId: number | null }): Promise<{ id: number }> {
      if (input.parentId !== null) {
        const [parent] = await db.select({ parentId: categories.parentId }).from(categories).where(eq(categories.id, input.parentId)).limit(1);
        if (!parent || parent.parentId !== null) throw new Invalid(message('sub-category-parent'));
        if (id !== null && id === input.parentId) throw new Invalid(message('category-own-parent'));
      }
      const slug = slugify(input.name);
      // Two new categories of one name at once both find the slug free: the one that loses takes a suffixed slug.
      const save = (suffixed: boolean) => db.transaction(async (tx) => {
        if (id === null) {
          const [taken] = suffixed ? [true] : await tx.select({ id: categories.id }).from(categories).where(eq(categories.slug, slug)).limit(1);
          const [row] = await tx
            .insert(categories)
            .values({ ...input, slug: taken ? `${slug}-${randomBytes(4).toString('hex')}` : slug })
            .returning({ id: categories.id });
          await record(actor, { action: 'category.create', entity: 'category', entityId: row!.id, details: { after: input } }, tx);
          return row!.id;
        }
        const [before] = await tx.select().from(categories).where(eq(categories.id, id)).for('update');
        if (!before) throw new NotFound(message('category-not-found'));
        if (input.parentId !== null && before.parentId === null) {
          const [child] = await tx.select({ id: categories.id }).from(categories).where(eq(categories.parentId, id)).limit(1);
          if (child) throw new Conflict(message('category-has-children'));
        }
        await tx.update(categories).set(input).where(eq(categories.id, id));
        // The category's name is in its products' search documents (a rare change: every document is rebuilt).
        if (before.name !== input.name || before.parentId !== input.parentId) await deps.search?.refresh(null, tx);
        await record(
          actor,
          { action: 'category.update', entity: 'category', entityId: id, details: { before: { name: before.name, description: before.description, position: before.position, parentId: before.parentId }, after: input } },
          tx,
        );
        return id;
      });
      const saved = await save(false).catch((err: unknown) => {
        if (id === null && String((err as { cause?: unknown })?.cause ?? err).includes('categories_slug_unique')) return save(true);
        throw err;
      });
      await pageCache.invalidate([cacheTags.nav, cacheTags.listing]);
      return { id: saved };
    },

    async setCategoryBanner(actor: Actor, id: number, bytes: Uint8Array): Promise<{ hash: string }> {
      if (!deps.media) throw new Error('catalogue admin has no media service');
      const [before] = await db.select().from(categories).where(eq(categories.id, id)).limit(1);
      if (!before) throw new NotFound(message('category-not-found'));
      const image = await processCatalogueImage(bytes, 'banner');
      const hash = await deps.media.store(image.bytes, image.contentType, { width: image.width, height: image.height });
      await db.update(categories).set({ imageHash: hash }).where(eq(categories.id, id));
      await record(actor, { action: 'category.banner', entity: 'category', entityId: id, details: { before: before.imageHash, after: hash } });
      await pageCache.invalidate([cacheTags.nav, cacheTags.listing]);
      return { hash };
    },
  };
}
export type CatalogueAdmin = ReturnType<typeof createCatalogueAdmin>;
