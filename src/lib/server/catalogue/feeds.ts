/**
 * The shopping feeds (/feeds/google-NG.xml, /feeds/meta-ZA.csv, …): every variant sold in a market,
 * read a thousand products at a time.
 *
 * A request never waits for the catalogue to be read: it is answered from the last finished copy
 * of the feed, gzipped, with its ETag (a hash of the gzip segments' hashes: the same build gzips
 * the same text alike on every app server) and Last-Modified, and a 304 to a client that holds it.
 * The copy is kept in memory and in the database: its layout in `feed_copies` (the segments in
 * order, each a range of products with a fingerprint of what it read) and its segments' bytes in
 * `feed_pieces`. An app server that starts reads the layout alone (a few KB) and streams the
 * segments to the first request straight from the database, keeping them as they come; behind it,
 * it fingerprints each range again and reads again only those that changed while no server
 * listened, so a start never reads a feed whose kept copy is still current.
 *
 * The copy follows the catalogue pages' invalidations, on every app server through the cache bus,
 * and is brought up to date in the background as soon as one arrives: a product's change marks
 * the segment of a thousand products it falls in (./infra/gzip-segments.ts), which is read again; a
 * change of the categories reads the feed again whole. A request that comes while the copy is
 * being brought up to date waits for it FRESH_WAIT_MS at most (never for a read of the whole feed
 * nor for the fingerprints after a start), then takes the last copy: a price change reaches the
 * next fetch of the feed as it reaches the next view of the page when its segment is read within
 * that time, and at worst one refresh later (ADR 0031, 0044). Only a store that has never finished
 * a feed streams its first build to the first request as it is read.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { createGunzip } from 'node:zlib';
import { aliasedTable, and, asc, eq, gt, inArray, lt, lte, sql } from 'drizzle-orm';
import { feedItems, googleHead, googleItem, googleShipping, GOOGLE_TAIL, META_HEAD, metaRow, type FeedFormat, type FeedProduct } from '@/lib/domain/feeds';
import { imageUrl } from '@/lib/domain/images';
import { parseMarket, type MarketCode } from '@/lib/domain/markets';
import { toMajor } from '@/lib/domain/money';
import type { Db } from '@/lib/server/infra/db/client';
import { categories, colors, feedCopies, feedPieces, productFromPrices, productImages, products, sizes, variantPrices, variants } from '@/lib/server/infra/db/schema';
import { compressSegment, GZIP_HEADER, gzipEnd, type GzipSegment } from '@/lib/server/infra/gzip-segments';
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
/** Segments fetched from the database per round trip while a copy is streamed (some 200 KB each at 50,000 products). */
const PIECES_PER_FETCH = 8;
/**
 * How long after a start's first request the kept copy's ranges are fingerprinted: the pass reads
 * the market's whole catalogue in the database (seconds at 50,000 products), and the first answers,
 * streamed from the same database, should not share the machine with it.
 */
export const CHECK_DELAY_MS = 3000;
/** A segment no copy names any more is removed this long after it was last written (a stream that began on an older copy may still read it). */
const PIECE_GRACE = '1 hour';
/**
 * Raise when what a range of products reads, or how a feed's text is put together, changes in a
 * way the rendered sample below does not show: a kept copy of another version is read again whole.
 */
const READ_VERSION = 1;

/** The fingerprint of a range with no product: md5 of nothing. */
const EMPTY_FP = createHash('md5').update('').digest('hex');

export const FEED_TYPES: Record<FeedFormat, string> = {
  google: 'application/xml; charset=utf-8',
  meta: 'text/csv; charset=utf-8',
};

/** A gzip segment of a copy, named by the hash of its bytes; the bytes are in memory once read or written here, else in `feed_pieces`. */
interface Piece {
  hash: string;
  crc: number;
  /** Bytes of text it holds. */
  size: number;
  /** Bytes of deflate. */
  length: number;
  deflate?: Buffer;
  /** Whether `feed_pieces` holds it. */
  saved?: boolean;
}

/** A page of products' items: the products with ids in (after, last]; the last segment's `last` is null (to the end). */
interface BodyPiece extends Piece {
  after: number;
  last: number | null;
  /** A hash of everything the range read (products.ts order aside), taken before it was read. */
  fp: string;
}

/** What is answered: a finished feed, as its segments in order. */
interface FeedCopy {
  etag: string;
  builtAt: Date;
  pieces: readonly Piece[];
}

