import type { Logger } from '../infra/log';
import { processPageCache, type PageCacheInvalidator, type PageCacheStore } from './page-cache';

/**
 * Route cache invalidation across app servers: each server drops the tagged pages from its own
 * store and tells the others with PostgreSQL NOTIFY on one channel; each server LISTENs on it.
 * Embedded PGlite is one process, so there the local store is all there is.
 */
export const CACHE_CHANNEL = 'page_cache_invalidate';

export interface CacheBus extends PageCacheInvalidator {
  close(): Promise<void>;
}

/** NOTIFY payloads are limited to 8000 bytes; a long tag list is sent in pieces. */
function chunkTags(tags: readonly string[], maxBytes = 7000): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const tag of tags) {
    if (size + tag.length + 4 > maxBytes && current.length) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(tag);
    size += tag.length + 4;
  }
  if (current.length) chunks.push(current);
  return chunks;
}

export function localCacheBus(store: PageCacheStore = processPageCache()): CacheBus {
  return {
    async invalidate(tags) {
      if (tags.length) store.invalidateTags(tags);
    },
    async close() {},
  };
}

interface PgClient {
  connect(): Promise<unknown>;
  query(text: string, values?: unknown[]): Promise<unknown>;
  on(event: 'notification', fn: (msg: { channel: string; payload?: string }) => void): unknown;
  on(event: 'error', fn: (err: Error) => void): unknown;
  end(): Promise<void>;
}

/**
 * The PostgreSQL bus. The listening connection reconnects with back-off after a failure, and
 * clears the local store when it comes back, since notifications sent meanwhile are lost.
 */
export async function pgCacheBus(opts: {
  databaseUrl: string;
  log: Logger;
  store?: PageCacheStore;
  /** Sends NOTIFY; by default on the listening connection. */
  notify?: (channel: string, payload: string) => Promise<void>;
}): Promise<CacheBus> {
  const store = opts.store ?? processPageCache();
  const { default: pg } = await import('pg');
  let client: PgClient | null = null;
  let closed = false;
  let retryMs = 250;

  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: opts.databaseUrl }) as unknown as PgClient;
    c.on('error', (err) => {
      opts.log.warn('cache bus connection lost', { err: err.message });
      if (client === c) client = null;
      void c.end().catch(() => undefined);
      scheduleReconnect();
    });
    c.on('notification', (msg) => {
      if (msg.channel !== CACHE_CHANNEL || !msg.payload) return;
      try {
        const tags = JSON.parse(msg.payload) as unknown;
        if (Array.isArray(tags)) store.invalidateTags(tags.filter((t): t is string => typeof t === 'string'));
      } catch {
        opts.log.warn('cache bus: unreadable notification');
      }
    });
    await c.connect();
    await c.query(`LISTEN ${CACHE_CHANNEL}`);
    client = c;
    retryMs = 250;
  };

  let reconnecting = false;
  const scheduleReconnect = () => {
    if (closed || reconnecting) return;
    reconnecting = true;
    const attempt = () => {
      if (closed) return;
      connect()
        .then(() => {
          reconnecting = false;
          store.clear();
          opts.log.info('cache bus reconnected');
        })
        .catch(() => {
          retryMs = Math.min(retryMs * 2, 5000);
          setTimeout(attempt, retryMs).unref();
        });
    };
    setTimeout(attempt, retryMs).unref();
  };

  await connect();

  const notify =
    opts.notify ??
    (async (channel: string, payload: string) => {
      if (!client) throw new Error('cache bus is not connected');
      await client.query('select pg_notify($1, $2)', [channel, payload]);
    });

  return {
    async invalidate(tags) {
      if (!tags.length) return;
      store.invalidateTags(tags);
      for (const chunk of chunkTags(tags)) {
        try {
          await notify(CACHE_CHANNEL, JSON.stringify(chunk));
        } catch (err) {
          // The change itself is saved; other servers' pages refresh within PAGE_CACHE_SECONDS.
          opts.log.warn('cache invalidation not broadcast', { err: (err as Error).message });
        }
      }
    },
    async close() {
      closed = true;
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}
