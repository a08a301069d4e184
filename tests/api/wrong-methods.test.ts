import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';

const ADMIN_API = 'src/pages/api/v1/admin';

/** Every back-office endpoint that exports POST and no GET, as a request path (a made-up id in each [param]). */
function postOnlyAdminRoutes(): string[] {
  const files = readdirSync(ADMIN_API, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  return files
    .filter((f) => {
      const source = readFileSync(path.join(ADMIN_API, f), 'utf8');
      return /export const POST\b/.test(source) && !/export const (GET|ALL)\b/.test(source);
    })
    .map((f) => `/api/v1/admin/${f.replace(/\.ts$/, '').replace(/(^|\/)index$/, '')}`.replace(/\[[^\]]+\]/g, (p) => (p === '[market]' ? 'NG' : '00000000-0000-0000-0000-000000000000')))
    .map((p) => p.replace(/\/$/, ''));
}

/** A wrong method on a POST-only back-office route: 405 with Allow, at most an info line in the log. */
describe('wrong methods on POST-only back-office routes', () => {
  let server: RunningServer;
  let log = '';
  beforeAll(async () => {
    server = await startServer('pglite', { LOG_LEVEL: 'info' }, { onOutput: (t) => (log += t) });
  }, 120_000);
  afterAll(async () => server?.stop());

  it('answers 405 with Allow: POST for GET, PUT and DELETE, logging no error or warning', async () => {
    const routes = postOnlyAdminRoutes();
    // Data requests, refunds and market settings are among them.
    expect(routes).toEqual(expect.arrayContaining(['/api/v1/admin/refunds/00000000-0000-0000-0000-000000000000/retry', '/api/v1/admin/markets/NG/privacy-days']));
    expect(routes.some((r) => r.startsWith('/api/v1/admin/data-requests/'))).toBe(true);
    for (const route of routes) {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const res = await fetch(new URL(route, server.baseUrl), { method, headers: { accept: 'application/json', origin: server.baseUrl } });
        expect([route, method, res.status, res.headers.get('allow')]).toEqual([route, method, 405, 'POST']);
        expect((await res.json()).code).toBe('method_not_allowed');
      }
    }
    const lines = log.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { level: string; msg: string });
    expect(lines.filter((l) => l.level === 'error' || l.level === 'warn')).toEqual([]);
    expect(lines.filter((l) => l.msg === 'method not allowed').length).toBe(routes.length * 3);
  }, 180_000);
});
