import { asc, eq, gt, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { IMPORT_COLUMNS, type ImportColumn } from '@/lib/domain/catalogue-import';
import { MARKET_CODES } from '@/lib/domain/markets';
import { csvChunks, type CsvCell } from '@/lib/server/infra/csv';
import type { Db } from '@/lib/server/infra/db/client';
import { categories, colors, designers, productImages, products, sizes, variantPrices, variants } from '@/lib/server/catalogue/tables';

/** An amount in minor units as the file writes it: major units with two decimals ("450000.00"). */
const amount = (minor: number | undefined) => (minor === undefined ? '' : `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`);

/**
 * The catalogue as the import reads it, streamed a batch of products at a time: one row per
 * variant (the product's fields on each), its pictures on the product's rows in order (rows of
 * their own past its variants). Importing the file unchanged changes nothing.
 */
export function exportCatalogue(db: Db, site: string, batch = 200): AsyncGenerator<string> {
  const parent = alias(categories, 'parent');
  async function* batches(): AsyncGenerator<CsvCell[][]> {
    let after = 0;
    for (;;) {
      const list = await db
        .select({ id: products.id, handle: products.slug, title: products.name, description: products.description, active: products.active, category: categories.name, parent: parent.name, designer: designers.name })
        .from(products)
        .innerJoin(categories, eq(categories.id, products.categoryId))
        .leftJoin(designers, eq(designers.id, products.designerId))
        .leftJoin(parent, eq(parent.id, categories.parentId))
        .where(gt(products.id, after))
        .orderBy(asc(products.id))
        .limit(batch);
      if (list.length === 0) return;
      after = list[list.length - 1]!.id;
      const ids = list.map((p) => p.id);
      const [variantRows, priceRows, imageRows] = await Promise.all([
        db.select({ id: variants.id, productId: variants.productId, sku: variants.sku, colour: colors.name, size: sizes.name, stock: variants.stock }).from(variants).leftJoin(colors, eq(colors.id, variants.colorId)).leftJoin(sizes, eq(sizes.id, variants.sizeId)).where(inArray(variants.productId, ids)).orderBy(asc(variants.id)),
        db.select({ variantId: variantPrices.variantId, market: variantPrices.market, priceMinor: variantPrices.priceMinor }).from(variantPrices).innerJoin(variants, eq(variants.id, variantPrices.variantId)).where(inArray(variants.productId, ids)),
        db.select({ productId: productImages.productId, hash: productImages.mediaHash, alt: productImages.alt }).from(productImages).where(inArray(productImages.productId, ids)).orderBy(asc(productImages.position)),
      ]);
      const price = new Map(priceRows.map((r) => [`${r.variantId}:${r.market}`, Number(r.priceMinor)]));
      const out: CsvCell[][] = [];
      for (const p of list) {
        const own = variantRows.filter((v) => v.productId === p.id);
        const images = imageRows.filter((im) => im.productId === p.id);
        const count = Math.max(own.length, images.length, 1);
        for (let i = 0; i < count; i++) {
          const v = own[i];
          const im = images[i];
          const cells: Partial<Record<ImportColumn, CsvCell>> = {
            Handle: p.handle,
            Title: p.title,
            ...(i === 0 ? { Description: p.description, Brand: p.designer, Category: p.parent ? `${p.parent} > ${p.category}` : p.category, Status: p.active ? 'active' : 'draft' } : {}),
            ...(v
              ? {
                  'Option1 Colour': v.colour,
                  'Option2 Size': v.size,
                  SKU: v.sku,
                  Inventory: v.stock,
                  ...Object.fromEntries(MARKET_CODES.map((m) => [`Price ${m}`, amount(price.get(`${v.id}:${m}`))])),
                }
              : {}),
            ...(im ? { 'Image Src': `${site}/media/${im.hash}`, 'Image Alt Text': im.alt } : {}),
          };
          out.push(IMPORT_COLUMNS.map((c) => cells[c] ?? ''));
        }
      }
      yield out;
    }
  }
  return csvChunks(IMPORT_COLUMNS, batches());
}
