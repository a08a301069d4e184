import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { DEMO } from './buying-client';

/**
 * Hostile requests and links. Odd cookies must not poison the route cache across
 * markets or sessions, redirects stay on the site, cached pages do not echo tracking parameters,
 * and ?notice= / ?error= show only the store's own messages.
 */
describe('hostile links and cookies', () => {
  let server: RunningServer;
  const get = (path: string, headers: Record<string, string> = {}) => fetch(server.baseUrl + path, { headers, redirect: 'manual' });
  const formPost = (path: string, body: string) =>
    fetch(server.baseUrl + path, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: server.baseUrl, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
  /** Where a Location header leads, judged as a browser would. */
  const leadsHome = (location: string | null) => {
    expect(location).toBeTruthy();
    expect(location!.startsWith('/')).toBe(true);
    expect(location!.startsWith('//')).toBe(false);
    expect(location).not.toMatch(/\\/);
    expect(new URL(location!, server.baseUrl).origin).toBe(server.baseUrl);
  };
  let zaProducts: number[] = [];

  beforeAll(async () => {
    server = await startServer('pglite');
    const list = (await (await get('/api/v1/products?limit=12&market=ZA')).json()) as { data: { docs: { id: number }[] } };
    zaProducts = list.data.docs.map((p) => p.id);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('a market cookie written oddly (URL-encoded, spaced) never stores a rand page under the naira key', async () => {
    const cookies = ['ml_market=%5A%41', 'ml_market =ZA', 'a=b;ml_market= ZA', 'ml_market="ZA"'];
    let n = 0;
    for (const cookie of cookies) {
      const id = zaProducts[n++]!;
      // The odd request first, on pages nobody has asked for yet.
      const oddApi = (await (await get(`/api/v1/products/${id}`, { cookie })).json()) as { data: { currency: string } };
      const oddPage = await (await get(`/product/${id}`, { cookie, accept: 'text/html' })).text();
      // Whatever market it was answered in, a plain visitor then gets naira.
      const plainApi = await get(`/api/v1/products/${id}`);
      expect((await plainApi.json()).data.currency, cookie).toBe('NGN');
      const plainPage = await (await get(`/product/${id}`, { accept: 'text/html' })).text();
      expect(plainPage, cookie).toContain('"priceCurrency":"NGN"');
      expect(plainPage, cookie).not.toContain('"priceCurrency":"ZAR"');
      // And the odd request was answered consistently with itself (the cookie as Astro reads it).
      expect(oddPage.includes(`"priceCurrency":"${oddApi.data.currency}"`), cookie).toBe(true);
    }
  });

  it('a session cookie written oddly is a session for the cache too: the personal page is not stored', async () => {
    const login = await fetch(server.baseUrl + '/api/v1/user-auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(DEMO),
    });
    const [name, value] = login.headers.get('set-cookie')!.split(';')[0]!.split('=');
    const id = zaProducts[6]!;
    // An anonymous visit stores the page first; a signed-in shopper must still get their own.
    expect((await get(`/product/${id}`, { accept: 'text/html' })).headers.get('x-cache')).toBe('MISS');
    for (const cookie of [`${name} =${value}`, `${name}= ${value} `, `${name}=${encodeURIComponent(value!)}`]) {
      const mine = await get(`/product/${id}`, { cookie, accept: 'text/html' });
      expect(mine.headers.get('cache-control'), cookie).toBe('private, no-store');
      expect(await mine.text(), cookie).toMatch(/id="ml-session"[^>]*>\{/);
    }
    const anon = await (await get(`/product/${id}`, { accept: 'text/html' })).text();
    expect(anon).toMatch(/id="ml-session"[^>]*>null</);
  });

  it('the pages rendered-market marker never leaves the server', async () => {
    const res = await get('/collection', { accept: 'text/html' });
    expect(res.headers.get('x-rendered-market')).toBeNull();
    expect((await get('/collection', { accept: 'text/html' })).headers.get('x-rendered-market')).toBeNull();
  });

  it('no-script redirects stay on the site: login ?next= and the market form ?back=', async () => {
    const hostile = encodeURIComponent('/.//evil.example');
    const login = await formPost(`/api/v1/user-auth/login?next=${hostile}`, new URLSearchParams(DEMO).toString());
    expect(login.status).toBe(303);
    leadsHome(login.headers.get('location'));
    expect(login.headers.get('location')).not.toContain('evil.example');
    // The error path of the "Shop in" form (an unknown market).
    const market = await formPost(`/market?back=${hostile}`, `market=US&back=${hostile}`);
    expect(market.status).toBe(303);
    leadsHome(market.headers.get('location'));
    expect(market.headers.get('location')).not.toContain('evil.example');
    // Its success path too.
    const chosen = await formPost(`/market?back=${hostile}`, `market=ZA&back=${hostile}`);
    leadsHome(chosen.headers.get('location'));
    expect(chosen.headers.get('location')).not.toContain('evil.example');
    // A local next still works, with its query.
    const fine = await formPost(`/api/v1/user-auth/login?next=${encodeURIComponent('/collection?page=2')}`, new URLSearchParams(DEMO).toString());
    expect(fine.headers.get('location')).toMatch(/^\/collection\?page=2&notice=/);
  });

  it('cached pages do not echo tracking parameters the cache key ignores', async () => {
    const tracked = await get('/collection?utm_source=mail&utm_campaign=winter&fbclid=abc123&gclid=g42&sort=low-high', { accept: 'text/html' });
    expect(tracked.status).toBe(200);
    const first = await tracked.text();
    const plain = await get('/collection?sort=low-high', { accept: 'text/html' });
    expect(plain.headers.get('x-cache')).toBe('HIT');
    for (const body of [first, await plain.text()]) {
      expect(body).not.toMatch(/utm_|fbclid|gclid|abc123|winter/);
      // The "Shop in" form still comes back to the page, with its real query.
      expect(body).toMatch(/name="back" value="\/collection\?sort=low-high"/);
    }
  });

  it('?notice= and ?error= show only the store\'s own messages, by code', async () => {
    const forged = await (await get('/login?notice=Your%20account%20is%20suspended.%20Call%20%2B234&error=Call%20%2B234%20now', { accept: 'text/html' })).text();
    expect(forged).not.toContain('suspended');
    expect(forged).not.toContain('+234');
    expect(forged).not.toMatch(/class="form-message/);
    const known = await (await get('/login?notice=email-verified', { accept: 'text/html' })).text();
    expect(known).toMatch(/role="status"[^>]*>Email verified successfully!</);
    // A parameter is shown only when it is valid for its message (a market code here).
    const chosen = await (await get('/collection?notice=market-chosen:ZA', { accept: 'text/html' })).text();
    expect(chosen).toContain('You are now shopping in South Africa (R ZAR).');
    const forgedParam = await (await get('/collection?notice=market-chosen:Call%20%2B234', { accept: 'text/html' })).text();
    expect(forgedParam).not.toContain('+234');
    expect(forgedParam).not.toContain('You are now shopping in');
  });

  it('no-script form posts redirect with message codes, whose pages show the texts', async () => {
    const bad = await formPost('/api/v1/user-auth/login', new URLSearchParams({ email: DEMO.email, password: 'Wrong-pass-1' }).toString());
    const location = bad.headers.get('location')!;
    expect(location).toBe('/?error=invalid-credentials');
    const page = await (await get(location, { accept: 'text/html' })).text();
    expect(page).toMatch(/role="alert"[^>]*>Invalid email or password</);
    const chosen = await formPost('/market', `market=ZA&back=${encodeURIComponent('/collection')}`);
    expect(chosen.headers.get('location')).toBe('/collection?notice=market-chosen%3AZA');
  });
});
