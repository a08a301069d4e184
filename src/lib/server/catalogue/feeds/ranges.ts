import { createHash } from 'node:crypto';
import { aliasedTable, and, asc, eq, gt, lte, sql } from 'drizzle-orm';
import type { FeedProduct } from '@/lib/domain/feeds';
import { imageUrl } from '@/lib/domain/images';
import type { MarketCode } from '@/lib/domain/markets';
import { toMajor } from '@/lib/domain/money';
import type { Db } from '@/lib/server/infra/db/client';
import { categories, colors, designers, productFromPrices, productImages, products, sizes, variantPrices, variants } from '@/lib/server/catalogue/tables';

const parent = aliasedTable(categories, 'parent');
/** Products read per round trip, and per segment of a kept feed: about 7,000 variants, some 13 MB of text. */
export const PAGE = 1000;
/** Shopping catalogues take large pictures (Merchant Center: at least 800 px for apparel is best). */
export const FEED_IMAGE_WIDTH = 1280;

/** The fingerprint of a range with no product: md5 of nothing. */
const EMPTY_FP = createHash('md5').update('').digest('hex');

/**
 * What a feed reads of the catalogue: the products sold in a market, a range of ids at a time, with
 * their variants there and their pictures; and the fingerprint of a range, that tells a kept
 * segment still current from one to read again.
 */
