import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { buyingClient } from './buying-client';

/**
 * While the database is out of reach (here: it refuses connections and every open one is
 * terminated, as in a failover), the API answers 503 with Retry-After and pages a plain 503 page,
 * not 500s; once it is back, the same server answers again without a restart.
 */
describe('database away', () => {
  let server: RunningServer;
  let admin: pg.Client;
  let dbName: string;

  beforeAll(async () => {
    server = await startServer('pg');
    const url = new URL(server.databaseUrl!);
    dbName = url.pathname.slice(1);
    url.pathname = '/postgres';
    admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.query(`alter database "${dbName}" allow_connections true`).catch(() => undefined);
    await admin?.end();
    await server?.stop();
  });

  it('answers 503 with Retry-After, then recovers by itself', async () => {
    const { token, id } = await buyingClient(server.baseUrl).login();
    const auth = { authorization: `Bearer ${token}` };
    expect((await fetch(`${server.baseUrl}/api/v1/cart/${id}`, { headers: auth })).status).toBe(200);

    await admin.query(`alter database "${dbName}" allow_connections false`);
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [dbName]);
    try {
      const api = await fetch(`${server.baseUrl}/api/v1/cart/${id}`, { headers: auth });
      expect(api.status).toBe(503);
      expect(api.headers.get('retry-after')).toBe('5');
      expect(await api.json()).toMatchObject({ status: false, code: 'unavailable', message: 'The store is busy right now. Please try again in a moment.' });
      const page = await fetch(`${server.baseUrl}/profile`, { headers: { ...auth, accept: 'text/html' } });
      expect(page.status).toBe(503);
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(await page.text()).toContain('The store is busy right now. Please try again in a moment.');
      expect((await fetch(`${server.baseUrl}/api/v1/health`)).status).toBe(503);
    } finally {
      await admin.query(`alter database "${dbName}" allow_connections true`);
    }

    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await fetch(`${server.baseUrl}/api/v1/cart/${id}`, { headers: auth })).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(200);
  });
});