/** A feed's segments, that can be read again one by one. */
interface FeedEntry {
  head: Piece;
  body: BodyPiece[];
  tail: Piece;
  /** Body segments whose products changed since they were read. */
  stale: Set<number>;
  /** Something changed that any item may show (the categories): read it all again. */
  whole: boolean;
  /** Taken from the database at a start: each range's fingerprint is to be compared with the catalogue's. */
  unverified: boolean;
}

/** What changed while a feed was being read whole, applied to it once it is finished. */
interface Missed {
  ids: number[];
  whole: boolean;
}

/** A copy's layout as `feed_copies.pieces` keeps it. */
type SavedPiece = Omit<Piece, 'deflate' | 'saved'> & Partial<Pick<BodyPiece, 'after' | 'last' | 'fp'>>;

/** Whether an invalidation can change a feed: a product, the listings or the menu (not a shopper's cart count or session). */
function touchesCatalogue(tags: readonly string[] | 'all'): boolean {
  return tags === 'all' || tags.some((t) => t === 'listing' || t === 'nav' || t.startsWith('product:'));
}

const hashOf = (bytes: Buffer | string) => createHash('sha1').update(bytes).digest('base64url').slice(0, 22);

async function compressPiece(text: Buffer): Promise<Piece> {
  const seg: GzipSegment = await compressSegment(text);
  return { hash: hashOf(seg.deflate), crc: seg.crc, size: seg.size, length: seg.deflate.length, deflate: seg.deflate };
}

/**
 * A stamp of how this build writes a feed: its head and tail and a sample product's items, with
 * the site. A kept copy with another stamp (a deploy that writes items otherwise) is read again whole.
 */
function formatStamp(format: FeedFormat, market: MarketCode, site: string): string {
  const sample: FeedProduct = {
    id: 1,
    name: 'Sample, "quoted" & <marked>',
    description: 'A sample\nover two lines',
    categoryNames: ['Women', 'Dresses'],
    categorySlugs: ['women', 'dresses'],
    images: [
      { url: new URL(imageUrl('0'.repeat(64), FEED_IMAGE_WIDTH), site).toString(), color: 'Black' },
      { url: new URL(imageUrl('f'.repeat(64), FEED_IMAGE_WIDTH), site).toString(), color: null },
    ],
    variants: [
      { id: 1, sku: null, size: 'M', color: 'Black', stock: 2, price: 1250 },
      { id: 2, sku: 'SKU-2', size: 'EU 38', color: null, stock: 0, price: 99.5 },
    ],
  };
  const items = feedItems(sample, market, site).map((i) => (format === 'google' ? googleItem(i, googleShipping(market)) : metaRow(i)));
  const head = format === 'google' ? googleHead(market, site) : META_HEAD;
  return hashOf([READ_VERSION, PAGE, site, head, ...items, format === 'google' ? GOOGLE_TAIL : ''].join('\u0000'));
}

