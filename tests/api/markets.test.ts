import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { buyingClient } from './buying-client';

/** Markets over HTTP: catalogue prices per market, the "Shop in" form, crawlable URLs, the route cache. */
describe('markets over HTTP', () => {
  let server: RunningServer;
  let client: ReturnType<typeof buyingClient>;
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(server.baseUrl + path, { headers, redirect: 'manual' });
    const text = await res.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      // a page
    }
    return { res, body };
  };

  beforeAll(async () => {
    server = await startServer('pglite');
    client = buyingClient(server.baseUrl);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('the catalogue API answers in the market asked for, with a currency beside each price', async () => {
    const ng = await get('/api/v1/products?limit=50');
    const za = await get('/api/v1/products?limit=50&market=ZA');
    expect(ng.body.data.docs.every((p: any) => p.currency === 'NGN')).toBe(true);
    expect(za.body.data.docs.every((p: any) => p.currency === 'ZAR')).toBe(true);
    expect(za.body.data.totalDocs).toBeLessThan(ng.body.data.totalDocs);
    const id = za.body.data.docs[0].id;
    const one = await get(`/api/v1/products/${id}?market=ZA`);
    expect(one.body.data).toMatchObject({ id, currency: 'ZAR', price: za.body.data.docs[0].price });
    expect((await get(`/api/v1/products/${id}?market=za`)).body.data.currency).toBe('ZAR');
    expect((await get(`/api/v1/products/${id}`, { cookie: 'ml_market=ZA' })).body.data.currency).toBe('ZAR');
    expect((await get(`/api/v1/products/${id}?market=XX`)).body.data.currency).toBe('NGN');
    const best = await get('/api/v1/products/organised/best-sellers?market=ZA');
    expect(best.body.data.docs.every((p: any) => p.currency === 'ZAR')).toBe(true);
  });

  it('the "Shop in" form keeps the choice in a cookie and goes back; ?market= sets it too', async () => {
    const res = await fetch(`${server.baseUrl}/market?back=%2Fcollection%3Fpage%3D2`, {
      method: 'POST',
      headers: { origin: server.baseUrl, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'market=ZA&back=%2Fcollection%3Fpage%3D2',
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/collection\?page=2&notice=/);
    expect(res.headers.get('set-cookie')).toMatch(/ml_market=ZA/);
    const bad = await fetch(`${server.baseUrl}/market`, {
      method: 'POST',
      headers: { origin: server.baseUrl, accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ market: 'US' }),
    });
    expect(bad.status).toBe(400);
    const crawl = await get('/collection?market=ZA');
    expect(crawl.res.headers.get('set-cookie')).toMatch(/ml_market=ZA/);
    expect((await get('/collection?market=ZA', { cookie: 'ml_market=ZA' })).res.headers.get('set-cookie')).toBeNull();
  });

  it('pages show R prices in South Africa, hreflang alternates and per-market canonicals, cached apart', async () => {
    const ng = await get('/collection');
    const za = await get('/collection', { cookie: 'ml_market=ZA' });
    const zaUrl = await get('/collection?market=ZA');
    expect(ng.body).toContain('₦');
    expect(za.body).not.toContain('>₦');
    expect(za.body).toMatch(/class="card-price"[^>]*>(From )?R\u00a0\d/);
    expect(zaUrl.body).toMatch(/class="card-price"[^>]*>(From )?R\u00a0\d/);
    expect(za.body).toContain(`<link rel="canonical" href="${server.baseUrl}/collection?market=ZA"`);
    expect(ng.body).toContain(`<link rel="canonical" href="${server.baseUrl}/collection"`);
    for (const page of [ng.body, za.body]) {
      expect(page).toContain(`<link rel="alternate" hreflang="en-NG" href="${server.baseUrl}/collection"`);
      expect(page).toContain(`<link rel="alternate" hreflang="en-ZA" href="${server.baseUrl}/collection?market=ZA"`);
      expect(page).toContain(`<link rel="alternate" hreflang="x-default" href="${server.baseUrl}/collection"`);
      expect(page).toContain('<label for="shop-in">Shop in</label>');
      expect(page).toContain('Nigeria (₦ NGN)');
      expect(page).toContain('South Africa (R ZAR)');
    }
    // A product sold in Nigeria only has no South African alternate (and is not found there).
    const ngOnly = await get('/product/13');
    expect(ngOnly.body).toContain('hreflang="en-NG"');
    expect(ngOnly.body).not.toContain('hreflang="en-ZA"');
    const notHere = await get('/product/13?market=ZA');
    expect(notHere.res.status).toBe(404);
    expect(notHere.body).toContain('This piece is not sold in South Africa');
    expect(notHere.body).toContain('<h1>Not available in South Africa</h1>');
    expect(notHere.body).toContain('>our store for Nigeria</a>');
    expect(notHere.body).toContain('href="/product/13?market=NG"');
    const both = await get('/product/12?market=ZA');
    expect(both.body).toContain(`<link rel="alternate" hreflang="en-ZA" href="${server.baseUrl}/product/12?market=ZA"`);
    expect(both.body).toContain('"priceCurrency":"ZAR"');
    // Served again, from the cache, each market still gets its own page.
    expect((await get('/collection')).body).toContain('₦');
    expect((await get('/collection', { cookie: 'ml_market=ZA' })).body).toMatch(/class="card-price"[^>]*>(From )?R\u00a0\d/);
  });

  it('the signed-in shopper changing market gets the cart re-priced on the server, and told so', async () => {
    const { token, id } = await client.login();
    await client.clear(token, id);
    const [v] = await client.variants({ minStock: 2, alsoSoldIn: 'ZA' });
    await client.add(token, v!, 1);
    const inNaira = await client.cart(token, id);
    expect(inNaira.currency).toBe('NGN');
    const res = await client.call('GET', `/cart/${id}?market=ZA`, { token });
    expect(res.body.data).toMatchObject({ currency: 'ZAR', market: 'ZA' });
    expect(res.body.data.notice).toMatch(/South Africa/);
    expect(res.body.data.pickupAddress.city).toBe('Johannesburg');
    const zaVariants = (await get(`/api/v1/products/${v!.productId}?market=ZA`)).body.data.variants as { color: string | null; size: string | null; price: number }[];
    const zaPrice = zaVariants.find((x) => x.color === v!.color && x.size === v!.size)!.price;
    expect(res.body.data.subtotal).toBe(zaPrice);
    const back = await client.call('GET', `/cart/${id}`, { token });
    expect(back.body.data).toMatchObject({ currency: 'NGN', subtotal: inNaira.subtotal });
  });

  it('the sitemap is an index of parts, which list both markets; a part past the last is not found', async () => {
    const index = (await get('/sitemap.xml')).body as string;
    expect(index).toMatch(/^<\?xml[^>]*>\s*<sitemapindex /);
    const parts = [...index.matchAll(/<sitemap><loc>([^<]+)<\/loc><\/sitemap>/g)].map((m) => new URL(m[1]!).pathname);
    expect(parts).toEqual(['/sitemaps/pages.xml', '/sitemaps/products-1.xml']);
    const pages = (await get(parts[0]!)).body as string;
    expect(pages).toContain('<urlset ');
    expect(pages).toContain(`${server.baseUrl}/collection?market=ZA`);
    const products = (await get(parts[1]!)).body as string;
    expect(products).toMatch(/\/product\/\d+\?market=ZA/);
    expect(products).toContain('<image:image>');
    expect((await fetch(`${server.baseUrl}/sitemaps/products-2.xml`)).status).toBe(404);
    expect((await fetch(`${server.baseUrl}/sitemaps/products-0.xml`)).status).toBe(404);
  });
});
