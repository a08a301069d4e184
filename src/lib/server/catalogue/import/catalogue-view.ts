import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { sizesOfGuide, type CatalogueView, type ExistingProduct } from '@/lib/domain/catalogue-import';
import { isMarketCode } from '@/lib/domain/markets';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { categories, colors, designers, productImages, products, sizes, variantPrices, variants } from '@/lib/server/catalogue/tables';

/** What an import's rows are checked against, read in the caller's transaction (the apply's own, so nothing moves in between). */

const chunks = <T>(list: readonly T[], size = 1000): T[][] => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, i * size + size));

/** The colours, sizes, sub-categories with their size guides, and the owners of the file's SKUs. */
export async function loadCatalogueView(db: Db | Tx, skus: readonly string[]): Promise<CatalogueView> {
  const parent = alias(categories, 'parent');
  // One query after another: inside the apply's transaction they share one connection.
  const colourRows = await db.select({ id: colors.id, name: colors.name }).from(colors);
  const sizeRows = await db.select({ id: sizes.id, name: sizes.name }).from(sizes).orderBy(asc(sizes.position));
  const subs = await db.select({ id: categories.id, name: categories.name, parent: parent.name }).from(categories).innerJoin(parent, eq(parent.id, categories.parentId));
  const used = await db.selectDistinct({ categoryId: products.categoryId, size: sizes.name }).from(variants).innerJoin(products, eq(products.id, variants.productId)).innerJoin(sizes, eq(sizes.id, variants.sizeId));
  const filled = await db.selectDistinct({ categoryId: products.categoryId }).from(products);
  const designerRows = await db.select({ id: designers.id, name: designers.name }).from(designers);
  const allSizes = sizeRows.map((s) => s.name);
  const withProducts = new Set(filled.map((f) => f.categoryId));
  const skuHandles = new Map<string, string>();
  for (const part of chunks([...new Set(skus.map((s) => s.toLowerCase()))])) {
    const rows = await db
      .select({ sku: sql<string>`lower(${variants.sku})`, handle: products.slug })
      .from(variants)
      .innerJoin(products, eq(products.id, variants.productId))
      .where(and(isNotNull(variants.sku), inArray(sql`lower(${variants.sku})`, part)));
    for (const r of rows) skuHandles.set(r.sku, r.handle);
  }
  return {
    colours: colourRows,
    sizes: sizeRows,
    categories: subs.map((c) => {
      const guide = sizesOfGuide(used.filter((u) => u.categoryId === c.id).map((u) => u.size), allSizes, withProducts.has(c.id));
      return { id: c.id, path: `${c.parent} > ${c.name}`, ...guide };
    }),
    skuHandles,
    designers: designerRows,
  };
}

/** The products the file names (by handle), with their variants, prices and pictures. */
export async function loadExisting(db: Db | Tx, handles: readonly string[]): Promise<Map<string, ExistingProduct>> {
  const out = new Map<string, ExistingProduct>();
  const byId = new Map<number, ExistingProduct>();
  for (const part of chunks(handles)) {
    const rows = await db
      .select({ id: products.id, handle: products.slug, title: products.name, description: products.description, categoryId: products.categoryId, active: products.active, designer: designers.name })
      .from(products)
      .leftJoin(designers, eq(designers.id, products.designerId))
      .where(inArray(products.slug, part));
    for (const r of rows) {
      const p: ExistingProduct = { ...r, variants: [], images: [] };
      out.set(r.handle, p);
      byId.set(r.id, p);
    }
  }
  for (const ids of chunks([...byId.keys()])) {
    const variantRows = await db.select({ id: variants.id, productId: variants.productId, sku: variants.sku, colourId: variants.colorId, sizeId: variants.sizeId, stock: variants.stock }).from(variants).where(inArray(variants.productId, ids)).orderBy(asc(variants.id));
    const priceRows = await db.select({ variantId: variantPrices.variantId, market: variantPrices.market, priceMinor: variantPrices.priceMinor }).from(variantPrices).innerJoin(variants, eq(variants.id, variantPrices.variantId)).where(inArray(variants.productId, ids));
    const imageRows = await db.select({ productId: productImages.productId, hash: productImages.mediaHash }).from(productImages).where(inArray(productImages.productId, ids)).orderBy(asc(productImages.position));
    const variantsById = new Map<number, ExistingProduct['variants'][number]>();
    for (const v of variantRows) {
      const row = { id: v.id, sku: v.sku, colourId: v.colourId, sizeId: v.sizeId, stock: v.stock, prices: {} };
      variantsById.set(v.id, row);
      byId.get(v.productId)!.variants.push(row);
    }
    for (const p of priceRows) if (isMarketCode(p.market)) variantsById.get(p.variantId)!.prices[p.market] = Number(p.priceMinor);
    for (const im of imageRows) (byId.get(im.productId)!.images as string[]).push(im.hash);
  }
  return out;
}
