import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { buyingClient, DEMO } from './buying-client';

const run = promisify(execFile);

/** An anonymous browser-like GET (optionally with a cookie), returning status, cache state and body. */
async function get(baseUrl: string, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(baseUrl + path, { headers: { accept: 'text/html', ...headers } });
  return { status: res.status, cache: res.headers.get('x-cache'), cacheControl: res.headers.get('cache-control'), etag: res.headers.get('etag'), setCookie: res.headers.get('set-cookie'), body: await res.text() };
}

async function sessionCookie(baseUrl: string): Promise<string> {
  const res = await fetch(baseUrl + '/api/v1/user-auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO),
  });
  const cookie = res.headers.get('set-cookie')!;
  return cookie.split(';')[0]!;
}

const PERSONAL = /Ada|demo@maisonluxe\.ng|Sign out|Log out/i;

describe('route cache on PGlite', () => {
  let server: RunningServer;
  let cookie: string;
  beforeAll(async () => {
    server = await startServer('pglite');
    cookie = await sessionCookie(server.baseUrl);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves anonymous catalogue pages and the public API from the cache, with ETags', async () => {
    for (const path of ['/', '/collection', '/product/3', '/Bags-men', '/about', '/privacy', '/contact', '/sitemap.xml', '/api/v1/products?limit=5', '/api/v1/products/3']) {
      const first = await get(server.baseUrl, path);
      expect(first.status, path).toBe(200);
      expect(first.cache, path).toBe('MISS');
      const second = await get(server.baseUrl, path);
      expect(second.cache, path).toBe('HIT');
      expect(second.body, path).toBe(first.body);
      expect(second.setCookie, path).toBeNull();
      const revalidated = await fetch(server.baseUrl + path, { headers: { 'if-none-match': second.etag! } });
      expect(revalidated.status, path).toBe(304);
    }
  });

  it('never stores or serves a signed-in page to anyone else', async () => {
    // Signed in first: the page is personal, private and not stored.
    const mine = await get(server.baseUrl, '/product/5', { cookie });
    expect(mine.cache).toBeNull();
    expect(mine.cacheControl).toBe('private, no-store');
    expect(mine.body).toMatch(/id="ml-session"[^>]*>\{/);
    const anon = await get(server.baseUrl, '/product/5');
    expect(anon.cache).toBe('MISS');
    expect(anon.body).toMatch(/id="ml-session"[^>]*>null</);
    // A cached anonymous page is not what a signed-in shopper gets.
    expect((await get(server.baseUrl, '/product/5')).cache).toBe('HIT');
    const mineAgain = await get(server.baseUrl, '/product/5', { cookie });
    expect(mineAgain.cache).toBeNull();
    expect(mineAgain.body).toMatch(/id="ml-session"[^>]*>\{/);
    // Bearer clients of the API are never answered from the cache either.
    const token = (await buyingClient(server.baseUrl).login()).token;
    const api = await fetch(server.baseUrl + '/api/v1/products/5', { headers: { authorization: `Bearer ${token}` } });
    expect(api.headers.get('x-cache')).toBeNull();
  });

  it('keeps Save-Data pages apart from full pages', async () => {
    const full = await get(server.baseUrl, '/product/7');
    const lite = await get(server.baseUrl, '/product/7', { 'save-data': 'on' });
    expect(full.cache).toBe('MISS');
    expect(lite.cache).toBe('MISS');
  });

  it('drops the pages of a product when an order takes its stock', async () => {
    const api = buyingClient(server.baseUrl);
    const demo = await api.login();
    await api.clear(demo.token, demo.id);
    const v = await api.variant({ minStock: 2 });
    await get(server.baseUrl, `/product/${v.productId}`);
    expect((await get(server.baseUrl, `/product/${v.productId}`)).cache).toBe('HIT');
    expect((await get(server.baseUrl, '/api/v1/products/' + v.productId)).cache).toBe('HIT');
    await api.add(demo.token, v, 1);
    const init = await api.call('POST', '/orders/initiate', { token: demo.token, body: {} });
    await api.answerSimulated(init.body.data.reference, 'pay');
    const placed = await api.call('POST', '/orders/place-order', { token: demo.token, body: { paymentReference: init.body.data.reference } });
    expect(placed.status).toBe(200);
    expect((await get(server.baseUrl, `/product/${v.productId}`)).cache).toBe('MISS');
    const detail = await get(server.baseUrl, '/api/v1/products/' + v.productId);
    expect(detail.cache).toBe('MISS');
    const variant = JSON.parse(detail.body).data.variants.find((x: any) => x.color === v.color && x.size === v.size);
    expect(variant.stock).toBe(v.stock - 1);
  });
});

describe('route cache on two app servers sharing PostgreSQL', () => {
  let a: RunningServer;
  let b: RunningServer;
  beforeAll(async () => {
    a = await startServer('pg');
    b = await startServer('pg', {}, { databaseUrl: a.databaseUrl! });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  it('isolates signed-in pages on both servers', async () => {
    const cookie = await sessionCookie(a.baseUrl);
    for (const server of [a, b]) {
      const mine = await get(server.baseUrl, '/product/9', { cookie });
      expect(mine.cacheControl).toBe('private, no-store');
      const anon = await get(server.baseUrl, '/product/9');
      expect(anon.body).toMatch(/id="ml-session"[^>]*>null</);
      expect(anon.body).not.toMatch(PERSONAL);
    }
  });

  it('a price change by the staff command reaches both servers within a second (LISTEN/NOTIFY)', async () => {
    const path = '/api/v1/products/11';
    for (const server of [a, b]) {
      await get(server.baseUrl, path);
      expect((await get(server.baseUrl, path)).cache).toBe('HIT');
      await get(server.baseUrl, '/product/11');
    }
    const before = JSON.parse((await get(a.baseUrl, path)).body).data.price as number;
    const newPrice = before + 1234;
    await run('npx', ['tsx', 'scripts/catalogue.ts', 'set-price', '11', String(newPrice)], {
      env: { ...process.env, DATABASE_URL: a.databaseUrl!, LOG_LEVEL: 'silent' },
    });
    const started = Date.now();
    for (const server of [a, b]) {
      let price = before;
      while (Date.now() - started < 1000) {
        price = JSON.parse((await get(server.baseUrl, path)).body).data.price;
        if (price === newPrice) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(price, server.baseUrl).toBe(newPrice);
      const page = await get(server.baseUrl, '/product/11');
      expect(page.cache).toBe('MISS');
    }
  });
});
