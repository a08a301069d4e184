import { asc, inArray } from 'drizzle-orm';
import { productChanges, type ImportProblem, type ImportSummary } from '@/lib/domain/catalogue-import';
import type { MarketCode } from '@/lib/domain/markets';
import { fill } from '@/lib/domain/messages';
import type { Actor, AuditLog } from '@/lib/server/backoffice/audit';
import type { Tx } from '@/lib/server/infra/db/client';
import { designerIdFor } from '@/lib/server/catalogue/admin/designers';
import { appendImportedImages } from '@/lib/server/catalogue/admin/images';
import { writePriceRows } from '@/lib/server/catalogue/admin/prices';
import { writeImportedProduct } from '@/lib/server/catalogue/admin/products';
import { insertImportedVariants, setVariantSku } from '@/lib/server/catalogue/admin/variants';
import { applyStockMoves, type StockMove } from '@/lib/server/catalogue/stock';
import { products, variants } from '@/lib/server/catalogue/tables';
import type { CheckOutcome } from './check';

/** The file's checks found problems on apply: nothing is written. */
export class ImportRejected extends Error {
  constructor(readonly problems: ImportProblem[]) {
    super('import rejected');
  }
}

/**
 * Writes a checked file in the caller's transaction (all or nothing): products by handle, variants
 * by SKU (else colour and size), their stock through the ledger ("import", the file and who), their
 * prices per market, and new pictures. Nothing is deleted; a product the file leaves out is left
 * as it is. Answers the ids of the products it touched.
 */
export async function applyChecked(
  tx: Tx,
  outcome: CheckOutcome & { hashes: Record<string, string> },
  ctx: { actor: Actor; fileName: string; importId: string; now: Date; audit: AuditLog; summary: ImportSummary },
): Promise<number[]> {
  if (outcome.problems.length) throw new ImportRejected(outcome.problems);
  const hashes = new Map(Object.entries(outcome.hashes));
  const plans = outcome.products.map((p) => ({ p, e: outcome.existing.get(p.handle), ...productChanges(p, outcome.existing.get(p.handle), hashes) }));
  // The catalogue's lock order: every variant concerned, in id order, then every product, in id order.
  const variantIds = plans.flatMap((x) => x.variants.flatMap((v) => (v.existing && v.changed ? [v.existing.id] : []))).sort((a, b) => a - b);
  for (let i = 0; i < variantIds.length; i += 1000) await tx.select({ id: variants.id }).from(variants).where(inArray(variants.id, variantIds.slice(i, i + 1000))).orderBy(asc(variants.id)).for('update');
  const productIds = plans.flatMap((x) => (x.e ? [x.e.id] : [])).sort((a, b) => a - b);
  for (let i = 0; i < productIds.length; i += 1000) await tx.select({ id: products.id }).from(products).where(inArray(products.id, productIds.slice(i, i + 1000))).orderBy(asc(products.id)).for('no key update');

  const reason = fill('stock-reason-import', ctx.fileName, ctx.actor.email);
  const moves: StockMove[] = [];
  const priceRows: { variantId: number; market: MarketCode; priceMinor: number | null }[] = [];
  const touched: number[] = [];
  // Designers by name as the file names them, found or created once each.
  const designerIds = new Map<string, number>();
  for (const plan of plans) {
    const { p, e } = plan;
    if (!plan.fields && !plan.variantsChanged && plan.newImages.length === 0) continue;
    const designerId = p.designer === undefined ? undefined : p.designer === null ? null : await designerIdFor(tx, p.designer, designerIds);
    const id =
      plan.fields || !e
        ? await writeImportedProduct(tx, e?.id ?? null, { handle: p.handle, name: p.title, description: p.description ?? e?.description ?? '', categoryId: p.categoryId ?? e!.categoryId, active: plan.active, designerId }, ctx.now)
        : e.id;
    touched.push(id);
    const fresh = plan.variants.filter((v) => !v.existing);
    const freshIds = await insertImportedVariants(tx, id, fresh.map((v) => ({ colorId: v.planned.colourId, sizeId: v.planned.sizeId, sku: v.planned.sku })));
    fresh.forEach((v, i) => {
      const variantId = freshIds[i]!;
      if (v.planned.stock) moves.push({ variantId, delta: v.planned.stock, kind: 'import', reason, actorId: ctx.actor.id });
      for (const [market, minor] of Object.entries(v.planned.prices) as [MarketCode, number | null][]) if (minor !== null) priceRows.push({ variantId, market, priceMinor: minor });
    });
    for (const v of plan.variants) {
      const old = v.existing;
      if (!old || !v.changed) continue;
      if (v.planned.sku !== null && old.sku !== v.planned.sku) await setVariantSku(tx, old.id, v.planned.sku);
      if (v.stockChanges) moves.push({ variantId: old.id, delta: v.planned.stock! - old.stock, kind: 'import', reason, actorId: ctx.actor.id });
      for (const [market, minor] of Object.entries(v.planned.prices) as [MarketCode, number | null][]) {
        if (minor !== (old.prices[market] ?? null)) priceRows.push({ variantId: old.id, market, priceMinor: minor });
      }
    }
    await appendImportedImages(tx, id, plan.newImages, p.title);
  }
  await applyStockMoves(tx, moves, ctx.now);
  await writePriceRows(tx, priceRows);
  await ctx.audit.record(
    ctx.actor,
    { action: 'catalogue.import', entity: 'import', entityId: ctx.importId, details: { fileName: ctx.fileName, products: ctx.summary.products, variants: ctx.summary.variants, stockSet: ctx.summary.stockSet, pricesChanged: ctx.summary.priceChanges.length, designersCreated: ctx.summary.designersCreated } },
    tx,
  );
  return touched;
}
