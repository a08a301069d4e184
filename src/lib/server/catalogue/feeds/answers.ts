import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { FeedFormat } from '@/lib/domain/feeds';
import { parseMarket, type MarketCode } from '@/lib/domain/markets';
import { accepts, matchesEtag } from '@/lib/server/storefront/page-cache';
import { GZIP_HEADER } from '@/lib/server/storefront/gzip-segments';
import type { FeedCopy } from './types';

/** A feed's HTTP answers: a kept copy (gzipped, or unpacked as it is sent; 304 to a client that holds it), or a read streamed as it goes. */

export const FEED_TYPES: Record<FeedFormat, string> = {
  google: 'application/xml; charset=utf-8',
  meta: 'text/csv; charset=utf-8',
};

/** A copy as the answer to GET or HEAD; `gzip` gives its bytes, read only for a body. */
export function fromCopy(request: Request, format: FeedFormat, copy: FeedCopy, headOnly: boolean, gzip: () => AsyncIterable<Buffer>): Response {
  const headers: Record<string, string> = {
    'content-type': FEED_TYPES[format],
    'cache-control': 'no-cache',
    etag: copy.etag,
    'last-modified': copy.builtAt.toUTCString(),
    vary: 'Accept-Encoding',
  };
  if (notModified(request, copy)) return new Response(null, { status: 304, headers });
  if (headOnly) return new Response(null, { status: 200, headers });
  const bytes = Readable.from(gzip(), { objectMode: false });
  // Catalogue crawlers take gzip; anyone else gets the text unpacked as it is sent.
  if (accepts(request, 'gzip')) {
    const length = GZIP_HEADER.length + copy.pieces.reduce((n, p) => n + p.length, 0) + 10;
    return new Response(Readable.toWeb(bytes) as ReadableStream<Uint8Array>, { status: 200, headers: { ...headers, 'content-encoding': 'gzip', 'content-length': String(length) } });
  }
  return new Response(Readable.toWeb(bytes.pipe(createGunzip())) as ReadableStream<Uint8Array>, { status: 200, headers });
}

/** A feed read for this request alone (no copy kept): streamed as it is read. */
export function streamed(format: FeedFormat, read: (out: (chunk: Uint8Array) => Promise<void>) => Promise<unknown>): Response {
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

/** Whether the client holds this copy: If-None-Match names its ETag, or (without one) If-Modified-Since is not before it was built. */
function notModified(request: Request, copy: FeedCopy): boolean {
  if (request.headers.has('if-none-match')) return matchesEtag(request, copy.etag);
  const since = Date.parse(request.headers.get('if-modified-since') ?? '');
  return Number.isFinite(since) && Math.floor(copy.builtAt.getTime() / 1000) * 1000 <= since;
}

/** `google-NG.xml` -> the Google feed of Nigeria; null for any other name. */
export function parseFeedFile(file: string | undefined): { format: FeedFormat; market: MarketCode } | null {
  const m = /^(google|meta)-([A-Z]{2})\.(xml|csv)$/.exec(file ?? '');
  const market = m && parseMarket(m[2]);
  if (!m || !market || (m[1] === 'google') !== (m[3] === 'xml')) return null;
  return { format: m[1] as FeedFormat, market };
}
