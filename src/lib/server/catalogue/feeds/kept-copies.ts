import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '@/lib/server/infra/db/client';
import { feedCopies, feedPieces } from '@/lib/server/catalogue/tables';
import { GZIP_HEADER, gzipEnd } from '@/lib/server/storefront/gzip-segments';
import type { BodyPiece, FeedCopy, FeedMemory, Piece, SavedPiece } from './types';

/** Segments fetched from the database per round trip while a copy is streamed (some 200 KB each at 50,000 products). */
const PIECES_PER_FETCH = 8;
/** A segment no copy names any more is removed this long after it was last written (a stream that began on an older copy may still read it). */
const PIECE_GRACE = '1 hour';

/**
 * The finished copies kept in the database, for the other app servers and the next start: the one
 * writer of `feed_copies` (a copy's layout) and `feed_pieces` (its segments' bytes). A copy is
 * streamed from here, its segments fetched a few at a time and kept in memory once read.
 */
export function createKeptCopies({ db, memory, stampOf, onError }: { db: Db; memory: FeedMemory; stampOf: (key: string) => string; onError: (err: unknown) => void }) {
  const { copies, entries, working } = memory;
  /** The database's copy, read once per feed per process. */
  const loading = new Map<string, Promise<FeedCopy | null>>();

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

  return { loadCopy, gzipOf, publish };
}
