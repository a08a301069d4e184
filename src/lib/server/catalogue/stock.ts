import { and, asc, desc, eq, gte, lte, sql } from 'drizzle-orm';
import { Conflict, Invalid, NotFound } from '@/lib/domain/errors';
import { message } from '@/lib/domain/messages';
import type { Actor, AuditLog } from '@/lib/server/backoffice/audit';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { colors, products, sizes, stockLedger, variants } from '@/lib/server/catalogue/tables';
import { cacheTags, type PageCacheInvalidator } from '@/lib/server/storefront/page-cache';
import { markRestocked } from './back-in-stock';

/** exchange: a unit held for a return's exchange; exchange_release: given back; return: a returned unit back on sale. */
export type StockKind = (typeof stockLedger.$inferInsert)['kind'];

export interface StockMove {
  variantId: number;
  /** Positive: stock comes back or in; negative: stock goes out. */
  delta: number;
  kind: StockKind;
  reason?: string | null;
  orderId?: string | null;
  actorId?: string | null;
}

/**
 * Records moves already applied to variants.stock: only the seed's opening balances (variants
 * inserted with their stock). Everything else changes stock through applyStockMoves, which does both.
 */
export async function recordStockMoves(tx: Db | Tx, moves: StockMove[], at?: Date): Promise<void> {
  const rows = moves.filter((m) => m.delta !== 0);
  if (rows.length === 0) return;
  await tx.insert(stockLedger).values(
    rows.map((m) => ({
      variantId: m.variantId,
      delta: m.delta,
      kind: m.kind,
      reason: m.reason ?? null,
      orderId: m.orderId ?? null,
      actorId: m.actorId ?? null,
      ...(at ? { createdAt: at } : {}),
    })),
  );
}

/** A sale that cannot be made: the variant has fewer units on hand than the move takes. */
export class OutOfStock extends Conflict {
  constructor(readonly variantId: number) {
    super(message('stock-below-zero'));
  }
}

/**
 * The one way stock changes: each move changes variants.stock (never below 0: OutOfStock, a
 * Conflict), is recorded in the ledger, and a sale (kind 'order') also counts toward its product's
 * sales (the best-seller rank), and a variant back from 0 makes its "email me when it is back"
 * requests due (back-in-stock.ts), all in the caller's transaction. Sales (orders.createPaid),
 * cancellations, staff adjustments and new variants' opening stock all come through here, and so
 * should returns. Locks follow the catalogue's order (docs/architecture.md): every variant first, in
 * id order, then every product whose sales count moves, in id order. Going variant, product, variant,
 * product, two carts holding two products in opposite id orders (an old product with a new variant)
 * deadlocked.
 */
export async function applyStockMoves(tx: Db | Tx, moves: StockMove[], at?: Date): Promise<{ variantId: number; productId: number; stock: number }[]> {
  const out: { variantId: number; productId: number; stock: number }[] = [];
  const sold = new Map<number, number>();
  const restocked: number[] = [];
  const inIdOrder = moves.map((m, i) => ({ m, i })).sort((a, b) => a.m.variantId - b.m.variantId);
  for (const { m, i } of inIdOrder) {
    if (!Number.isSafeInteger(m.delta)) throw new Invalid(message('stock-change-whole'));
    const [row] = await tx
      .update(variants)
      .set({ stock: sql`${variants.stock} + ${m.delta}` })
      .where(and(eq(variants.id, m.variantId), gte(sql`${variants.stock} + ${m.delta}`, 0)))
      .returning({ variantId: variants.id, productId: variants.productId, stock: variants.stock });
    if (!row) {
      const [exists] = await tx.select({ id: variants.id }).from(variants).where(eq(variants.id, m.variantId)).limit(1);
      if (!exists) throw new NotFound(message('variant-not-found'));
      throw new OutOfStock(m.variantId);
    }
    if (m.kind === 'order') sold.set(row.productId, (sold.get(row.productId) ?? 0) - m.delta);
    if (m.delta > 0 && row.stock === m.delta) restocked.push(row.variantId);
    out[i] = row;
  }
  for (const [productId, units] of [...sold].sort(([a], [b]) => a - b)) {
    await tx
      .update(products)
      .set({ salesCount: sql`${products.salesCount} + ${units}` })
      .where(eq(products.id, productId));
  }
  await recordStockMoves(tx, moves, at);
  // Back from sold out (a staff restock, a cancellation, a returned unit): those waiting are mailed once.
  await markRestocked(tx, restocked, at ?? new Date());
  return out;
}

