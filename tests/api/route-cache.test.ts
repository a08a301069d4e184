import { execFile } from 'node:child_process';
import { get as httpGet } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { accountClient } from './account-client';
import { buyingClient, DEMO } from './buying-client';

const run = promisify(execFile);

/** An anonymous browser-like GET (optionally with a cookie), returning status, cache state and body. */
async function get(baseUrl: string, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(baseUrl + path, { headers: { accept: 'text/html', ...headers } });
  return {
    status: res.status,
    cache: res.headers.get('x-cache'),
    cacheControl: res.headers.get('cache-control'),
    etag: res.headers.get('etag'),
    setCookie: res.headers.get('set-cookie'),
    encoding: res.headers.get('content-encoding'),
    body: await res.text(),
  };
}

/** A GET as it comes off the wire (fetch would decode it): the encoding the server chose and the bytes. */
function rawGet(baseUrl: string, path: string, headers: Record<string, string>): Promise<{ asked: string | undefined; encoding: string | null; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    httpGet(baseUrl + path, { headers: { accept: 'text/html', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ asked: headers['accept-encoding'], encoding: (res.headers['content-encoding'] as string | undefined) ?? null, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
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

const PERSONAL = /Adaeze|Okafor|demo@maisonluxe\.ng|data-logout|Account menu for|"userId"/;

/** What only the demo shopper's pages may show. */
const ADAS = /Adaeze|Okafor|demo@maisonluxe\.ng/;

/** The state of a product's heart on a page: pressed, and where the form it submits posts. */
function heartOf(html: string, productId: number) {
  const heart = new RegExp(`<button type="submit" form="([\\w-]+)" name="productId" value="${productId}"[^>]*aria-pressed="(true|false)"`).exec(html);
  if (!heart) throw new Error(`no heart for product ${productId}`);
  const form = new RegExp(`<form id="${heart[1]}" method="post" action="/api/v1/favourites/(add|remove)\\?`).exec(html);
  return { pressed: heart[2] === 'true', action: form?.[1] };
}

/** What a signed-in shopper's pages must show of them: the session's CSRF token (from a page of their own), cart count and hearts. */
async function shopperParts(baseUrl: string, cookie: string) {
  const token = cookie.replace(/^ml_session=/, '');
  const own = await (await fetch(baseUrl + '/address-history', { headers: { cookie } })).text();
  const csrf = /name="_csrf" value="([^"]+)"/.exec(own)![1]!;
  const api = accountClient(baseUrl);
  const me = (await api.call('GET', '/user-auth/get-user', { token })).body.data;
  const cart = (await api.call('GET', `/cart/${me._id ?? me.id}`, { token })).body.data;
  const favourites = (await api.call('GET', '/favourites?ids=true', { token })).body.data.ids as number[];
  return { token, csrf, cartCount: (cart.items as unknown[]).length, favourites };
}

/** A verified shopper with her own first name, signed in. */
async function namedShopper(baseUrl: string, firstName: string) {
  const api = accountClient(baseUrl);
  const email = api.uniqueEmail(firstName.toLowerCase());
  await api.call('POST', '/user-auth/create', { body: api.registration(email, { firstName, lastName: 'Dlamini' }) });
  await api.call('POST', '/user-auth/verify-otp', { body: { email, otp: await api.lastCode(email) } });
  const login = await api.call('POST', '/user-auth/login', { body: { email, password: 'Lagos-2026!' } });
  return { email, token: login.body.data.token as string };
}

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
    for (const path of ['/', '/collection', '/product/3', '/Bags-men', '/designers', '/about', '/privacy', '/contact', '/sitemap.xml', '/api/v1/products?limit=5', '/api/v1/products/3']) {
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

  it('serves a signed-in shopper the shared cached page with their own parts, and nobody else gets them', async () => {
    const anon = await get(server.baseUrl, '/product/5');
    expect(anon.cache).toBe('MISS');
    expect(anon.body).toMatch(/id="ml-session"[^>]*>null</);
    expect((await get(server.baseUrl, '/product/5')).cache).toBe('HIT');

    // The demo shopper: the anonymous entry, with her name, her token, her cart count and her hearts put in.
    const ada = await shopperParts(server.baseUrl, cookie);
    const mine = await get(server.baseUrl, '/product/5', { cookie });
    expect(mine.cache).toBe('HIT');
    expect(mine.cacheControl).toBe('private, no-store');
    expect(mine.etag).toBeNull();
    expect(mine.body).toMatch(/id="ml-session"[^>]*>\{"userId":"[^"]+","firstName":"Adaeze"/);
    expect(mine.body).toContain('aria-label="Account menu for Adaeze"');
    expect(mine.body).toContain(`name="_csrf" value="${ada.csrf}"`);
    expect(mine.body).not.toContain('ml-csrf-slot');
    expect(mine.body).toContain(`aria-label="${ada.cartCount === 1 ? 'Cart, 1 item' : `Cart, ${ada.cartCount} items`}"`);
    expect(heartOf(mine.body, 5)).toEqual({ pressed: ada.favourites.includes(5), action: ada.favourites.includes(5) ? 'remove' : 'add' });

    // A heart pressed now shows on her next page from the cache, and on nobody else's.
    const api = accountClient(server.baseUrl);
    await api.call('POST', '/favourites/add', { token: ada.token, body: { productId: 5 } });
    const hearted = await get(server.baseUrl, '/product/5', { cookie });
    expect(hearted.cache).toBe('HIT');
    expect(heartOf(hearted.body, 5)).toEqual({ pressed: true, action: 'remove' });

    // Another shopper gets the same entry with her own parts, none of Ada's.
    const quinta = await namedShopper(server.baseUrl, 'Quinta');
    const hers = await get(server.baseUrl, '/product/5', { cookie: `ml_session=${quinta.token}` });
    expect(hers.cache).toBe('HIT');
    expect(hers.body).toContain('aria-label="Account menu for Quinta"');
    expect(hers.body).not.toMatch(ADAS);
    expect(hers.body).not.toContain(ada.csrf);
    expect(heartOf(hers.body, 5)).toEqual({ pressed: false, action: 'add' });

    // And the stored page itself stayed nobody's.
    const anonAgain = await get(server.baseUrl, '/product/5');
    expect(anonAgain.cache).toBe('HIT');
    expect(anonAgain.body).toBe(anon.body);
    expect(anonAgain.body).not.toMatch(PERSONAL);
    expect(anonAgain.body).not.toContain('Quinta');
    expect(heartOf(anonAgain.body, 5)).toEqual({ pressed: false, action: 'add' });
  });

  it("answers signed-in shoppers from the stored page's gzip pieces (as Chromium asks), each with their own parts; a pressed heart gets the page compressed whole", async () => {
    const chromium = { 'accept-encoding': 'gzip, deflate, br, zstd' };
    const api = accountClient(server.baseUrl);
    const ada = await shopperParts(server.baseUrl, cookie);
    // No heart of hers pressed on these pages to begin with.
    for (const productId of ada.favourites) await api.call('POST', '/favourites/remove', { token: ada.token, body: { productId } });
    const quinta = await namedShopper(server.baseUrl, 'Quinta');
    for (const path of ['/product/8', '/collection?categoryId=12', '/contact?market=ZA']) {
      await get(server.baseUrl, path);
      // The first signed-in hit lays the page out in the background; until then it is compressed whole (brotli).
      let mine = await get(server.baseUrl, path, { cookie, ...chromium });
      for (let i = 0; i < 40 && mine.encoding !== 'gzip'; i++) {
        await new Promise((r) => setTimeout(r, 50));
        mine = await get(server.baseUrl, path, { cookie, ...chromium });
      }
      expect(mine.encoding, path).toBe('gzip');
      expect(mine.cache, path).toBe('HIT');
      expect(mine.body, path).toContain('aria-label="Account menu for Adaeze"');
      expect(mine.body, path).toContain(`name="_csrf" value="${ada.csrf}"`);
      expect(mine.body, path).not.toContain('ml-csrf-slot');
      const hers = await get(server.baseUrl, path, { cookie: `ml_session=${quinta.token}`, ...chromium });
      expect(hers.encoding, path).toBe('gzip');
      expect(hers.body, path).toContain('aria-label="Account menu for Quinta"');
      expect(hers.body, path).not.toMatch(ADAS);
      expect(hers.body, path).not.toContain(ada.csrf);
      expect(hers.body, path).not.toContain('ml-csrf-slot');
    }
    // A heart pressed on the page: compressed whole (the layout holds no pressed hearts).
    await api.call('POST', '/favourites/add', { token: ada.token, body: { productId: 8 } });
    const hearted = await get(server.baseUrl, '/product/8', { cookie, ...chromium });
    expect(hearted.encoding).toBe('br');
    expect(heartOf(hearted.body, 8)).toEqual({ pressed: true, action: 'remove' });
    await api.call('POST', '/favourites/remove', { token: ada.token, body: { productId: 8 } });
    for (const productId of ada.favourites) await api.call('POST', '/favourites/add', { token: ada.token, body: { productId } });
  });

  it('a signed-in visit renders the page for nobody, stores it, and anonymous visitors are served it', async () => {
    for (const path of ['/?market=ZA', '/collection?categoryId=1', '/product/6', '/Bags-men?market=ZA', '/about?market=ZA']) {
      const mine = await get(server.baseUrl, path, { cookie });
      expect(mine.status, path).toBe(200);
      expect(mine.cache, path).toBe('MISS');
      expect(mine.body, path).toMatch(/id="ml-session"[^>]*>\{/);
      const anon = await get(server.baseUrl, path);
      expect(anon.cache, path).toBe('HIT');
      expect(anon.body, path).toMatch(/id="ml-session"[^>]*>null</);
      expect(anon.body, path).not.toMatch(PERSONAL);
      expect((await get(server.baseUrl, path, { cookie })).cache, path).toBe('HIT');
    }
  });

  it('stores searches like listings, and the back office still counts every search it serves', async () => {
    const page = '/collection?q=Velvet%20Mule';
    const first = await fetch(server.baseUrl + page);
    expect(first.headers.get('x-cache')).toBe('MISS');
    // The note the cache keeps of the search never leaves the server.
    expect(first.headers.get('x-searched')).toBeNull();
    const body = await first.text();
    expect(body).toMatch(/velvet mule/i);
    const again = await fetch(server.baseUrl + page);
    expect(again.headers.get('x-cache')).toBe('HIT');
    expect(again.headers.get('x-searched')).toBeNull();
    expect(await again.text()).toBe(body);
    const mine = await get(server.baseUrl, page, { cookie });
    expect(mine.cache).toBe('HIT');
    expect(mine.body).toContain('aria-label="Account menu for Adaeze"');
    for (const state of ['MISS', 'HIT']) {
      const api = await fetch(server.baseUrl + '/api/v1/products?q=velvet+mule');
      expect(api.headers.get('x-cache')).toBe(state);
      expect(api.headers.get('x-searched')).toBeNull();
    }
    // A later page of the same search is not another search.
    await fetch(server.baseUrl + page + '&page=2');

    const api = accountClient(server.baseUrl);
    const login = await api.call('POST', '/user-auth/login', { body: { email: 'owner@maisonluxe.ng', password: 'LuxeOwner2026!' } });
    const owner = login.body.data.token as string;
    await api.call('POST', '/user-auth/verify-device', { token: owner, body: { code: await api.lastCode('owner@maisonluxe.ng') } });
    const report = await (await fetch(server.baseUrl + '/admin', { headers: { authorization: `Bearer ${owner}` } })).text();
    // Two renders (a page, an API answer) and three answers from the cache: five searches.
    expect(/>velvet mule<\/a><\/td><td class="num"[^>]*>(\d+)</.exec(report)?.[1]).toBe('5');
  });

  it('never puts the CSRF token anywhere but the slots, whatever a search or a field carries', async () => {
    const ada = await shopperParts(server.baseUrl, cookie);
    // The placeholder the slots once held, and whatever an anonymous visitor now sees in them.
    const shown = /name="_csrf" value="([^"]+)"/.exec((await get(server.baseUrl, '/collection')).body)?.[1];
    const markers = new Set(['ml-csrf-slot'.padEnd(43, '_'), ...(shown ? [shown] : [])]);
    const slotted = [`name="_csrf" value="${ada.csrf}"`, `&quot;csrf&quot;:[0,&quot;${ada.csrf}&quot;]`];
    const outsideSlots = (html: string) => slotted.reduce((rest, slot) => rest.split(slot).join(''), html);
    for (const marker of markers) {
      const q = encodeURIComponent(marker);
      // Signed in first (rendered for nobody, then stored), then anonymous first (then from the store).
      for (const path of [`/collection?q=${q}`, `/collection?q=${q}&sort=relevant`, `/collection?categoryId=1&q=x${q}x`, `/product/3?color=${q}`]) {
        for (const anonymousFirst of [false, true]) {
          const at = `${path}${anonymousFirst ? '&page=1' : ''}`;
          if (anonymousFirst) await get(server.baseUrl, at);
          for (const round of [1, 2]) {
            const mine = await get(server.baseUrl, at, { cookie, 'accept-encoding': round === 1 ? 'br' : 'gzip' });
            expect(mine.status, at).toBe(200);
            expect(mine.body, at).toContain(slotted[0]);
            expect(outsideSlots(mine.body), `${at} (round ${round})`).not.toContain(ada.csrf);
          }
        }
      }
    }
    // An anonymous visitor is never shown a marker that a link could carry into a signed-in page.
    expect((await get(server.baseUrl, '/collection')).body).not.toContain(ada.csrf);
  });

  it('compresses answers only as the client accepts (q=0 refuses an encoding)', async () => {
    const asked = [
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=0, br', 'br'],
      ['identity', null],
      ['*;q=0, identity', null],
      ['br;q=0.5, gzip;q=1', 'gzip'],
      // A signed-in page from its gzip layout is gzip wherever gzip is taken (ADR 0016).
      ['gzip, br', 'br', 'gzip'],
    ] as const;
    const until = async (path: string, headers: Record<string, string>, encoding: string) => {
      let answer = await get(server.baseUrl, path, headers);
      for (let i = 0; i < 40 && answer.encoding !== encoding; i++) {
        await new Promise((r) => setTimeout(r, 50));
        answer = await get(server.baseUrl, path, headers);
      }
      return answer;
    };
    // A stored anonymous page (once compressed in the background), and the same page signed in
    // (once its gzip layout is made).
    await until('/privacy', { 'accept-encoding': 'br' }, 'br');
    await until('/privacy', { cookie, 'accept-encoding': 'gzip' }, 'gzip');
    const html = (await get(server.baseUrl, '/privacy')).body;
    const script = html.match(/\/_astro\/[\w.-]+\.js/)![0];
    for (const [accept, encoding, signedIn = encoding] of asked) {
      const anon = await get(server.baseUrl, '/privacy', { 'accept-encoding': accept });
      expect(anon.cache, accept).toBe('HIT');
      expect(anon.encoding, `anonymous, ${accept}`).toBe(encoding);
      const mine = await get(server.baseUrl, '/privacy', { cookie, 'accept-encoding': accept });
      expect(mine.encoding, `signed in, ${accept}`).toBe(signedIn);
      const asset = await fetch(server.baseUrl + script, { headers: { 'accept-encoding': accept } });
      await asset.arrayBuffer();
      expect(asset.headers.get('content-encoding'), `static, ${accept}`).toBe(encoding);
      const own = await get(server.baseUrl, '/profile', { cookie, 'accept-encoding': accept });
      expect(own.encoding, `own page, ${accept}`).toBe(encoding);
    }
  });

  it("keeps a shopper's own pages and API answers out of the cache", async () => {
    for (const path of ['/profile', '/cart', '/order-history', '/favourites']) {
      const mine = await get(server.baseUrl, path, { cookie });
      expect(mine.cache, path).toBeNull();
      expect(mine.cacheControl, path).toBe('private, no-store');
    }
    // Bearer clients of the API are never answered from the cache either.
    const token = (await buyingClient(server.baseUrl).login()).token;
    const api = await fetch(server.baseUrl + '/api/v1/products/5', { headers: { authorization: `Bearer ${token}` } });
    expect(api.headers.get('x-cache')).toBeNull();
  });

  it('lets a signed-in browser revalidate public catalogue answers by ETag, never through a shared cache', async () => {
    const first = await fetch(server.baseUrl + '/api/v1/products/organised/latest', { headers: { cookie } });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cache')).toBeNull();
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const body = await first.text();
    // The browser asks again with what it holds: nothing but a 304 comes back.
    const again = await fetch(server.baseUrl + '/api/v1/products/organised/latest', { headers: { cookie, 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('cache-control')).toBe('private, no-cache');
    // What it holds is no longer what the server would send (another market's prices): the new list in full.
    const elsewhere = await fetch(server.baseUrl + '/api/v1/products/organised/latest?market=za', { headers: { cookie, 'if-none-match': etag } });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers.get('etag')).not.toBe(etag);
    expect(await elsewhere.text()).not.toBe(body);
    // The shopper's own answers are not revalidated: they are never stored at all.
    const own = await fetch(server.baseUrl + '/api/v1/user-auth/get-user', { headers: { cookie } });
    expect(own.status).toBe(200);
    expect(own.headers.get('etag')).toBeNull();
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
      expect(mine.body).toContain('aria-label="Account menu for Adaeze"');
      const anon = await get(server.baseUrl, '/product/9');
      expect(anon.cache).toBe('HIT');
      expect(anon.body).toMatch(/id="ml-session"[^>]*>null</);
      expect(anon.body).not.toMatch(PERSONAL);
      const quinta = await namedShopper(server.baseUrl, 'Quinta');
      const hers = await get(server.baseUrl, '/product/9', { cookie: `ml_session=${quinta.token}` });
      expect(hers.cache).toBe('HIT');
      expect(hers.body).toContain('aria-label="Account menu for Quinta"');
      expect(hers.body).not.toMatch(ADAS);
    }
  });

  it('eight shoppers at once on both servers: each page holds only its shopper\'s parts, and the same bytes in gzip, brotli and none', async () => {
    const names = ['Amara', 'Bisi', 'Chidi', 'Dineo', 'Ekene', 'Folake', 'Gugu', 'Halima'];
    const shoppers = await Promise.all(names.map((name) => namedShopper(a.baseUrl, name)));
    const buying = buyingClient(a.baseUrl);
    const pieces = await buying.variants({ count: 2 });
    // Carts of none, one and two pieces; one heart pressed on the product page (that page compressed whole).
    for (const [i, shopper] of shoppers.entries()) for (const piece of pieces.slice(0, i % 3)) expect((await buying.add(shopper.token, piece)).status).toBe(200);
    await accountClient(a.baseUrl).call('POST', '/favourites/add', { token: shoppers[0]!.token, body: { productId: 9 } });
    const paths = ['/product/9', '/collection?categoryId=1', '/'];
    const chromium = 'gzip, deflate, br, zstd';
    // Stored, then laid out for gzip on each server (in the background, on the first signed-in visit).
    for (const server of [a, b]) {
      for (const path of paths) {
        await get(server.baseUrl, path);
        for (let i = 0; i < 40 && (await rawGet(server.baseUrl, path, { cookie: `ml_session=${shoppers[1]!.token}`, 'accept-encoding': chromium })).encoding !== 'gzip'; i++) await new Promise((r) => setTimeout(r, 50));
      }
    }
    const asked = [a, b].flatMap((server) => shoppers.flatMap((shopper, who) => paths.flatMap((path) => [chromium, 'br', 'identity'].map((encoding) => ({ server, who, path, encoding, cookie: `ml_session=${shopper.token}` })))));
    const answers = await Promise.all(asked.map(async (ask) => ({ ...ask, ...(await rawGet(ask.server.baseUrl, ask.path, { cookie: ask.cookie, 'accept-encoding': ask.encoding })) })));
    const tokenOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1]!;
    const plain = new Map(answers.filter((x) => x.encoding === null).map((x) => [`${x.server.baseUrl} ${x.who} ${x.path}`, x.bytes.toString()]));
    const tokens = shoppers.map((_, who) => tokenOf(plain.get(`${a.baseUrl} ${who} /`)!));
    for (const x of answers) {
      const where = `${names[x.who]} ${x.path} on ${x.server.baseUrl}, asking ${x.encoding}`;
      const html = (x.encoding === 'gzip' ? gunzipSync(x.bytes) : x.encoding === 'br' ? brotliDecompressSync(x.bytes) : x.bytes).toString();
      // The same page whatever the encoding, read back with zlib.
      expect(html, where).toBe(plain.get(`${x.server.baseUrl} ${x.who} ${x.path}`));
      expect(html, where).toContain(`aria-label="Account menu for ${names[x.who]}"`);
      expect(html, where).toContain(`aria-label="${['Cart, 0 items', 'Cart, 1 item', 'Cart, 2 items'][x.who % 3]}"`);
      expect(html, where).not.toContain('ml-csrf-slot');
      for (const [other, name] of names.entries()) {
        if (other === x.who) continue;
        expect(html, where).not.toContain(`Account menu for ${name}`);
        expect(html, where).not.toContain(`"firstName":"${name}"`);
        expect(html, where).not.toContain(shoppers[other]!.email);
        expect(html, where).not.toContain(tokens[other]);
      }
      expect(tokenOf(html), where).toBe(tokens[x.who]);
      // Chromium's answers come from the stored page's gzip pieces, but for a page with a heart of theirs pressed.
      if (x.asked === chromium) expect(x.encoding, where).toBe(html.includes('form="ml-fav-remove" name="productId"') ? 'br' : 'gzip');
    }
    expect(heartOf(plain.get(`${a.baseUrl} 0 /product/9`)!, 9).pressed).toBe(true);
  });

  it("the session and cart count a shared page shows follow the shopper's changes on both servers at once", async () => {
    // Catalogue pages keep the shown session and the cart count for a few seconds per server; a
    // change on one server (cart, name, sign-out) must reach the other's next page, not 10 s later.
    const api = buyingClient(a.baseUrl);
    const rutendo = await namedShopper(a.baseUrl, 'Rutendo');
    const cookie = `ml_session=${rutendo.token}`;
    const shown = async (server: RunningServer) => (await get(server.baseUrl, '/product/12', { cookie })).body;
    /** Polls for up to a second: the cache bus (LISTEN/NOTIFY) is asynchronous. */
    async function eventually(server: RunningServer, expected: RegExp) {
      const started = Date.now();
      let body = await shown(server);
      while (!expected.test(body) && Date.now() - started < 1000) {
        await new Promise((r) => setTimeout(r, 50));
        body = await shown(server);
      }
      expect(body, server.baseUrl).toMatch(expected);
    }
    for (const server of [a, b]) {
      const body = await shown(server);
      expect(body).toContain('aria-label="Account menu for Rutendo"');
      expect(body).toContain('aria-label="Cart, 0 items"');
    }
    const me = (await api.call('GET', '/user-auth/get-user', { token: rutendo.token })).body.data;
    const [piece] = await api.variants({ count: 1 });
    expect((await api.add(rutendo.token, piece!)).status).toBe(200);
    for (const server of [b, a]) await eventually(server, /aria-label="Cart, 1 item"/);
    const renamed = await api.call('PATCH', '/user-auth/profile', { token: rutendo.token, body: { userId: me.id, firstName: 'Rufaro', lastName: 'Dlamini', phoneNumber: me.phoneNumber, country: me.country } });
    expect(renamed.status).toBe(200);
    for (const server of [b, a]) await eventually(server, /aria-label="Account menu for Rufaro"/);
    expect((await api.call('POST', '/user-auth/logout', { token: rutendo.token, body: {} })).status).toBe(200);
    for (const server of [b, a]) {
      await eventually(server, /id="ml-session"[^>]*>null</);
      expect(await shown(server)).not.toMatch(/Rufaro|Rutendo/);
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
