/**
 * The shopping feeds (/feeds/google-NG.xml, /feeds/meta-ZA.csv, …): every variant sold in a market,
 * read a thousand products at a time.
 *
 * A request never waits for the catalogue to be read: it is answered from the last finished copy
 * of the feed, gzipped, with its ETag (a hash of the gzipped bytes: the same build gzips the same
 * text alike on every app server) and Last-Modified, and a 304 to a client that holds it. The copy
 * is kept in memory and in `feed_copies`, so an app server that starts answers from the database at
 * once while it reads the feed again behind (the catalogue may have changed while it was down).
 *
 * The copy follows the catalogue pages' invalidations, on every app server through the cache bus,
 * and is brought up to date in the background as soon as one arrives: a product's change marks
 * the segment of a thousand products it falls in (./infra/gzip-segments.ts), which is read again; a
 * change of the categories reads the feed again whole. A request that comes while the copy is
 * being brought up to date waits for it FRESH_WAIT_MS at most (never for a read of the whole feed),
 * then takes the last copy: a price
 * change reaches the next fetch of the feed as it reaches the next view of the page when its
 * segment is read within that time, and at worst one refresh later (ADR 0031). Only a store that
 * has never finished a feed streams its first build to the first request as it is read.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { createGunzip } from 'node:zlib';
import { aliasedTable, and, asc, eq, gt, lt, lte, sql } from 'drizzle-orm';
import { feedItems, googleHead, googleItem, googleShipping, GOOGLE_TAIL, META_HEAD, metaRow, type FeedFormat, type FeedProduct } from '@/lib/domain/feeds';
import { imageUrl } from '@/lib/domain/images';
import { parseMarket, type MarketCode } from '@/lib/domain/markets';
import { toMajor } from '@/lib/domain/money';
import type { Db } from '@/lib/server/infra/db/client';
import { categories, colors, feedCopies, productFromPrices, productImages, products, sizes, variantPrices, variants } from '@/lib/server/infra/db/schema';
import { compressSegment, joinGzip, type GzipSegment } from '@/lib/server/infra/gzip-segments';
import { accepts, matchesEtag, processPageCache, type PageCacheStore } from '@/lib/server/infra/page-cache';

const parent = aliasedTable(categories, 'parent');
/** Products read per round trip, and per segment of a kept feed: about 7,000 variants, some 13 MB of text. */
const PAGE = 1000;
/** Shopping catalogues take large pictures (Merchant Center: at least 800 px for apparel is best). */
const FEED_IMAGE_WIDTH = 1280;
/**
 * How long a request waits for a refresh under way before it takes the last copy: a segment of a
 * thousand products is read again well within it on an idle machine, and the answer stays under a
 * second when it is not.
 */
export const FRESH_WAIT_MS = 600;

export const FEED_TYPES: Record<FeedFormat, string> = {
  google: 'application/xml; charset=utf-8',
  meta: 'text/csv; charset=utf-8',
};

/** A page of products' items: the products with ids in (after, last]; the last segment's `last` is null (to the end). */
interface BodySegment extends GzipSegment {
  after: number;
  last: number | null;
}

/** What is answered: a finished feed, gzipped. */
interface FeedCopy {
  gzip: Buffer;
  etag: string;
  builtAt: Date;
}

/** A feed read by this process, in segments that can be read again one by one. */
interface FeedEntry {
  head: GzipSegment;
  body: BodySegment[];
  tail: GzipSegment;
  /** Body segments whose products changed since they were read. */
  stale: Set<number>;
  /** Something changed that any item may show (the categories): read it all again. */
  whole: boolean;
}

/** What changed while a feed was being read whole, applied to it once it is finished. */
interface Missed {
  ids: number[];
  whole: boolean;
}

/** Whether an invalidation can change a feed: a product, the listings or the menu (not a shopper's cart count or session). */
function touchesCatalogue(tags: readonly string[] | 'all'): boolean {
  return tags === 'all' || tags.some((t) => t === 'listing' || t === 'nav' || t.startsWith('product:'));
}

