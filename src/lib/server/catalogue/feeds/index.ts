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
 * the segment of a thousand products it falls in (storefront/gzip-segments.ts), which is read again; a
 * change of the categories reads the feed again whole. A request that comes while the copy is
 * being brought up to date waits for it FRESH_WAIT_MS at most (never for a read of the whole feed
 * nor for the fingerprints after a start), then takes the last copy: a price change reaches the
 * next fetch of the feed as it reaches the next view of the page when its segment is read within
 * that time, and at worst one refresh later (ADR 0031, 0044). Only a store that has never finished
 * a feed streams its first build to the first request as it is read.
 *
 * This module keeps that state and runs the work (an invalidation marks, `kick` brings a feed up to
 * date, `respond` answers); the jobs are its neighbours: ranges.ts reads the catalogue and
 * fingerprints ranges, segments.ts writes the feed's text as gzip segments, kept-copies.ts keeps
 * copies in the database (the one writer of `feed_copies` and `feed_pieces`) and streams them,
 * answers.ts turns a copy or a read into HTTP.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FeedFormat } from '@/lib/domain/feeds';
import type { MarketCode } from '@/lib/domain/markets';
import type { Db } from '@/lib/server/infra/db/client';
import { processPageCache, type PageCacheStore } from '@/lib/server/storefront/page-cache';
import { fromCopy as answerFromCopy, streamed } from './answers';
import { createKeptCopies } from './kept-copies';
import { createRangeReading } from './ranges';
import { assemble, createSegmentWriting, mark } from './segments';
import type { FeedCopy, FeedEntry, FeedMemory } from './types';

export { parseFeedFile } from './answers';

/**
 * How long a request waits for a refresh under way before it takes the last copy: a segment of a
 * thousand products is read again well within it on an idle machine, and the answer stays under a
 * second when it is not.
 */
export const FRESH_WAIT_MS = 600;
/**
 * How long after a start's first request the kept copy's ranges are fingerprinted: the pass reads
 * the market's whole catalogue in the database (seconds at 50,000 products), and the first answers,
 * streamed from the same database, should not share the machine with it.
 */
export const CHECK_DELAY_MS = 3000;

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
  const memory: FeedMemory = { copies: new Map<string, FeedCopy>(), entries: new Map<string, FeedEntry>(), working: new Map<string, Promise<void>>() };
  const { copies, entries, working } = memory;
  /** Changes that came while a feed was read whole. */
  const missed = new Map<string, Missed>();
  /** Feeds being read whole, or fingerprinted after a start: a request does not wait for that (seconds at 50,000 products). */
  const unwaited = new Set<string>();
  const ranges = createRangeReading({ db, site, keep });
  const { stampOf, build, refresh, verify } = createSegmentWriting({ ranges, site, keep, onRead });
  const { loadCopy, gzipOf, publish } = createKeptCopies({ db, memory, stampOf, onError });
  const fromCopy = (request: Request, key: string, format: FeedFormat, copy: FeedCopy, headOnly: boolean) => answerFromCopy(request, format, copy, headOnly, () => gzipOf(key, copy));

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
export type FeedService = ReturnType<typeof createFeedService>;
