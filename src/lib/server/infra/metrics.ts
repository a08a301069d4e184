import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * What operators scrape at /metrics, in Prometheus's format through prom-client: one
 * registry per process (each app server is scraped on its own). Requests are observed by the HTTP
 * server (src/server/server.ts), so cached pages and static files count too; the rest is read when
 * scraped (src/pages/metrics.ts). Kept on globalThis: the HTTP server and the rendered routes are
 * built into separate chunks, and they must share one registry.
 */
function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    requests: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer a request, by route, method and status.',
      labelNames: ['route', 'method', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    routeCache: new Counter({
      name: 'route_cache_requests_total',
      help: 'Anonymous catalogue pages answered from the route cache (hit, stale) or rendered for it (miss).',
      labelNames: ['result'] as const,
      registers: [registry],
    }),
    routeCacheStored: new Gauge({
      name: 'route_cache_stored',
      help: 'What the route cache holds on this server: pages, and their weight in bytes (bounded: page-cache.ts).',
      labelNames: ['measure'] as const,
      registers: [registry],
    }),
    dbPool: new Gauge({
      name: 'db_pool_connections',
      help: 'PostgreSQL pool connections: total, idle, and requests waiting for one (absent on PGlite).',
      labelNames: ['state'] as const,
      registers: [registry],
    }),
    passwordQueue: new Gauge({
      name: 'password_hash_queue_jobs',
      help: 'Password hashing jobs running and waiting (the bounded scrypt queue).',
      labelNames: ['state'] as const,
      registers: [registry],
    }),
    payments: new Gauge({
      name: 'store_payments',
      help: 'Payments by state and provider.',
      labelNames: ['state', 'provider'] as const,
      registers: [registry],
    }),
    backup: new Gauge({
      name: 'store_backup_last',
      help: 'The last scheduled backup, by any app server: when it finished (unix seconds), its size in bytes and how long it took (seconds), for result="success" and result="failure" (size 0).',
      labelNames: ['result', 'measure'] as const,
      registers: [registry],
    }),
    orders: new Gauge({
      name: 'store_orders',
      help: 'Orders by market and status.',
      labelNames: ['market', 'status'] as const,
      registers: [registry],
    }),
  };
}

export type StoreMetrics = ReturnType<typeof createMetrics>;

const KEY = Symbol.for('maison.metrics');

export function metrics(): StoreMetrics {
  const holder = globalThis as { [KEY]?: StoreMetrics };
  return (holder[KEY] ??= createMetrics());
}

const ID_LIKE = /^(\d+|[0-9a-f]{8}-[0-9a-f-]{27}|[0-9a-f]{16,}|ML-[\w-]+|RT-[\w-]+|[A-Za-z0-9_-]*\d[A-Za-z0-9_-]{7,})$/i;

/**
 * A request's route as a label of bounded size: ids, references and hashes become `:id`, at most
 * four segments are kept, static files are grouped, and anything not found is `unmatched`.
 */
export function routeLabel(pathname: string, status: number): string {
  if (status === 404) return 'unmatched';
  if (pathname.startsWith('/_astro/')) return '/_astro/*';
  if (pathname.startsWith('/media/')) return '/media/*';
  const segments = pathname
    .split('/')
    .filter(Boolean)
    .slice(0, 4)
    .map((s) => (ID_LIKE.test(s) ? ':id' : s.length > 40 ? ':long' : s));
  return `/${segments.join('/')}`;
}