export function createFeedService({
  db,
  site,
  keep = true,
  pages = processPageCache(),
  freshWaitMs = FRESH_WAIT_MS,
  onError = () => undefined,
}: {
  db: Db;
  site: string;
  /** false: no copy is kept (a store without a page cache reads the feed for every request). */
  keep?: boolean;
  pages?: PageCacheStore;
  freshWaitMs?: number;
  /** Told of a background read or a write of the copy that failed (the last copy is still answered). */
  onError?: (err: unknown) => void;
}) {
  /** The copy answered, per feed (`google:NG`). */
  const copies = new Map<string, FeedCopy>();
  /** Its segments, once this process has read the feed. */
  const entries = new Map<string, FeedEntry>();
  /** The background work bringing a feed up to date, while it runs. */
  const working = new Map<string, Promise<void>>();
  /** Changes that came while a feed was read whole. */
  const missed = new Map<string, Missed>();
  /** Feeds being read whole: a request does not wait for that (seconds at 50,000 products). */
  const wholeReads = new Set<string>();
  /** The database's copy, read once per feed per process. */
  const loading = new Map<string, Promise<FeedCopy | null>>();

  pages.onInvalidate((tags) => {
    if (!keep || !touchesCatalogue(tags)) return;
    // A product's change (its price, stock, pictures, whether it is sold) carries its tag: only
    // its segment is read again. A change of the categories or a listing without a product named
    // may touch any item: the feed is read again whole.
    const ids = tags === 'all' ? [] : tags.filter((t) => t.startsWith('product:')).map((t) => Number(t.slice('product:'.length)));
    const whole = tags === 'all' || tags.includes('nav') || ids.length === 0;
    for (const key of new Set([...copies.keys(), ...working.keys()])) {
      const entry = entries.get(key);
      if (entry) mark(entry, ids, whole);
      else if (working.has(key)) {
        // Being read whole: what changed is marked once the read is finished.
        const m = missed.get(key) ?? { ids: [], whole: false };
        m.ids.push(...ids);
        m.whole ||= whole;
        missed.set(key, m);
      }
      void kick(key).catch(onError);
    }
  });

  function mark(entry: FeedEntry, ids: readonly number[], whole: boolean): void {
    if (whole) entry.whole = true;
    for (const id of ids) {
      const i = entry.body.findIndex((seg) => id > seg.after && (seg.last === null || id <= seg.last));
      if (i >= 0) entry.stale.add(i);
    }
  }

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

  /**
   * A page of products' items as text. Written a hundred products at a time, handing the event
   * loop back between them: a read in the background never holds up the requests it serves.
   */
  const itemsText = async (format: FeedFormat, market: MarketCode, page: FeedProduct[]): Promise<Buffer> => {
    const shipping = googleShipping(market);
    const parts: string[] = [];
    for (let i = 0; i < page.length; i++) {
      if (i > 0 && i % 100 === 0) await new Promise<void>((r) => setImmediate(r));
      for (const item of feedItems(page[i]!, market, site)) parts.push(format === 'google' ? googleItem(item, shipping) : metaRow(item));
    }
    return Buffer.from(parts.join(''));
  };

  /**
   * Reads the whole feed a page of products at a time (the next page is read while one is
   * written), writing its text to `out` (when given) as it goes, and compresses each page as a
   * segment of its own.
   */
  async function build(format: FeedFormat, market: MarketCode, out?: (chunk: Uint8Array) => Promise<void>): Promise<FeedEntry> {
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
      body.push({ after, last, ...(await piece(await itemsText(format, market, page))) });
      after = last;
    }
    // The last segment runs to the end: products added later fall into it.
    if (body.length) body[body.length - 1]!.last = null;
    else body.push({ after: 0, last: null, ...(await compressSegment(Buffer.alloc(0))) });
    const tail = await piece(Buffer.from(format === 'google' ? GOOGLE_TAIL : ''));
    return { head, body, tail, stale: new Set(), whole: false };
  }

  /** The segments as one gzip file, with its ETag: a hash of the gzipped bytes (the same build compresses the same text alike on every app server). */
  function assemble(entry: FeedEntry): FeedCopy {
    const gzip = joinGzip([entry.head, ...entry.body, entry.tail]);
    return { gzip, etag: `"${createHash('sha1').update(gzip).digest('base64url').slice(0, 22)}"`, builtAt: new Date() };
  }

  /** Reads again the segments whose products changed (those marked while it runs are left for the next round). */
  async function refresh(entry: FeedEntry, format: FeedFormat, market: MarketCode): Promise<void> {
    const todo = [...entry.stale];
    entry.stale.clear();
    await Promise.all(
      todo.map(async (i) => {
        const seg = entry.body[i]!;
        const fresh = await compressSegment(await itemsText(format, market, await readPage(market, seg.after, seg.last)));
        entry.body[i] = { after: seg.after, last: seg.last, ...fresh };
      }),
    );
  }

  /** The database's copy of a feed (read once per process), or null when none was ever finished. */
  function loadCopy(key: string): Promise<FeedCopy | null> {
    let pending = loading.get(key);
    if (!pending) {
      pending = db
        .select()
        .from(feedCopies)
        .where(eq(feedCopies.feed, key))
        .then(([row]) => (row ? { gzip: Buffer.from(row.gzip), etag: row.etag, builtAt: row.builtAt } : null))
        .catch((err: unknown) => {
          onError(err);
          return null;
        });
      loading.set(key, pending);
    }
    return pending;
  }

  /** Keeps a finished copy: answered from now on here, and written for the other app servers and the next start (a newer one is never overwritten). */
  async function publish(key: string, copy: FeedCopy): Promise<void> {
    // The same bytes again (a change that did not touch this market's items): the copy and its date stay.
    if (copies.get(key)?.etag === copy.etag) return;
    copies.set(key, copy);
    await db
      .insert(feedCopies)
      .values({ feed: key, etag: copy.etag, builtAt: copy.builtAt, gzip: copy.gzip })
      .onConflictDoUpdate({ target: feedCopies.feed, set: { etag: copy.etag, builtAt: copy.builtAt, gzip: copy.gzip }, setWhere: lt(feedCopies.builtAt, sql`excluded.built_at`) });
  }

  /**
   * Brings a feed up to date in the background (never twice at once): reads it whole when this
   * process has not read it yet or the categories changed, else the segments marked; again while
   * changes keep coming. The first read of a store that has no copy streams to `out`.
   */
  function kick(key: string, out?: (chunk: Uint8Array) => Promise<void>): Promise<void> {
    const running = working.get(key);
    if (running) return running;
    const [format, market] = key.split(':') as [FeedFormat, MarketCode];
    const work = (async () => {
      for (;;) {
        let entry = entries.get(key);
        if (!entry || entry.whole) {
          missed.delete(key);
          entries.delete(key);
          wholeReads.add(key);
          entry = await build(format, market, out).finally(() => wholeReads.delete(key));
          out = undefined;
          const m = missed.get(key);
          missed.delete(key);
          if (m) mark(entry, m.ids, m.whole);
          entries.set(key, entry);
        } else if (entry.stale.size) {
          await refresh(entry, format, market);
        } else break;
        await publish(key, assemble(entry)).catch(onError);
      }
    })()
      .catch((err: unknown) => {
        // The last copy is still answered; the next change or start reads the feed again.
        entries.delete(key);
        throw err;
      })
      .finally(() => working.delete(key));
    working.set(key, work);
    return work;
  }

  function fromCopy(request: Request, format: FeedFormat, copy: FeedCopy, headOnly: boolean): Response {
    const headers: Record<string, string> = {
      'content-type': FEED_TYPES[format],
      'cache-control': 'no-cache',
      etag: copy.etag,
      'last-modified': copy.builtAt.toUTCString(),
      vary: 'Accept-Encoding',
    };
    if (notModified(request, copy)) return new Response(null, { status: 304, headers });
    if (headOnly) return new Response(null, { status: 200, headers });
    // Catalogue crawlers take gzip; anyone else gets the text unpacked as it is sent.
    if (accepts(request, 'gzip')) return new Response(new Uint8Array(copy.gzip), { status: 200, headers: { ...headers, 'content-encoding': 'gzip', 'content-length': String(copy.gzip.length) } });
    return new Response(Readable.toWeb(Readable.from([copy.gzip]).pipe(createGunzip())) as ReadableStream<Uint8Array>, { status: 200, headers });
  }

  /** A feed read for this request alone (no copy kept): streamed as it is read. */
  function streamed(format: FeedFormat, read: (out: (chunk: Uint8Array) => Promise<void>) => Promise<unknown>): Response {
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
    read(send).then(
      () => !gone && controller.close(),
      (err: unknown) => !gone && controller.error(err),
    );
    return new Response(body, { status: 200, headers: { 'content-type': FEED_TYPES[format], 'cache-control': 'no-cache' } });
  }

  return {
    /**
     * The answer to GET or HEAD of a feed: the last copy (brought up to date first if its changed
     * segments are read within FRESH_WAIT_MS; a read of the whole feed is never waited for). A store that never finished the feed streams its first read
     * to an unconditional GET; a conditional one or a HEAD waits for it (it needs the ETag).
     */
    async respond(request: Request, format: FeedFormat, market: MarketCode): Promise<Response> {
      const key = `${format}:${market}`;
      const headOnly = request.method === 'HEAD';
      if (!keep) {
        if (headOnly || request.headers.has('if-none-match') || request.headers.has('if-modified-since')) return fromCopy(request, format, assemble(await build(format, market)), headOnly);
        return streamed(format, (out) => build(format, market, out));
      }
      let copy = copies.get(key);
      if (!copy) {
        const saved = await loadCopy(key);
        // Another request may have finished a read meanwhile.
        copy = copies.get(key);
        if (!copy && saved) copies.set(key, (copy = saved));
      }
      if (!copy) {
        if (working.has(key) || headOnly || request.headers.has('if-none-match') || request.headers.has('if-modified-since')) {
          await kick(key);
          return fromCopy(request, format, copies.get(key)!, headOnly);
        }
        return streamed(format, (out) => kick(key, out));
      }
      // A copy from the database: this process reads the feed again behind it.
      const entry = entries.get(key);
      if (!entry || entry.whole || entry.stale.size) void kick(key).catch(onError);
      const running = working.get(key);
      if (running && freshWaitMs > 0 && !wholeReads.has(key)) await Promise.race([running.catch(() => undefined), sleep(freshWaitMs)]);
      return fromCopy(request, format, copies.get(key) ?? copy, headOnly);
    },
    /** Resolves once no feed is being brought up to date (scripts and tests). */
    async settled(): Promise<void> {
      while (working.size) await Promise.allSettled([...working.values()]);
    },
  };
}
/** Whether the client holds this copy: If-None-Match names its ETag, or (without one) If-Modified-Since is not before it was built. */
function notModified(request: Request, copy: FeedCopy): boolean {
  if (request.headers.has('if-none-match')) return matchesEtag(request, copy.etag);
  const since = Date.parse(request.headers.get('if-modified-since') ?? '');
  return Number.isFinite(since) && Math.floor(copy.builtAt.getTime() / 1000) * 1000 <= since;
}
export type FeedService = ReturnType<typeof createFeedService>;

/** `google-NG.xml` -> the Google feed of Nigeria; null for any other name. */
export function parseFeedFile(file: string | undefined): { format: FeedFormat; market: MarketCode } | null {
  const m = /^(google|meta)-([A-Z]{2})\.(xml|csv)$/.exec(file ?? '');
  const market = m && parseMarket(m[2]);
  if (!m || !market || (m[1] === 'google') !== (m[3] === 'xml')) return null;
  return { format: m[1] as FeedFormat, market };
}
