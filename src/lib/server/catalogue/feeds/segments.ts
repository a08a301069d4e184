import { createHash } from 'node:crypto';
import { feedItems, googleHead, googleItem, googleShipping, GOOGLE_TAIL, type FeedFormat, type FeedProduct } from '@/lib/domain/feeds';
import { imageUrl } from '@/lib/domain/images';
import type { MarketCode } from '@/lib/domain/markets';
import { compressSegment, type GzipSegment } from '@/lib/server/storefront/gzip-segments';
import { META_HEAD, metaRow } from './meta-csv';
import { FEED_IMAGE_WIDTH, PAGE, type RangeReading } from './ranges';
import type { BodyPiece, FeedCopy, FeedEntry, Piece } from './types';

/**
 * Raise when what a range of products reads, or how a feed's text is put together, changes in a
 * way the rendered sample below does not show: a kept copy of another version is read again whole.
 */
const READ_VERSION = 2;

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
    brand: 'Sample & House',
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

/** Marks the segments the products `ids` fall in to be read again, or the whole feed. */
export function mark(entry: FeedEntry, ids: readonly number[], whole: boolean): void {
  if (whole) entry.whole = true;
  for (const id of ids) {
    const i = entry.body.findIndex((seg) => id > seg.after && (seg.last === null || id <= seg.last));
    if (i >= 0) entry.stale.add(i);
  }
}

/** The segments as a copy, with its ETag: a hash of the segments' hashes (the same build compresses the same text alike on every app server). */
export function assemble(entry: FeedEntry): FeedCopy {
  const pieces = [entry.head, ...entry.body, entry.tail];
  return { pieces, etag: `"${hashOf(pieces.map((p) => p.hash).join(','))}"`, builtAt: new Date() };
}

/**
 * A feed's text, written as gzip segments: the whole feed a page of products at a time, or again
 * the segments whose products changed; `stampOf` names how this build writes a feed.
 */
export function createSegmentWriting({ ranges, site, keep, onRead }: { ranges: RangeReading; site: string; keep: boolean; onRead: (feed: string, what: { whole: true } | { segments: number }) => void }) {
  const { fingerprint, readRange, fingerprints } = ranges;
  const stamps = new Map<string, string>();
  const stampOf = (key: string) => {
    let stamp = stamps.get(key);
    if (!stamp) {
      const [format, market] = key.split(':') as [FeedFormat, MarketCode];
      stamps.set(key, (stamp = formatStamp(format, market, site)));
    }
    return stamp;
  };

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

  /** After a start: marks the ranges whose products changed since the kept copy read them (a change made while no app server listened). */
  async function verify(entry: FeedEntry, market: MarketCode): Promise<void> {
    entry.unverified = false;
    const now = await fingerprints(
      market,
      entry.body.map((seg) => seg.after + 1),
    );
    for (const [i, seg] of entry.body.entries()) if (now[i] !== seg.fp) entry.stale.add(i);
  }

  return { stampOf, build, refresh, verify };
}
