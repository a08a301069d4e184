import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePaystack, type FakePaystack } from '../support/fake-paystack';
import { startServer, type RunningServer } from '../support/server';
import { buyingClient, DEMO, type Variant } from './buying-client';

/**
 * The store behind a TLS-terminating proxy: the browser is on https://shop.example, the
 * app sees http:// on its socket. Requests are sent the way nginx forwards a browser's
 * (deploy/nginx.conf): Host and X-Forwarded-Proto set by the proxy, the browser's Origin and cookie.
 */
interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

function send(baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const target = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(target, { method, headers: { ...headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () => {
        let json: unknown = null;
        try {
          json = JSON.parse(text);
        } catch {
          // a page or an empty redirect
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const PUBLIC = 'https://shop.example';
/** What nginx adds to every request it passes on (deploy/nginx.conf). */
const viaProxy = { host: 'shop.example', 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' };
/** The product form's fields for one unit of a variant. */
const lineForm = (v: Variant) => new URLSearchParams({ productId: String(v.productId), quantity: '1', ...(v.color ? { color: v.color } : {}), ...(v.size ? { size: v.size } : {}) }).toString();
const cookiesOf = (a: Answer) => ([] as string[]).concat(a.headers['set-cookie'] ?? []);
const sessionCookie = (a: Answer) => cookiesOf(a).find((c) => c.startsWith('ml_session='));

describe('a store with PUBLIC_SITE_URL=https://shop.example behind a TLS-terminating proxy', () => {
  let server: RunningServer;
  let paystack: FakePaystack;
  let bag: Variant;
  let cookie: string;
  const browser = (extra: Record<string, string> = {}) => ({ ...viaProxy, origin: PUBLIC, cookie, ...extra });

  beforeAll(async () => {
    paystack = await startFakePaystack();
    server = await startServer('pglite', {
      PUBLIC_SITE_URL: PUBLIC,
      TRUST_PROXY: '127.0.0.1',
      PAYMENT_PROVIDER: 'paystack',
      PAYSTACK_SECRET_KEY: paystack.secretKey,
      PAYSTACK_BASE_URL: paystack.baseUrl,
    });
    bag = await buyingClient(server.baseUrl).variant({ minStock: 3, sized: false });
  });
  afterAll(async () => {
    await server?.stop();
    await paystack?.close();
  });

  it('signs in from the browser (Origin https://shop.example) and sets a Secure session cookie', async () => {
    const res = await send(server.baseUrl, 'POST', '/api/v1/user-auth/login', { ...viaProxy, origin: PUBLIC, 'content-type': 'application/json' }, JSON.stringify(DEMO));
    expect(res.json?.message).not.toBe('Cross-site requests are not allowed');
    expect(res.status).toBe(200);
    const session = sessionCookie(res);
    expect(session).toMatch(/;\s*Secure/i);
    expect(session).toMatch(/;\s*HttpOnly/i);
    cookie = session!.split(';')[0]!;
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
  });

  it('adds to the cart and starts a checkout whose payment callback is on https://shop.example', async () => {
    const add = await send(
      server.baseUrl,
      'POST',
      '/api/v1/cart/add-to-cart',
      browser({ 'content-type': 'application/json' }),
      JSON.stringify({ productId: bag.productId, color: bag.color, size: bag.size, quantity: 1 }),
    );
    expect(add.status).toBe(200);
    const initiate = await send(server.baseUrl, 'POST', '/api/v1/orders/initiate', browser({ 'content-type': 'application/json' }), '{}');
    expect(initiate.status).toBe(200);
    const reference = initiate.json.data.reference as string;
    const given = paystack.transactions.get(reference);
    expect(given?.callbackUrl).toBe(`${PUBLIC}/place-order?paid=true`);
    // A callback on the socket's origin (http://…) is not on this site.
    const socketCallback = await send(server.baseUrl, 'POST', '/api/v1/orders/initiate', browser({ 'content-type': 'application/json' }), JSON.stringify({ callbackUrl: `http://shop.example/place-order` }));
    expect(socketCallback.status).toBe(400);
  });

  it('still refuses a write from another site', async () => {
    const res = await send(server.baseUrl, 'POST', '/api/v1/cart/add-to-cart', browser({ origin: 'https://evil.example', 'content-type': 'application/json' }), JSON.stringify({ productId: bag.productId, color: bag.color, size: bag.size, quantity: 1 }));
    expect(res.status).toBe(403);
    expect(res.json?.message).toBe('Cross-site requests are not allowed');
    // nor does the socket's own http:// origin count as this site
    const socket = await send(server.baseUrl, 'POST', '/api/v1/cart/add-to-cart', browser({ origin: 'http://shop.example', 'content-type': 'application/json' }), JSON.stringify({ productId: bag.productId, color: bag.color, size: bag.size, quantity: 1 }));
    expect(socket.status).toBe(403);
  });

  it('takes plain form posts (no JavaScript) and sends them on to local paths', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html,application/xhtml+xml' };
    const login = await send(server.baseUrl, 'POST', '/api/v1/user-auth/login', { ...viaProxy, ...form, origin: PUBLIC, referer: `${PUBLIC}/login` }, `email=${encodeURIComponent(DEMO.email)}&password=${encodeURIComponent(DEMO.password)}`);
    expect(login.status).toBe(303);
    expect(login.headers.location).toMatch(/^\/(?!\/)/);
    expect(sessionCookie(login)).toMatch(/;\s*Secure/i);
    const formCookie = sessionCookie(login)!.split(';')[0]!;
    const add = await send(server.baseUrl, 'POST', '/api/v1/cart/add-to-cart', { ...viaProxy, ...form, origin: PUBLIC, cookie: formCookie, referer: `${PUBLIC}/product/${bag.productId}` }, lineForm(bag));
    expect(add.status).toBe(303);
    expect(add.headers.location).toMatch(/^\/cart\?notice=/);
    // A failure goes back to the form it came from: the Referer is on the public origin.
    const wrong = await send(server.baseUrl, 'POST', '/api/v1/user-auth/login', { ...viaProxy, ...form, origin: PUBLIC, referer: `${PUBLIC}/login?from=test` }, `email=${encodeURIComponent(DEMO.email)}&password=wrong-password`);
    expect(wrong.status).toBe(303);
    expect(wrong.headers.location).toMatch(/^\/login\?from=test&error=/);
    // Pay: the form goes to the provider's page, whose callback is on the public origin.
    const pay = await send(server.baseUrl, 'POST', '/api/v1/orders/initiate', { ...viaProxy, ...form, origin: PUBLIC, cookie: formCookie, referer: `${PUBLIC}/place-order` }, 'deliveryOption=pickup');
    expect(pay.status).toBe(303);
    expect(pay.headers.location).toMatch(new RegExp(`^${paystack.baseUrl}/checkout/`));
    const started = [...paystack.transactions.values()].at(-1);
    expect(started?.callbackUrl).toBe(`${PUBLIC}/place-order?paid=true`);
  });

  it('switches market through the no-script form and sets its cookie Secure', async () => {
    const res = await send(
      server.baseUrl,
      'POST',
      '/market',
      { ...viaProxy, origin: PUBLIC, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      `market=ZA&back=${encodeURIComponent('/collection')}`,
    );
    expect(res.status).toBe(303);
    expect(res.headers.location).toMatch(/^\/collection\?notice=/);
    expect(cookiesOf(res).find((c) => c.startsWith('ml_market='))).toMatch(/;\s*Secure/i);
  });
});

describe('a store without PUBLIC_SITE_URL behind a trusted proxy (TRUST_PROXY)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer('pglite', { PUBLIC_SITE_URL: '', TRUST_PROXY: '127.0.0.1' });
  });
  afterAll(async () => server?.stop());

  it("takes the public origin from the proxy's X-Forwarded-Proto and Host", async () => {
    const login = await send(server.baseUrl, 'POST', '/api/v1/user-auth/login', { ...viaProxy, origin: PUBLIC, 'content-type': 'application/json' }, JSON.stringify(DEMO));
    expect(login.status).toBe(200);
    expect(sessionCookie(login)).toMatch(/;\s*Secure/i);
    const cookie = sessionCookie(login)!.split(';')[0]!;
    const bag = await buyingClient(server.baseUrl).variant({ minStock: 3, sized: false });
    const add = await send(server.baseUrl, 'POST', '/api/v1/cart/add-to-cart', { ...viaProxy, origin: PUBLIC, cookie, 'content-type': 'application/json' }, JSON.stringify({ productId: bag.productId, color: bag.color, size: bag.size, quantity: 1 }));
    expect(add.status).toBe(200);
    const initiate = await send(server.baseUrl, 'POST', '/api/v1/orders/initiate', { ...viaProxy, origin: PUBLIC, cookie, 'content-type': 'application/json' }, '{}');
    expect(initiate.status).toBe(200);
    expect(initiate.json.data.authorization_url).toMatch(/^https:\/\/shop\.example\/pay\/simulated\//);
  });

  it('the RFC 7239 Forwarded header works too; another site is still refused', async () => {
    const forwarded = { host: 'internal:4321', forwarded: 'for=203.0.113.9;proto=https;host=shop.example' };
    const ok = await send(server.baseUrl, 'POST', '/api/v1/user-auth/login', { ...forwarded, origin: PUBLIC, 'content-type': 'application/json' }, JSON.stringify(DEMO));
    expect(ok.status).toBe(200);
    const evil = await send(server.baseUrl, 'POST', '/api/v1/user-auth/login', { ...viaProxy, origin: 'https://evil.example', 'content-type': 'application/json' }, JSON.stringify(DEMO));
    expect(evil.status).toBe(403);
  });
});
