/**
 * The shopping feeds (/feeds/google-NG.xml, /feeds/meta-ZA.csv, …): every variant sold in a market,
 * read a thousand products at a time and written as it is read, so the first bytes leave while
 * the rest is still in the database.
 *
 * A finished feed is kept gzipped in memory, one gzip file made of a segment per page of products
 * (./infra/gzip-segments.ts), with its ETag (a hash of the gzipped bytes: the same build gzips the
 * same text alike on every app server), and answered from there, with a 304 to a client that holds
 * it. It follows the same invalidations as the catalogue pages, on every app server through the
 * cache bus: a product's change marks its segment, which the next fetch reads again (a page of
 * products, not the catalogue), and a change of the categories drops the feed. So a price or stock
 * change reaches the next fetch of the feed as it reaches the next view of the page. A feed being
 * built or refreshed is awaited by the requests that come meanwhile, never built twice at once.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { aliasedTable, and, asc, eq, gt, lte } from 'drizzle-orm';
import { feedItems, googleHead, googleItem, googleShipping, GOOGLE_TAIL, META_HEAD, metaRow, type FeedFormat, type FeedProduct } from '@/lib/domain/feeds';
import { imageUrl } from '@/lib/domain/images';
import { parseMarket, type MarketCode } from '@/lib/domain/markets';
import { toMajor } from '@/lib/domain/money';
import type { Db } from '@/lib/server/infra/db/client';
import { categories, colors, productFromPrices, productImages, products, sizes, variantPrices, variants } from '@/lib/server/infra/db/schema';
import { compressSegment, joinGzip, type GzipSegment } from '@/lib/server/infra/gzip-segments';
import { accepts, matchesEtag, processPageCache, type PageCacheStore } from '@/lib/server/infra/page-cache';

const parent = aliasedTable(categories, 'parent');
/** Products read per round trip, and per segment of a kept feed: about 7,000 variants, some 13 MB of text. */
const PAGE = 1000;
/** Shopping catalogues take large pictures (Merchant Center: at least 800 px for apparel is best). */
const FEED_IMAGE_WIDTH = 1280;

export const FEED_TYPES: Record<FeedFormat, string> = {
  google: 'application/xml; charset=utf-8',
  meta: 'text/csv; charset=utf-8',
};

/** A page of products' items: the products with ids in (after, last]; the last segment's `last` is null (to the end). */
interface BodySegment extends GzipSegment {
  after: number;
  last: number | null;
}

interface FeedEntry {
  head: GzipSegment;
  body: BodySegment[];
  tail: GzipSegment;
  /** Body segments whose products changed since they were read. */
  stale: Set<number>;
  gzip: Buffer;
  etag: string;
  builtAt: Date;
}

/** Whether an invalidation can change a feed: a product, the listings or the menu (not a shopper's cart count or session). */
function touchesCatalogue(tags: readonly string[] | 'all'): boolean {
  return tags === 'all' || tags.some((t) => t === 'listing' || t === 'nav' || t.startsWith('product:'));
}

