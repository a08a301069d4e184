import type { APIRoute } from 'astro';
import { addressInList, forwardedByUntrustedProxy } from '@/lib/domain/client-address';
import { passwordQueue } from '@/lib/server/accounts/passwords';
import { processPageCache } from '@/lib/server/storefront/page-cache';
import { lastBackups } from '@/lib/server/operations/backups';
import { metrics } from '@/lib/server/infra/metrics';
import { getRuntime } from '@/lib/server/services';

/**
 * Prometheus's scrape of this app server: only from the addresses in METRICS_ALLOW (the client
 * address as TRUST_PROXY works it out), and never for a request forwarded by a proxy the store does
 * not trust (a proxy on this machine would make every caller look local); anyone else gets a plain 404.
 */
export const GET: APIRoute = async ({ locals, request }) => {
  const { services, database } = await getRuntime();
  if (forwardedByUntrustedProxy(request.headers, services.config.proxyTrust) || !addressInList(services.config.metricsAllow, locals.clientIp)) {
    return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
  }
  const m = metrics();
  // Read now, at the scrape: the pool, the hashing queue, payments per state and orders per market.
  m.dbPool.reset();
  if (database.pool) {
    const { total, idle, waiting } = database.pool;
    m.dbPool.set({ state: 'total' }, total);
    m.dbPool.set({ state: 'idle' }, idle);
    m.dbPool.set({ state: 'waiting' }, waiting);
  }
  m.routeCacheStored.set({ measure: 'pages' }, processPageCache().size);
  m.routeCacheStored.set({ measure: 'bytes' }, processPageCache().bytes);
  m.passwordQueue.set({ state: 'running' }, passwordQueue.running);
  m.passwordQueue.set({ state: 'waiting' }, passwordQueue.waiting);
  const counts = await services.adminReports.storeCounts();
  m.payments.reset();
  for (const r of counts.payments) m.payments.set({ state: r.state, provider: r.provider }, r.n);
  m.orders.reset();
  for (const r of counts.orders) m.orders.set({ market: r.market, status: r.status }, r.n);
  m.backup.reset();
  const backups = await lastBackups(services.db);
  for (const [result, run] of [['success', backups.success], ['failure', backups.failure]] as const) {
    if (!run) continue;
    m.backup.set({ result, measure: 'finished_timestamp_seconds' }, run.finishedAt.getTime() / 1000);
    m.backup.set({ result, measure: 'bytes' }, run.bytes ?? 0);
    m.backup.set({ result, measure: 'duration_seconds' }, run.ms / 1000);
  }
  return new Response(await m.registry.metrics(), { headers: { 'content-type': m.registry.contentType, 'cache-control': 'no-store' } });
};
