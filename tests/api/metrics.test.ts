import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeLabel } from '@/lib/server/infra/metrics';
import { startServer, type RunningServer } from '../support/server';

/** /metrics: Prometheus's format, only for the configured addresses. */
describe('metrics', () => {
  let open: RunningServer;
  let closed: RunningServer;
  beforeAll(async () => {
    [open, closed] = await Promise.all([startServer('pg'), startServer('pglite', { METRICS_ALLOW: '10.1.2.3, 192.168.0.0/16' })]);
  });
  afterAll(async () => {
    await Promise.all([open?.stop(), closed?.stop()]);
  });

  it('reports requests per route, the route cache, the pool, the hashing queue, payments and orders', async () => {
    for (let i = 0; i < 2; i++) await fetch(`${open.baseUrl}/collection`);
    await fetch(`${open.baseUrl}/product/3`);
    const res = await fetch(`${open.baseUrl}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toMatch(/http_request_duration_seconds_count\{route="\/collection",method="GET",status="200"\} 2/);
    expect(text).toMatch(/http_request_duration_seconds_count\{route="\/product\/:id",method="GET",status="200"\} 1/);
    expect(text).toMatch(/route_cache_requests_total\{result="hit"\} [1-9]/);
    expect(text).toMatch(/route_cache_requests_total\{result="miss"\} [1-9]/);
    expect(text).toMatch(/db_pool_connections\{state="total"\} \d+/);
    expect(text).toMatch(/route_cache_stored\{measure="pages"\} [1-9]/);
    expect(text).toMatch(/password_hash_queue_jobs\{state="waiting"\} 0/);
    expect(text).toMatch(/store_orders\{market="NG",status="\w+"\} \d+|# TYPE store_orders gauge/);
    expect(text).toMatch(/# TYPE store_payments gauge/);
    expect(text).toMatch(/process_cpu_seconds_total/);
  });

  it('is a plain 404 for a local request that a proxy forwarded, with TRUST_PROXY unset (nginx on the same machine)', async () => {
    for (const headers of <Record<string, string>[]>[{ 'x-forwarded-for': '203.0.113.5' }, { forwarded: 'for=203.0.113.5' }, { 'x-real-ip': '203.0.113.5' }, { 'x-forwarded-for': '127.0.0.1' }]) {
      const res = await fetch(`${open.baseUrl}/metrics`, { headers });
      expect(res.status, JSON.stringify(headers)).toBe(404);
      expect(await res.text()).not.toMatch(/http_request/);
    }
    // The direct local scrape still works.
    expect((await fetch(`${open.baseUrl}/metrics`)).status).toBe(200);
  });

  it('is a plain 404 for any other address', async () => {
    const res = await fetch(`${closed.baseUrl}/metrics`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toMatch(/http_request/);
  });

  it('keeps route labels few: ids become :id, unknown paths are one label', () => {
    expect(routeLabel('/product/123', 200)).toBe('/product/:id');
    expect(routeLabel('/order-details/0b5e1a2c-1111-4222-8333-944445555666/return', 200)).toBe('/order-details/:id/return');
    expect(routeLabel('/api/v1/products', 200)).toBe('/api/v1/products');
    expect(routeLabel('/anything/at/all', 404)).toBe('unmatched');
    expect(routeLabel('/_astro/app.Bx12.js', 200)).toBe('/_astro/*');
  });
});
