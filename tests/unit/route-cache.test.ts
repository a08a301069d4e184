import { describe, expect, it } from 'vitest';
import routeCacheProvider from '@/lib/server/storefront/route-cache-provider';
import { cacheKey, hasSession, marketCookie, PageCacheStore, processPageCache, RENDERED_MARKET_HEADER } from '@/lib/server/storefront/page-cache';
import { requestCookie } from '@/lib/server/infra/cookies';

const request = (path: string, cookie?: string) => new Request(`http://localhost${path}`, cookie ? { headers: { cookie } } : {});

/** A cacheable page as the middleware answers it, rendered in `market`. */
const rendered = (market: string) => async () =>
  new Response('<p>page</p>', { status: 200, headers: { 'content-type': 'text/html', 'cdn-cache-control': 'max-age=60', [RENDERED_MARKET_HEADER]: market } });

describe('route cache: one reading of cookies, and entries only under their own market', () => {
  it('reads cookies as Astro does: trimmed, URL-decoded, quoted', () => {
    expect(requestCookie(request('/', 'ml_market=%5A%41'), 'ml_market')).toBe('ZA');
    expect(requestCookie(request('/', 'ml_market =ZA'), 'ml_market')).toBe('ZA');
    expect(requestCookie(request('/', 'a=1;ml_market= ZA '), 'ml_market')).toBe('ZA');
    expect(requestCookie(request('/', 'ml_market=%E0%A4%A'), 'ml_market')).toBe('%E0%A4%A');
    expect(requestCookie(request('/', 'ml_market='), 'ml_market')).toBeUndefined();
    expect(marketCookie(request('/', 'ml_market=%5A%41'))).toBe('ZA');
    expect(cacheKey(request('/product/1', 'ml_market =ZA'))).toBe(cacheKey(request('/product/1?market=ZA')));
    expect(hasSession(request('/', 'ml_session =abc'))).toBe(true);
    expect(hasSession(request('/', 'x=1; ml_session=%61'))).toBe(true);
    expect(hasSession(request('/', 'ml_session='))).toBe(false);
  });

  it('refuses to store a page rendered in another market than its key, and serves it unstored', async () => {
    const provider = routeCacheProvider();
    const store = processPageCache();
    store.clear();
    const ctx = (req: Request) => ({ request: req, url: new URL(req.url), logger: { info() {}, warn() {}, error() {} } });
    // The key says Nigeria (no cookie), the render says South Africa: served, not stored.
    const mismatched = await provider.onRequest!(ctx(request('/product/9')), rendered('ZA'));
    expect(mismatched.status).toBe(200);
    expect(mismatched.headers.get(RENDERED_MARKET_HEADER)).toBeNull();
    expect(store.size).toBe(0);
    // Without a marker the render's market is unknown: not stored either.
    await provider.onRequest!(ctx(request('/product/9')), async () => new Response('x', { headers: { 'cdn-cache-control': 'max-age=60' } }));
    expect(store.size).toBe(0);
    // The same page rendered in the key's market is stored, without the marker.
    const matched = await provider.onRequest!(ctx(request('/product/9')), rendered('NG'));
    expect(matched.headers.get('x-cache')).toBe('MISS');
    expect(matched.headers.get(RENDERED_MARKET_HEADER)).toBeNull();
    expect(store.size).toBe(1);
    const hit = await provider.onRequest!(ctx(request('/product/9')), rendered('ZA'));
    expect(hit.headers.get('x-cache')).toBe('HIT');
    expect(hit.headers.get(RENDERED_MARKET_HEADER)).toBeNull();
    store.clear();
  });
});

describe('route cache store: bounded by bytes as well as pages', () => {
  const page = (bytes: number) => ({ body: new Uint8Array(bytes), status: 200, headers: [], etag: '"x"', storedAt: Date.now(), maxAge: 60, swr: 0, tags: ['listing'] });

  it('drops the oldest pages when what it holds would weigh more than its bound, never the page just stored', () => {
    const store = new PageCacheStore(100, 10_000);
    for (let i = 0; i < 5; i++) store.set(`/collection?q=${i}`, page(2_000), store.generation);
    // Five pages of 2,000 bytes weigh 13,000 with their compressed copies: the two oldest go.
    expect(store.size).toBe(3);
    expect(store.get('/collection?q=0')).toBeUndefined();
    expect(store.get('/collection?q=1')).toBeUndefined();
    expect(store.get('/collection?q=4')).toBeDefined();
    expect(store.bytes).toBeLessThanOrEqual(10_000);
    // A page heavier than the bound alone is still kept (the only one).
    store.set('/collection?q=huge', page(20_000), store.generation);
    expect(store.size).toBe(1);
    expect(store.invalidateTags(['listing'])).toBe(1);
    expect(store.bytes).toBe(0);
  });

  it('tells its listeners of each answer made from a stored page', () => {
    const store = new PageCacheStore();
    const served: string[] = [];
    store.onServed((entry) => served.push(entry.searched?.query ?? '-'));
    const entry = { ...page(10), searched: { query: 'tote', results: 3, market: 'NG' as const } };
    store.set('/collection?q=tote', entry, store.generation);
    store.served(store.get('/collection?q=tote')!);
    expect(served).toEqual(['tote']);
  });
});