export function createFeedService({
  db,
  site,
  keep = true,
  pages = processPageCache(),
  freshWaitMs = FRESH_WAIT_MS,
  checkDelayMs = CHECK_DELAY_MS,
  onError = () => undefined,
  onRead = () => undefined,
}: {
  db: Db;
  site: string;
  /** false: no copy is kept (a store without a page cache reads the feed for every request). */
  keep?: boolean;
  pages?: PageCacheStore;
  freshWaitMs?: number;
  checkDelayMs?: number;
  /** Told of a background read or a write of the copy that failed (the last copy is still answered). */
  onError?: (err: unknown) => void;
  /** Told of each read of a feed: whole, or the segments read again (tests count them). */
  onRead?: (feed: string, what: { whole: true } | { segments: number }) => void;
}) {
  /** The copy answered, per feed (`google:NG`). */
  const copies = new Map<string, FeedCopy>();
  /** Its segments, once this process has read the feed or its layout. */
  const entries = new Map<string, FeedEntry>();
  /** The background work bringing a feed up to date, while it runs. */
  const working = new Map<string, Promise<void>>();
  /** Changes that came while a feed was read whole. */
  const missed = new Map<string, Missed>();
  /** Feeds being read whole, or fingerprinted after a start: a request does not wait for that (seconds at 50,000 products). */
  const unwaited = new Set<string>();
  /** The database's copy, read once per feed per process. */
  const loading = new Map<string, Promise<FeedCopy | null>>();
  /** Fingerprint passes under way, shared by both feeds of a market. */
  const passes = new Map<string, Promise<string[]>>();
  const stamps = new Map<string, string>();
  const stampOf = (key: string) => {
    let stamp = stamps.get(key);
    if (!stamp) {
      const [format, market] = key.split(':') as [FeedFormat, MarketCode];
      stamps.set(key, (stamp = formatStamp(format, market, site)));
    }
    return stamp;
  };

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
   * A hash of everything the feed shows of the products sold in the market with ids after
   * `afterId` (up to `lastId`; null: to the end; undefined: the next PAGE of them), and the last
   * id among them. Taken before the range is read, so a change that lands in between makes the
   * next start read the range again rather than keep it.
   */
  async function fingerprint(market: MarketCode, afterId: number, lastId?: number | null): Promise<{ fp: string; last: number | null; count: number }> {
    const res = await db.execute(sql`
      with p as (
        select p.id, row(p.id, p.name, p.description, c.name, c.slug, pa.name, pa.slug)::text as facts
        from ${products} p
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
  async function build(key: string, format: FeedFormat, market: MarketCode, out?: (chunk: Uint8Array) => Promise<void>): Promise<FeedEntry> {
    onRead(key, { whole: true });
    const piece = async (text: Buffer) => {
      await out?.(text);
      return compressPiece(text);
    };
    const head = await piece(Buffer.from(format === 'google' ? googleHead(market, site) : META_HEAD));
    const body: BodyPiece[] = [];
    let after = 0;
    let next = readRange(market, 0);
    for (;;) {
      const range = await next;
      if (!range) break;
      next = readRange(market, range.last!);
      body.push({ after, last: range.last, fp: range.fp, ...(await piece(await itemsText(format, market, range.page))) });
      after = range.last!;
    }
    // The last segment runs to the end: products added later fall into it. Its fingerprint is
    // that of the products to the end, as the last page was (the next page was empty).
    if (body.length) body[body.length - 1]!.last = null;
    else body.push({ after: 0, last: null, fp: keep ? (await fingerprint(market, 0, null)).fp : '', ...(await compressPiece(Buffer.alloc(0))) });
    const tail = await piece(Buffer.from(format === 'google' ? GOOGLE_TAIL : ''));
    return { head, body, tail, stale: new Set(), whole: false, unverified: false };
  }

  /** The segments as a copy, with its ETag: a hash of the segments' hashes (the same build compresses the same text alike on every app server). */
  function assemble(entry: FeedEntry): FeedCopy {
    const pieces = [entry.head, ...entry.body, entry.tail];
    return { pieces, etag: `"${hashOf(pieces.map((p) => p.hash).join(','))}"`, builtAt: new Date() };
  }

  /** Reads again the segments whose products changed (those marked while it runs are left for the next round). */
  async function refresh(key: string, entry: FeedEntry, format: FeedFormat, market: MarketCode): Promise<void> {
    const todo = [...entry.stale];
    entry.stale.clear();
    onRead(key, { segments: todo.length });
    await Promise.all(
      todo.map(async (i) => {
        const seg = entry.body[i]!;
        const range = (await readRange(market, seg.after, seg.last))!;
        entry.body[i] = { after: seg.after, last: seg.last, fp: range.fp, ...(await compressPiece(await itemsText(format, market, range.page))) };
      }),
    );
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
            )}]::int[]) as b, row(p.id, p.name, p.description, c.name, c.slug, pa.name, pa.slug)::text as facts
            from ${products} p
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

  /** After a start: marks the ranges whose products changed since the kept copy read them (a change made while no app server listened). */
  async function verify(entry: FeedEntry, market: MarketCode): Promise<void> {
    entry.unverified = false;
    const now = await fingerprints(
      market,
      entry.body.map((seg) => seg.after + 1),
    );
    for (const [i, seg] of entry.body.entries()) if (now[i] !== seg.fp) entry.stale.add(i);
  }

  /**
   * The database's copy of a feed (read once per process), or null when none was ever finished:
   * its layout alone; the segments' bytes are read when a request streams them. A copy written
   * the way this build writes its feed is taken as this process's reading of the feed, to be
   * checked range by range; another is read again whole behind it.
   */
  function loadCopy(key: string): Promise<FeedCopy | null> {
    let pending = loading.get(key);
    if (!pending) {
      pending = db
        .select({ etag: feedCopies.etag, builtAt: feedCopies.builtAt, format: feedCopies.format, pieces: feedCopies.pieces })
        .from(feedCopies)
        .where(eq(feedCopies.feed, key))
        .then(([row]) => {
          if (!row) return null;
          const saved = (row.pieces as SavedPiece[]).map((p): Piece => ({ ...p, saved: true }));
          const copy: FeedCopy = { etag: row.etag, builtAt: row.builtAt, pieces: saved };
          if (!entries.has(key) && !working.has(key) && saved.length >= 3) {
            entries.set(key, {
              head: saved[0]!,
              body: saved.slice(1, -1) as BodyPiece[],
              tail: saved[saved.length - 1]!,
              stale: new Set(),
              whole: row.format !== stampOf(key),
              unverified: true,
            });
          }
          return copy;
        })
        .catch((err: unknown) => {
          onError(err);
          loading.delete(key);
          return null;
        });
      loading.set(key, pending);
    }
    return pending;
  }

  /** Forgets a copy whose segments the database no longer has (another app server's newer copy replaced it long ago): the next request reads the database's again. */
  function forget(key: string): void {
    copies.delete(key);
    loading.delete(key);
    if (!working.has(key)) entries.delete(key);
  }

  /** The bytes of these pieces, from memory or the database (kept in memory once read). */
  async function pieceBytes(key: string, pieces: readonly Piece[]): Promise<Buffer[]> {
    const wanted = pieces.filter((p) => !p.deflate).map((p) => p.hash);
    if (wanted.length) {
      const rows = await db.select({ hash: feedPieces.hash, deflate: feedPieces.deflate }).from(feedPieces).where(and(eq(feedPieces.feed, key), inArray(feedPieces.hash, wanted)));
      const byHash = new Map(rows.map((r) => [r.hash, Buffer.from(r.deflate)]));
      for (const p of pieces) {
        if (p.deflate) continue;
        const bytes = byHash.get(p.hash);
        if (!bytes) {
          forget(key);
          throw new Error(`feed ${key}: segment ${p.hash} is no longer kept`);
        }
        p.deflate = bytes;
      }
    }
    return pieces.map((p) => p.deflate!);
  }

  /** A copy's gzip bytes as they are read: the header, the segments a few at a time (the next few fetched while these are sent), the end. */
  async function* gzipOf(key: string, copy: FeedCopy): AsyncGenerator<Buffer> {
    yield GZIP_HEADER;
    const batches: (readonly Piece[])[] = [];
    for (let i = 0; i < copy.pieces.length; i += PIECES_PER_FETCH) batches.push(copy.pieces.slice(i, i + PIECES_PER_FETCH));
    let next = batches.length ? pieceBytes(key, batches[0]!) : null;
    for (let b = 0; next; b++) {
      const bytes = await next;
      next = b + 1 < batches.length ? pieceBytes(key, batches[b + 1]!) : null;
      // A failed prefetch is thrown when it is awaited; until then it must not count as unhandled.
      next?.catch(() => undefined);
      yield* bytes;
    }
    yield gzipEnd(copy.pieces);
  }

  /** Keeps a finished copy: answered from now on here, and written for the other app servers and the next start (a newer one is never overwritten). */
  async function publish(key: string, copy: FeedCopy): Promise<void> {
    // The same bytes again (a change that did not touch this market's items): the copy and its date stay.
    if (copies.get(key)?.etag === copy.etag) return;
    copies.set(key, copy);
    const fresh = copy.pieces.filter((p) => !p.saved);
    const kept = copy.pieces.filter((p) => p.saved).map((p) => p.hash);
    // Segments this copy shares with older ones are marked as used now, so that no app server removes them meanwhile.
    if (kept.length) await db.update(feedPieces).set({ createdAt: sql`now()` }).where(and(eq(feedPieces.feed, key), inArray(feedPieces.hash, kept)));
    for (let i = 0; i < fresh.length; i += PIECES_PER_FETCH) {
      const batch = fresh.slice(i, i + PIECES_PER_FETCH);
      await db
        .insert(feedPieces)
        .values(batch.map((p) => ({ feed: key, hash: p.hash, deflate: p.deflate! })))
        .onConflictDoUpdate({ target: [feedPieces.feed, feedPieces.hash], set: { createdAt: sql`now()` } });
      for (const p of batch) p.saved = true;
    }
    const layout: SavedPiece[] = copy.pieces.map(({ deflate: _bytes, saved: _saved, ...p }) => p);
    await db
      .insert(feedCopies)
      .values({ feed: key, etag: copy.etag, builtAt: copy.builtAt, format: stampOf(key), pieces: layout })
      .onConflictDoUpdate({
        target: feedCopies.feed,
        set: { etag: copy.etag, builtAt: copy.builtAt, format: stampOf(key), pieces: layout },
        setWhere: lt(feedCopies.builtAt, sql`excluded.built_at`),
      });
    await db
      .delete(feedPieces)
      .where(
        and(
          eq(feedPieces.feed, key),
          lt(feedPieces.createdAt, sql`now() - ${PIECE_GRACE}::interval`),
          sql`${feedPieces.hash} not in (select jsonb_array_elements(${feedCopies.pieces})->>'hash' from ${feedCopies} where ${feedCopies.feed} = ${key})`,
        ),
      );
  }

  /**
   * Brings a feed up to date in the background (never twice at once): reads it whole when this
   * process has not read it yet or the categories changed, fingerprints its ranges when it was
   * taken from the database at a start, else reads the segments marked; again while changes keep
   * coming. The first read of a store that has no copy streams to `out`.
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
          unwaited.add(key);
          entry = await build(key, format, market, out).finally(() => unwaited.delete(key));
          out = undefined;
          const m = missed.get(key);
          missed.delete(key);
          if (m) mark(entry, m.ids, m.whole);
          entries.set(key, entry);
        } else if (entry.unverified) {
          unwaited.add(key);
          const kept = entry;
          await sleep(checkDelayMs)
            .then(() => verify(kept, market))
            .finally(() => unwaited.delete(key));
          continue;
        } else if (entry.stale.size) {
          await refresh(key, entry, format, market);
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

  function fromCopy(request: Request, key: string, format: FeedFormat, copy: FeedCopy, headOnly: boolean): Response {
    const headers: Record<string, string> = {
      'content-type': FEED_TYPES[format],
      'cache-control': 'no-cache',
      etag: copy.etag,
      'last-modified': copy.builtAt.toUTCString(),
      vary: 'Accept-Encoding',
    };
    if (notModified(request, copy)) return new Response(null, { status: 304, headers });
    if (headOnly) return new Response(null, { status: 200, headers });
    const gzip = Readable.from(gzipOf(key, copy), { objectMode: false });
    // Catalogue crawlers take gzip; anyone else gets the text unpacked as it is sent.
    if (accepts(request, 'gzip')) {
      const length = GZIP_HEADER.length + copy.pieces.reduce((n, p) => n + p.length, 0) + 10;
      return new Response(Readable.toWeb(gzip) as ReadableStream<Uint8Array>, { status: 200, headers: { ...headers, 'content-encoding': 'gzip', 'content-length': String(length) } });
    }
    return new Response(Readable.toWeb(gzip.pipe(createGunzip())) as ReadableStream<Uint8Array>, { status: 200, headers });
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
     * segments are read within FRESH_WAIT_MS; a read of the whole feed, or the check of a copy
     * after a start, is never waited for). A store that never finished the feed streams its first read
     * to an unconditional GET; a conditional one or a HEAD waits for it (it needs the ETag).
     */
    async respond(request: Request, format: FeedFormat, market: MarketCode): Promise<Response> {
      const key = `${format}:${market}`;
      const headOnly = request.method === 'HEAD';
      if (!keep) {
        if (headOnly || request.headers.has('if-none-match') || request.headers.has('if-modified-since')) return fromCopy(request, key, format, assemble(await build(key, format, market)), headOnly);
        return streamed(format, (out) => build(key, format, market, out));
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
          return fromCopy(request, key, format, copies.get(key)!, headOnly);
        }
        return streamed(format, (out) => kick(key, out));
      }
      // A copy from the database: this process checks it behind (reads again the ranges that
      // changed, or the whole feed when it was written otherwise).
      const entry = entries.get(key);
      if (!entry || entry.whole || entry.unverified || entry.stale.size) void kick(key).catch(onError);
      const running = working.get(key);
      if (running && freshWaitMs > 0 && !unwaited.has(key)) await Promise.race([running.catch(() => undefined), sleep(freshWaitMs)]);
      return fromCopy(request, key, format, copies.get(key) ?? copy, headOnly);
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