export function createRangeReading({ db, site, keep }: { db: Db; site: string; keep: boolean }) {
  /** Fingerprint passes under way, shared by both feeds of a market. */
  const passes = new Map<string, Promise<string[]>>();

  /**
   * A hash of everything the feed shows of the products sold in the market with ids after
   * `afterId` (up to `lastId`; null: to the end; undefined: the next PAGE of them), and the last
   * id among them. Taken before the range is read, so a change that lands in between makes the
   * next start read the range again rather than keep it.
   */
  async function fingerprint(market: MarketCode, afterId: number, lastId?: number | null): Promise<{ fp: string; last: number | null; count: number }> {
    const res = await db.execute(sql`
      with p as (
        select p.id, row(p.id, p.name, p.description, c.name, c.slug, pa.name, pa.slug, d.name)::text as facts
        from ${products} p
        left join ${designers} d on d.id = p.designer_id
        join ${productFromPrices} f on f.product_id = p.id and f.market = ${market}
        join ${categories} c on c.id = p.category_id
        join ${categories} pa on pa.id = c.parent_id
        where p.active and p.id > ${afterId} ${lastId ? sql`and p.id <= ${lastId}` : sql``}
        order by p.id
        ${lastId === undefined ? sql`limit ${PAGE}` : sql``}
      )
      select count(*) as count, max(p.id) as last, md5(coalesce(string_agg(p.facts
        || coalesce((select string_agg(row(v.id, v.sku, s.name, s.position, co.name, v.stock, vp.price_minor)::text, ';' order by v.id)
             from ${variants} v join ${variantPrices} vp on vp.variant_id = v.id and vp.market = ${market}
             left join ${sizes} s on s.id = v.size_id left join ${colors} co on co.id = v.color_id
             where v.product_id = p.id), '')
        || '|' || coalesce((select string_agg(row(i.media_hash, i.position, ci.name)::text, ';' order by i.position)
             from ${productImages} i left join ${colors} ci on ci.id = i.color_id
             where i.product_id = p.id), ''),
        E'\\n' order by p.id), '')) as fp
      from p`);
    type Row = { count: number | string; last: number | string | null; fp: string };
    const row = ((res as { rows?: Row[] }).rows ?? (res as unknown as Row[]))[0]!;
    return { fp: row.fp, last: row.last === null ? null : Number(row.last), count: Number(row.count) };
  }

  /**
   * The products sold in the market with ids after `afterId` (up to `lastId`; null: to the end;
   * undefined: the next PAGE of them), with their variants there and their images.
   */
  async function readPage(market: MarketCode, afterId: number, lastId?: number | null): Promise<FeedProduct[]> {
    const rows = await db
      .select({
        id: products.id,
        name: products.name,
        description: products.description,
        brand: designers.name,
        sub: categories.name,
        subSlug: categories.slug,
        parent: parent.name,
        parentSlug: parent.slug,
      })
      .from(products)
      .innerJoin(productFromPrices, and(eq(productFromPrices.productId, products.id), eq(productFromPrices.market, market)))
      .innerJoin(categories, eq(categories.id, products.categoryId))
      .innerJoin(parent, eq(parent.id, categories.parentId))
      .leftJoin(designers, eq(designers.id, products.designerId))
      .where(and(eq(products.active, true), gt(products.id, afterId), lastId ? lte(products.id, lastId) : undefined))
      .orderBy(asc(products.id))
      .limit(lastId === undefined ? PAGE : Number.MAX_SAFE_INTEGER);
    if (rows.length === 0) return [];
    // The page's id range, read through the indexes that lead with product_id (a list of ids made the planner scan the table).
    const inRange = <T extends typeof variants.productId | typeof productImages.productId>(col: T) => and(gt(col, afterId), lte(col, rows[rows.length - 1]!.id));
    const [variantRows, imageRows] = await Promise.all([
      db
        .select({ productId: variants.productId, id: variants.id, sku: variants.sku, size: sizes.name, color: colors.name, stock: variants.stock, priceMinor: variantPrices.priceMinor })
        .from(variants)
        .innerJoin(variantPrices, and(eq(variantPrices.variantId, variants.id), eq(variantPrices.market, market)))
        .leftJoin(sizes, eq(sizes.id, variants.sizeId))
        .leftJoin(colors, eq(colors.id, variants.colorId))
        .where(inRange(variants.productId))
        .orderBy(asc(variants.productId), asc(sizes.position), asc(colors.name)),
      db
        .select({ productId: productImages.productId, hash: productImages.mediaHash, color: colors.name })
        .from(productImages)
        .leftJoin(colors, eq(colors.id, productImages.colorId))
        .where(inRange(productImages.productId))
        .orderBy(asc(productImages.productId), asc(productImages.position)),
    ]);
    const byId = new Map<number, FeedProduct>(
      rows.map((r) => [r.id, { id: r.id, name: r.name, description: r.description, brand: r.brand, categoryNames: [r.parent, r.sub], categorySlugs: [r.parentSlug, r.subSlug], images: [], variants: [] }]),
    );
    for (const v of variantRows) byId.get(v.productId)?.variants.push({ id: v.id, sku: v.sku, size: v.size, color: v.color, stock: v.stock, price: toMajor(v.priceMinor) });
    for (const i of imageRows) byId.get(i.productId)?.images.push({ url: new URL(imageUrl(i.hash, FEED_IMAGE_WIDTH), site).toString(), color: i.color });
    return [...byId.values()];
  }

  /** A range of products (the next PAGE after `after` when `last` is undefined): fingerprinted first, then read. */
  async function readRange(market: MarketCode, after: number, last?: number | null): Promise<{ fp: string; last: number | null; page: FeedProduct[] } | null> {
    const seen = keep ? await fingerprint(market, after, last) : null;
    if (seen && seen.count === 0 && last === undefined) return null;
    // Without a fingerprint (nothing kept), the next page is the products read.
    const page = await readPage(market, after, last === undefined && seen ? seen.last : last);
    if (page.length === 0 && last === undefined) return null;
    return { fp: seen?.fp ?? '', last: last === undefined ? page[page.length - 1]!.id : last, page };
  }

  /**
   * The fingerprints of consecutive ranges of products, the first ids of which are given (each
   * runs to the next; the last to the end), in one pass over the market's catalogue: the same
   * hashes as `fingerprint` gives range by range, at a fraction of the cost (some 13 s instead of
   * 50 at 50,000 products on a loaded machine). Both feeds of a market share one pass.
   */
  function fingerprints(market: MarketCode, starts: readonly number[]): Promise<string[]> {
    const key = `${market}:${starts.join(',')}`;
    let pending = passes.get(key);
    if (!pending) {
      pending = (async () => {
        const res = await db.execute(sql`
          with p as (
            select p.id, width_bucket(p.id, array[${sql.join(
              starts.map((n) => sql`${n}`),
              sql`, `,
            )}]::int[]) as b, row(p.id, p.name, p.description, c.name, c.slug, pa.name, pa.slug, d.name)::text as facts
            from ${products} p
            left join ${designers} d on d.id = p.designer_id
            join ${productFromPrices} f on f.product_id = p.id and f.market = ${market}
            join ${categories} c on c.id = p.category_id
            join ${categories} pa on pa.id = c.parent_id
            where p.active and p.id >= ${starts[0]!}
          ), v as (
            select v.product_id, string_agg(row(v.id, v.sku, s.name, s.position, co.name, v.stock, vp.price_minor)::text, ';' order by v.id) as s
            from ${variants} v join ${variantPrices} vp on vp.variant_id = v.id and vp.market = ${market}
            left join ${sizes} s on s.id = v.size_id left join ${colors} co on co.id = v.color_id
            group by v.product_id
          ), i as (
            select i.product_id, string_agg(row(i.media_hash, i.position, ci.name)::text, ';' order by i.position) as s
            from ${productImages} i left join ${colors} ci on ci.id = i.color_id
            group by i.product_id
          )
          select p.b, md5(string_agg(p.facts || coalesce(v.s, '') || '|' || coalesce(i.s, ''), E'\n' order by p.id)) as fp
          from p left join v on v.product_id = p.id left join i on i.product_id = p.id
          group by p.b`);
        type Row = { b: number | string; fp: string };
        const rows = (res as { rows?: Row[] }).rows ?? (res as unknown as Row[]);
        // A range with no product left hashes nothing, as `fingerprint` does.
        const fps = starts.map(() => EMPTY_FP);
        for (const r of rows) fps[Number(r.b) - 1] = r.fp;
        return fps;
      })().finally(() => passes.delete(key));
      passes.set(key, pending);
    }
    return pending;
  }


  return { fingerprint, readRange, fingerprints };
}
export type RangeReading = ReturnType<typeof createRangeReading>;