export interface LowStockRow {
  variantId: number;
  productId: number;
  productName: string;
  color: string | null;
  size: string | null;
  sku: string | null;
  stock: number;
}

/**
 * Stock for staff: adjustments with a reason, the ledger, the low-stock list. This module owns the
 * stock facts: the stock_ledger table, variants.stock and products.sales_count (applyStockMoves).
 */
export function createStockService({ db, clock, pageCache, audit }: { db: Db; clock: () => Date; pageCache: PageCacheInvalidator; audit: AuditLog }) {
  return {
    async adjust(actor: Actor, input: { variantId: number; delta: number; reason: string }): Promise<{ variantId: number; productId: number; stock: number }> {
      const reason = input.reason.trim();
      if (!reason) throw new Invalid(message('stock-reason-required'));
      if (input.delta === 0) throw new Invalid(message('stock-change-zero'));
      const row = await db.transaction(async (tx) => {
        const [before] = await tx.select({ stock: variants.stock }).from(variants).where(eq(variants.id, input.variantId)).for('update');
        if (!before) throw new NotFound(message('variant-not-found'));
        const [after] = await applyStockMoves(tx, [{ variantId: input.variantId, delta: input.delta, kind: 'adjustment', reason, actorId: actor.id }], clock());
        await audit.record(
          actor,
          { action: 'stock.adjust', entity: 'variant', entityId: input.variantId, details: { before: before.stock, after: after!.stock, delta: input.delta, reason } },
          tx,
        );
        return { ...after!, restocked: before.stock <= 0 && after!.stock > 0 };
      });
      // A piece back in stock may be promoted again: the lists that leave out sold-out pieces are read anew.
      await pageCache.invalidate(row.restocked ? [cacheTags.product(row.productId), cacheTags.listing] : [cacheTags.product(row.productId)]);
      return { variantId: row.variantId, productId: row.productId, stock: row.stock };
    },

    async lowStock(threshold: number, limit = 200): Promise<LowStockRow[]> {
      return db
        .select({
          variantId: variants.id,
          productId: variants.productId,
          productName: products.name,
          color: colors.name,
          size: sizes.name,
          sku: variants.sku,
          stock: variants.stock,
        })
        .from(variants)
        .innerJoin(products, eq(products.id, variants.productId))
        .leftJoin(colors, eq(colors.id, variants.colorId))
        .leftJoin(sizes, eq(sizes.id, variants.sizeId))
        .where(lte(variants.stock, threshold))
        .orderBy(asc(variants.stock), asc(products.name), asc(variants.id))
        .limit(limit);
    },

    async ledger(variantId: number, limit = 100) {
      return db.select().from(stockLedger).where(eq(stockLedger.variantId, variantId)).orderBy(desc(stockLedger.createdAt), desc(stockLedger.id)).limit(limit);
    },

    /** Variants whose ledger does not add up to their stock on hand (should be none). */
    async mismatches(): Promise<{ variantId: number; stock: number; ledger: number }[]> {
      const rows = await db.execute(sql`
        select v.id as "variantId", v.stock as stock, coalesce(sum(l.delta), 0)::int as ledger
        from ${variants} v left join ${stockLedger} l on l.variant_id = v.id
        group by v.id, v.stock having v.stock <> coalesce(sum(l.delta), 0)`);
      return ((rows as any).rows ?? rows) as { variantId: number; stock: number; ledger: number }[];
    },
  };
}
export type StockService = ReturnType<typeof createStockService>;
