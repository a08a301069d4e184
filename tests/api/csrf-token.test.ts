import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';

/**
 * The CSRF token rule (src/lib/server/infra/csrf.ts, checked in src/middleware.ts): a cookie-authenticated
 * form post that carries no same-site Origin / Sec-Fetch-Site (some proxy browsers send neither)
 * must carry the session's token in `_csrf` (or an X-CSRF-Token header); any other cookie-only write is
 * refused. Bearer-token clients are unaffected.
 */
describe('CSRF token on cookie-authenticated form posts', () => {
  let server: RunningServer;
  let token: string;
  let cookie: string;
  let csrf: string;
  let productId: number;
  const form = 'application/x-www-form-urlencoded';

  beforeAll(async () => {
    server = await startServer('pglite');
    const login = await fetch(`${server.baseUrl}/api/v1/user-auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'demo@maisonluxe.ng', password: 'LuxeDemo2026!' }),
    });
    token = ((await login.json()) as any).data.token;
    cookie = `ml_session=${token}`;
    // The token is rendered into the forms of the shopper's pages.
    const page = await (await fetch(`${server.baseUrl}/address-history`, { headers: { cookie } })).text();
    csrf = /name="_csrf" value="([^"]+)"/.exec(page)![1]!;
    const list = (await (await fetch(`${server.baseUrl}/api/v1/products?limit=1`)).json()) as any;
    productId = list.data.docs[0].id;
  });
  afterAll(async () => server?.stop());

  /** A browser's own form post (it asks for a page); tests override accept for API-style posts. */
  const post = (path: string, headers: Record<string, string>, body: BodyInit) =>
    fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { accept: 'text/html', ...headers }, body, redirect: 'manual' });

  it('renders the same token on every page of the session, and none without a session', async () => {
    const cart = await (await fetch(`${server.baseUrl}/cart`, { headers: { cookie } })).text();
    expect(cart).toContain(`name="_csrf" value="${csrf}"`);
    const anonymous = await (await fetch(`${server.baseUrl}/login`)).text();
    expect(anonymous).not.toContain('name="_csrf"');
  });

  it('refuses a cookie-only form post with no Origin, no Sec-Fetch-Site and no token (403)', async () => {
    const res = await post('/api/v1/favourites/add', { cookie, 'content-type': form }, `productId=${productId}`);
    expect(res.status).toBe(403);
    const favourites = (await (await fetch(`${server.baseUrl}/api/v1/favourites?ids=true`, { headers: { cookie } })).json()) as any;
    expect(favourites.data.ids).not.toContain(productId);
  });

  it('refuses a wrong token, and a text/plain form without one', async () => {
    const wrong = await post('/api/v1/favourites/add', { cookie, 'content-type': form }, `productId=${productId}&_csrf=${'x'.repeat(43)}`);
    expect(wrong.status).toBe(403);
    const plain = await post('/api/v1/favourites/add', { cookie, 'content-type': 'text/plain' }, `productId=${productId}`);
    expect(plain.status).toBe(403);
  });

  it('lets the same post through with the token (a plain form post: 303 back with the notice)', async () => {
    const res = await post('/api/v1/favourites/add?back=/favourites', { cookie, 'content-type': form }, `_csrf=${csrf}&productId=${productId}`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/favourites?notice=favourite-added');
    const favourites = (await (await fetch(`${server.baseUrl}/api/v1/favourites?ids=true`, { headers: { cookie } })).json()) as any;
    expect(favourites.data.ids).toContain(productId);
  });

  it('needs no token when the browser says the post is same-origin', async () => {
    const byOrigin = await post('/api/v1/favourites/remove', { cookie, 'content-type': form, origin: server.baseUrl }, `productId=${productId}`);
    expect(byOrigin.status).toBe(303);
    const byFetchSite = await post('/api/v1/favourites/add', { cookie, 'content-type': form, 'sec-fetch-site': 'same-origin' }, `productId=${productId}`);
    expect(byFetchSite.status).toBe(303);
  });

  it('checks multipart posts too (the profile picture form)', async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#8a5a2b' } }).png().toBuffer();
    const body = () => {
      const data = new FormData();
      data.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'me.png');
      return data;
    };
    const refused = await fetch(`${server.baseUrl}/api/v1/user-auth/upload-image`, { method: 'POST', headers: { cookie }, body: body(), redirect: 'manual' });
    expect(refused.status).toBe(403);
    const withToken = body();
    withToken.append('_csrf', csrf);
    const ok = await fetch(`${server.baseUrl}/api/v1/user-auth/upload-image`, { method: 'POST', headers: { cookie, accept: 'text/html' }, body: withToken, redirect: 'manual' });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/profile?notice=picture-updated');
  });

  it('leaves bearer-token clients alone: form and JSON posts without Origin or token pass', async () => {
    const bearer = { authorization: `Bearer ${token}` };
    const formPost = await post('/api/v1/favourites/remove', { ...bearer, 'content-type': form, accept: 'application/json' }, `productId=${productId}`);
    expect(formPost.status).toBe(200);
    expect(((await formPost.json()) as any).data.favourite).toBe(false);
    const jsonPost = await post('/api/v1/favourites/add', { ...bearer, 'content-type': 'application/json' }, JSON.stringify({ productId }));
    expect(jsonPost.status).toBe(200);
  });

  it('refuses every other cookie-only write that proves nothing: JSON, and a body-less logout with no Origin or Referer', async () => {
    const json = await post('/api/v1/favourites/remove', { cookie, 'content-type': 'application/json' }, JSON.stringify({ productId }));
    expect(json.status).toBe(403);
    const logout = await fetch(`${server.baseUrl}/api/v1/user-auth/logout`, { method: 'POST', headers: { cookie }, redirect: 'manual' });
    expect(logout.status).toBe(403);
    // the session survived
    expect((await fetch(`${server.baseUrl}/api/v1/user-auth/get-user`, { headers: { cookie } })).status).toBe(200);
    // the same JSON write from this site's page (a browser sends Origin) passes, and so does one with the token header
    const sameSite = await post('/api/v1/favourites/remove', { cookie, 'content-type': 'application/json', origin: server.baseUrl }, JSON.stringify({ productId }));
    expect(sameSite.status).toBe(200);
    const withHeader = await post('/api/v1/favourites/remove', { cookie, 'content-type': 'application/json', 'x-csrf-token': csrf }, JSON.stringify({ productId }));
    expect(withHeader.status).toBe(200);
  });

  it('still refuses a cross-site Origin even with the token', async () => {
    const res = await post('/api/v1/favourites/add', { cookie, 'content-type': form, origin: 'https://evil.example' }, `_csrf=${csrf}&productId=${productId}`);
    expect(res.status).toBe(403);
  });
});
