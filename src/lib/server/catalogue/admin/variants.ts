import { and, eq, inArray } from 'drizzle-orm';
import { Conflict, Invalid, NotFound } from '@/lib/domain/errors';
import { MARKET_CODES } from '@/lib/domain/markets';
import { message } from '@/lib/domain/messages';
import type { Actor } from '@/lib/server/backoffice/audit';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { colors, products, sizes, variantPrices, variants } from '@/lib/server/catalogue/tables';
import { cacheTags } from '@/lib/server/storefront/page-cache';
import { applyStockMoves } from '../stock';
import { STAFF_COMMAND, type AdminContext } from './context';
import { checkedPrices, writeVariantPrices, type MarketPrices } from './prices';
import { productExists } from './product-reading';

/**
 * A product's variants, the cells of its colour x size grid: the one writer of `variants` (their
 * stock on hand aside, which moves only through the stock ledger, ../stock.ts).
 */

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

export function validateVariant(v: VariantInput): void {
  if (!Number.isSafeInteger(v.stock) || v.stock < 0) throw new Invalid(message('stock-whole'));
  if (v.sku && v.sku.length > 64) throw new Invalid(message('sku-too-long'));
}

/** A new variant's colour and size must be ones the catalogue has (not a database error). */
export async function knownColourAndSize(db: Db, v: VariantInput): Promise<void> {
  if (v.colorId !== null && !(await db.select({ id: colors.id }).from(colors).where(eq(colors.id, v.colorId)).limit(1)).length) throw new Invalid(message('choose-listed-colour'));
  if (v.sizeId !== null && !(await db.select({ id: sizes.id }).from(sizes).where(eq(sizes.id, v.sizeId)).limit(1)).length) throw new Invalid(message('choose-listed-size'));
}

/** SKU clashes are a 409 with a message, not a database error. */
export async function withSkuCheck<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const text = String((err as { cause?: unknown })?.cause ?? err);
    if (text.includes('variants_sku_uq')) throw new Conflict(message('sku-taken'));
    if (text.includes('variants_product_size_color_uq')) throw new Conflict(message('variant-taken'));
    throw err;
  }
}

/** A new variant of a product: its row, its prices, and its first units as the ledger's opening move. */
export async function openVariant(tx: Tx, actor: Actor, productId: number, v: VariantInput, prices: MarketPrices, clock: () => Date): Promise<number> {
  const [row] = await tx.insert(variants).values({ productId, colorId: v.colorId, sizeId: v.sizeId, sku: v.sku || null, stock: 0 }).returning({ id: variants.id });
  await writeVariantPrices(tx, [row!.id], prices);
  await applyStockMoves(tx, [{ variantId: row!.id, delta: v.stock, kind: 'opening', reason: message('stock-reason-new-variant'), actorId: actor.id }], clock());
  return row!.id;
}

/** New variants of one product from an import (stock 0: the import's ledger moves bring their units); answers their ids in the order given. */
export async function insertImportedVariants(tx: Tx, productId: number, cells: { colorId: number | null; sizeId: number | null; sku: string | null }[]): Promise<number[]> {
  if (cells.length === 0) return [];
  const rows = await tx
    .insert(variants)
    .values(cells.map((c) => ({ productId, colorId: c.colorId, sizeId: c.sizeId, sku: c.sku, stock: 0 })))
    .returning({ id: variants.id, colorId: variants.colorId, sizeId: variants.sizeId });
  return cells.map((c) => rows.find((r) => r.colorId === c.colorId && r.sizeId === c.sizeId)!.id);
}

/** A variant's SKU as an import sets it. */
export async function setVariantSku(tx: Tx, variantId: number, sku: string): Promise<void> {
  await tx.update(variants).set({ sku }).where(eq(variants.id, variantId));
}

/**
 * The editor's grid, saved in the product's transaction: each cell's SKU, stock (an adjustment in
 * the ledger) and prices. Returns what changed, cell by cell, for the product's audit entry.
 */
export async function saveGridCells(tx: Tx, actor: Actor, productId: number, grid: GridCell[], clock: () => Date): Promise<Record<string, unknown>[]> {
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
  return changes;
}

/** Staff add a cell to a product's grid and count a variant's stock. */
export function createVariantEditing(deps: AdminContext) {
  const { db, pageCache, clock, record } = deps;
  return {
    /** Adds a colour x size cell to a product's grid, priced as given or at the product's current "from" prices. */
    async addVariant(actor: Actor, productId: number, v: VariantInput): Promise<{ id: number }> {
      const product = await productExists(db, productId);
      validateVariant(v);
      await knownColourAndSize(db, v);
      const given = checkedPrices(v.prices);
      const prices: MarketPrices = Object.fromEntries(MARKET_CODES.map((m) => [m, given[m] !== undefined ? given[m] : product.prices[m]]));
      const id = await withSkuCheck(() =>
        db.transaction(async (tx) => {
          // The product's row first, as saveProduct takes it: the new prices' trigger locks the
          // product's "from" prices and the search refresh updates the product row; taken in the
          // other order, a save of the same product at the same moment deadlocked with this one.
          await tx.select({ id: products.id }).from(products).where(eq(products.id, productId)).for('no key update');
          const variantId = await openVariant(tx, actor, productId, v, prices, clock);
          await record(actor, { action: 'variant.create', entity: 'product', entityId: productId, details: { after: { variantId, ...v, prices } } }, tx);
          // A new colour is a new word search knows this piece by.
          await deps.search?.refresh([productId], tx);
          return variantId;
        }),
      );
      await pageCache.invalidate([cacheTags.product(productId), cacheTags.listing]);
      return { id };
    },

    /** Sets a variant's stock on hand; the difference goes through the stock ledger as an adjustment. */
    async setStock(variantId: number, stock: number, actor: Actor = STAFF_COMMAND, reason = message('stock-reason-count')): Promise<{ variantId: number; productId: number; stock: number }> {
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
  };
}