export function createFeedService({ db, site, keep = true, pages = processPageCache() }: { db: Db; site: string; keep?: boolean; pages?: PageCacheStore }) {
  const stored = new Map<string, FeedEntry>();
  const building = new Map<string, Promise<FeedEntry>>();
  pages.onInvalidate((tags) => {
    if (!touchesCatalogue(tags)) return;
    // A product's change (its price, stock, pictures, whether it is sold) carries its tag: only
    // its segment is read again. A change of the categories or a listing without a product named
    // may touch any item: the feed is read again whole.
    const ids = tags === 'all' ? [] : tags.filter((t) => t.startsWith('product:')).map((t) => Number(t.slice('product:'.length)));
    if (tags === 'all' || tags.includes('nav') || ids.length === 0) return stored.clear();
    for (const entry of stored.values()) {
      for (const id of ids) {
        const i = entry.body.findIndex((seg) => id > seg.after && (seg.last === null || id <= seg.last));
        if (i >= 0) entry.stale.add(i);
      }
    }
  });

  /**
   * The products sold in the market with ids after `afterId` (up to `lastId` when given, else the
   * next PAGE of them), with their variants there and their images.
   */
  async function readPage(market: MarketCode, afterId: number, lastId?: number | null): Promise<FeedProduct[]> {
    const rows = await db
      .select({
        id: products.id,
        name: products.name,
        description: products.description,
        sub: categories.name,
        subSlug: categories.slug,
        parent: parent.name,
        parentSlug: parent.slug,
      })
      .from(products)
      .innerJoin(productFromPrices, and(eq(productFromPrices.productId, products.id), eq(productFromPrices.market, market)))
      .innerJoin(categories, eq(categories.id, products.categoryId))
      .innerJoin(parent, eq(parent.id, categories.parentId))
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
      rows.map((r) => [r.id, { id: r.id, name: r.name, description: r.description, categoryNames: [r.parent, r.sub], categorySlugs: [r.parentSlug, r.subSlug], images: [], variants: [] }]),
    );
    for (const v of variantRows) byId.get(v.productId)?.variants.push({ id: v.id, sku: v.sku, size: v.size, color: v.color, stock: v.stock, price: toMajor(v.priceMinor) });
    for (const i of imageRows) byId.get(i.productId)?.images.push({ url: new URL(imageUrl(i.hash, FEED_IMAGE_WIDTH), site).toString(), color: i.color });
    return [...byId.values()];
  }

  const itemsText = (format: FeedFormat, market: MarketCode, page: FeedProduct[]): Buffer => {
    const shipping = googleShipping(market);
    const parts: string[] = [];
    for (const p of page) for (const item of feedItems(p, market, site)) parts.push(format === 'google' ? googleItem(item, shipping) : metaRow(item));
    return Buffer.from(parts.join(''));
  };

  /**
   * Reads the whole feed a page of products at a time (the next page is read while one is
   * written), writing its text to `out` (when given) as it goes, and compresses each page as a
   * segment of its own; kept unless the catalogue changed while it was read.
   */
  async function build(key: string, format: FeedFormat, market: MarketCode, out?: (chunk: Uint8Array) => Promise<void>): Promise<FeedEntry> {
    const generation = pages.generation;
    const piece = async (text: Buffer) => {
      await out?.(text);
      return compressSegment(text);
    };
    const head = await piece(Buffer.from(format === 'google' ? googleHead(market, site) : META_HEAD));
    const body: BodySegment[] = [];
    let after = 0;
    let next = readPage(market, 0);
    for (;;) {
      const page = await next;
      if (page.length === 0) break;
      const last = page[page.length - 1]!.id;
      next = readPage(market, last);
      body.push({ after, last, ...(await piece(itemsText(format, market, page))) });
      after = last;
    }
    // The last segment runs to the end: products added later fall into it.
    if (body.length) body[body.length - 1]!.last = null;
    else body.push({ after: 0, last: null, ...(await compressSegment(Buffer.alloc(0))) });
    const tail = await piece(Buffer.from(format === 'google' ? GOOGLE_TAIL : ''));
    const entry: FeedEntry = { head, body, tail, stale: new Set(), gzip: Buffer.alloc(0), etag: '', builtAt: new Date() };
    assemble(entry);
    if (keep && pages.generation === generation) stored.set(key, entry);
    return entry;
  }

  /** The segments as one gzip file, with its ETag: a hash of the gzipped bytes (the same build compresses the same text alike on every app server). */
  function assemble(entry: FeedEntry): void {
    entry.gzip = joinGzip([entry.head, ...entry.body, entry.tail]);
    entry.etag = `"${createHash('sha1').update(entry.gzip).digest('base64url').slice(0, 22)}"`;
    entry.builtAt = new Date();
  }

  /** Reads again the segments whose products changed (marked while it runs: done again after). */
  async function refresh(key: string, entry: FeedEntry, format: FeedFormat, market: MarketCode): Promise<FeedEntry> {
    while (entry.stale.size && stored.get(key) === entry) {
      const todo = [...entry.stale];
      entry.stale.clear();
      await Promise.all(
        todo.map(async (i) => {
          const seg = entry.body[i]!;
          const fresh = await compressSegment(itemsText(format, market, await readPage(market, seg.after, seg.last)));
          entry.body[i] = { after: seg.after, last: seg.last, ...fresh };
        }),
      );
      assemble(entry);
    }
    // Dropped whole meanwhile (the categories changed): read it all again.
    return stored.get(key) === entry ? entry : build(key, format, market);
  }

  /** The stored feed (its changed segments read again), or the one being built, or a new build. */
  function entryFor(key: string, format: FeedFormat, market: MarketCode): Promise<FeedEntry> {
    const have = stored.get(key);
    if (have && have.stale.size === 0) return Promise.resolve(have);
    let pending = building.get(key);
    if (!pending) {
      pending = (have ? refresh(key, have, format, market) : build(key, format, market)).finally(() => building.delete(key));
      building.set(key, pending);
    }
    return pending;
  }

  function fromEntry(request: Request, format: FeedFormat, entry: FeedEntry, headOnly: boolean): Response {
    const headers: Record<string, string> = {
      'content-type': FEED_TYPES[format],
      'cache-control': 'no-cache',
      etag: entry.etag,
      'last-modified': entry.builtAt.toUTCString(),
      vary: 'Accept-Encoding',
    };
    if (matchesEtag(request, entry.etag)) return new Response(null, { status: 304, headers });
    if (headOnly) return new Response(null, { status: 200, headers });
    // Catalogue crawlers take gzip; anyone else gets the text unpacked as it is sent.
    if (accepts(request, 'gzip')) return new Response(new Uint8Array(entry.gzip), { status: 200, headers: { ...headers, 'content-encoding': 'gzip', 'content-length': String(entry.gzip.length) } });
    return new Response(Readable.toWeb(Readable.from([entry.gzip]).pipe(createGunzip())) as ReadableStream<Uint8Array>, { status: 200, headers });
  }

  return {
    /**
     * The answer to GET or HEAD of a feed. A feed neither stored nor being built is streamed to
     * an unconditional GET as it is read (and stored); a conditional one waits for the whole feed,
     * whose ETag it needs.
     */
    async respond(request: Request, format: FeedFormat, market: MarketCode): Promise<Response> {
      const key = `${format}:${market}`;
      const headOnly = request.method === 'HEAD';
      if (stored.has(key) || building.has(key) || headOnly || request.headers.has('if-none-match')) {
        return fromEntry(request, format, await entryFor(key, format, market), headOnly);
      }
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      // The reading waits for a slow client (a few pages queued at most); one that leaves stops
      // being written to, and the feed is still finished for the store.
      let wake: (() => void) | null = null;
      let gone = false;
      const body = new ReadableStream<Uint8Array>(
        {
          start: (c) => void (controller = c),
          pull: () => {
            wake?.();
            wake = null;
          },
          cancel: () => {
            gone = true;
            wake?.();
          },
        },
        { highWaterMark: 4 },
      );
      const send = async (chunk: Uint8Array) => {
        if (gone) return;
        controller.enqueue(chunk);
        while (!gone && (controller.desiredSize ?? 1) <= 0) await new Promise<void>((r) => (wake = r));
      };
      const pending = build(key, format, market, send).finally(() => building.delete(key));
      building.set(key, pending);
      pending.then(
        () => !gone && controller.close(),
        (err: unknown) => !gone && controller.error(err),
      );
      return new Response(body, { status: 200, headers: { 'content-type': FEED_TYPES[format], 'cache-control': 'no-cache' } });
    },
  };
}
export type FeedService = ReturnType<typeof createFeedService>;

/** `google-NG.xml` -> the Google feed of Nigeria; null for any other name. */
export function parseFeedFile(file: string | undefined): { format: FeedFormat; market: MarketCode } | null {
  const m = /^(google|meta)-([A-Z]{2})\.(xml|csv)$/.exec(file ?? '');
  const market = m && parseMarket(m[2]);
  if (!m || !market || (m[1] === 'google') !== (m[3] === 'xml')) return null;
  return { format: m[1] as FeedFormat, market };
}
