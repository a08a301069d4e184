import { and, asc, eq, inArray } from 'drizzle-orm';
import { Invalid } from '@/lib/domain/errors';
import { MARKET_CODES, MARKETS, type MarketCode } from '@/lib/domain/markets';
import { message } from '@/lib/domain/messages';
import type { Actor } from '@/lib/server/backoffice/audit';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { categories, designers, products, variants } from '@/lib/server/catalogue/tables';
import { cacheTags } from '@/lib/server/storefront/page-cache';
import { slugify } from '@/lib/domain/designers';
import { STAFF_COMMAND, type AdminContext } from './context';
import { checkedPrices, pricesOf, writeProductPrices, type MarketPrices } from './prices';
import { productExists } from './product-reading';
import { knownColourAndSize, openVariant, saveGridCells, validateVariant, withSkuCheck, type GridCell, type VariantInput } from './variants';

/** A product's own fields as staff set them: the one writer of `products` (units sold aside, counted by the stock module). */

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
  /** The designer: null names none, undefined leaves it. */
  designerId?: number | null | undefined;
}

async function knownDesigner(db: Db, designerId: number | null | undefined): Promise<void> {
  if (designerId === null || designerId === undefined) return;
  const [d] = await db.select({ id: designers.id }).from(designers).where(eq(designers.id, designerId)).limit(1);
  if (!d) throw new Invalid(message('designer-not-found'));
}

async function subCategory(db: Db, categoryId: number): Promise<void> {
  const [c] = await db.select({ id: categories.id, parentId: categories.parentId }).from(categories).where(eq(categories.id, categoryId)).limit(1);
  if (!c) throw new Invalid(message('category-required'));
  if (c.parentId === null) throw new Invalid(message('sub-category-required'));
}

/** A product's own fields as a catalogue import writes them (the handle is its slug). */
export interface ImportedProductFields {
  handle: string;
  name: string;
  description: string;
  categoryId: number;
  active: boolean;
  /** Undefined: the file has no Brand column (the designer stays). */
  designerId?: number | null | undefined;
}

/** Creates (id null) or updates a product from an import row, in the import's transaction; answers its id. */
export async function writeImportedProduct(tx: Tx, id: number | null, fields: ImportedProductFields, createdAt: Date): Promise<number> {
  const { handle, ...rest } = fields;
  if (id !== null) {
    await tx.update(products).set(rest).where(eq(products.id, id));
    return id;
  }
  const [row] = await tx.insert(products).values({ ...rest, slug: handle, createdAt }).returning({ id: products.id });
  return row!.id;
}

/** Staff create a product, save it with its variant grid, and price it in a market. */
export function createProductEditing(deps: AdminContext) {
  const { db, pageCache, clock, record } = deps;
  return {
    /** Sets the price of every variant of a product in one market (Nigeria unless told). */
    async setPrice(productId: number, priceMinor: number, actor: Actor = STAFF_COMMAND, market: MarketCode = 'NG'): Promise<{ productId: number; priceMinor: number; currency: string; market: MarketCode }> {
      if (!Number.isSafeInteger(priceMinor) || priceMinor < 0) throw new Invalid(message('price-minor-units'));
      const before = await productExists(db, productId);
      const [anyVariant] = await db.select({ id: variants.id }).from(variants).where(eq(variants.productId, productId)).limit(1);
      if (!anyVariant) throw new Invalid(message('no-variants-to-price'));
      await writeProductPrices(db, productId, { [market]: priceMinor });
      await record(actor, { action: 'product.price', entity: 'product', entityId: productId, details: { market, before: before.prices[market], after: priceMinor } });
      await pageCache.invalidate([cacheTags.product(productId), cacheTags.listing]);
      return { productId, priceMinor, currency: MARKETS[market].currency, market };
    },

    /**
     * Creates a product with its first variant (prices belong to variants: the input's prices are
     * the first variant's); drafts stay off the storefront.
     */
    async createProduct(actor: Actor, input: ProductInput, firstVariant?: VariantInput): Promise<{ id: number }> {
      await subCategory(db, input.categoryId);
      await knownDesigner(db, input.designerId);
      const prices = { ...pricesOf(input), ...checkedPrices(firstVariant?.prices) };
      if (firstVariant) {
        validateVariant(firstVariant);
        await knownColourAndSize(db, firstVariant);
      }
      else if (Object.values(prices).some((p) => p !== null && p !== undefined)) throw new Invalid(message('first-variant-first'));
      const id = await withSkuCheck(() =>
        db.transaction(async (tx) => {
          const [row] = await tx
            .insert(products)
            .values({ name: input.name, description: input.description, categoryId: input.categoryId, active: input.active, dimensionsCm: input.dimensionsCm ?? null, designerId: input.designerId ?? null, slug: `${slugify(input.name)}-${Date.now().toString(36)}`, createdAt: clock() })
            .returning({ id: products.id });
          await tx.update(products).set({ slug: `${slugify(input.name)}-${row!.id}` }).where(eq(products.id, row!.id));
          if (firstVariant) await openVariant(tx, actor, row!.id, firstVariant, prices, clock);
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
      const before = await productExists(db, productId);
      await subCategory(db, input.categoryId);
      await knownDesigner(db, input.designerId);
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
            .set({ name: input.name, description: input.description, categoryId: input.categoryId, active: input.active, ...(input.dimensionsCm !== undefined ? { dimensionsCm: input.dimensionsCm } : {}), ...(input.designerId !== undefined ? { designerId: input.designerId } : {}) })
            .where(eq(products.id, productId));
          await writeProductPrices(tx, productId, prices);
          const changes = await saveGridCells(tx, actor, productId, grid, clock);
          await deps.search?.refresh([productId], tx);
          const after = await productExists(tx, productId);
          const fields = (['name', 'description', 'categoryId', 'active', 'dimensionsCm', 'designerId'] as const).filter((k) => input[k] !== undefined && before[k] !== input[k]);
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
  };
}
