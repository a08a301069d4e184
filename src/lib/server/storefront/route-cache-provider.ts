import type { CacheProvider } from 'astro';
import { MARKET_COOKIE, parseMarket } from '../../domain/markets';
import { getConfig } from '../infra/config';
import {
  acceptedEncoding,
  anonymousMarket,
  cacheKey,
  CSRF_SLOTS_HEADER,
  hasSession,
  marketCookie,
  matchesEtag,
  pageEntry,
  processPageCache,
  RENDERED_MARKET_HEADER,
  SEARCHED_HEADER,
  storePage,
  type CachedPage,
} from './page-cache';
import type { MarketCode } from '../../domain/markets';
import { personalisedFromStore } from './shared-pages';

/**
 * A crawlable `?market=ZA` URL also keeps the shopper's choice: the answer carries the market cookie
 * when it differs. Added here, around the cache, so cached pages stay cookie-free and a hit sets it too.
 */
function withMarketCookie(request: Request, response: Response): Response {
  const wanted = parseMarket(new URL(request.url).searchParams.get('market'));
  if (!wanted || wanted === marketCookie(request)) return response;
  const cookie = `${MARKET_COOKIE}=${wanted}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax${getConfig().secureCookies ? '; Secure' : ''}`;
  try {
    response.headers.append('set-cookie', cookie);
    return response;
  } catch {
    // immutable headers (Response.redirect): copy the response
    const copy = new Response(response.body, response);
    copy.headers.append('set-cookie', cookie);
    return copy;
  }
}

/**
 * The store's route cache provider (astro.config.mjs `cache.provider`), on Astro's Cache Provider
 * API and modelled on Astro's memory provider, with what a shop needs on top:
 * - requests with a session are never answered with the stored page as it is (Astro's provider
 *   would, without looking at cookies): a signed-in shopper's GET of a stored, fresh catalogue
 *   page gets it with their own parts put in (personalisedFromStore, ./shared-pages.ts), anything
 *   else goes on to the middleware (which renders and personalises what is not stored);
 * - ETags and 304s for anonymous repeat visits;
 * - stale-while-revalidate with one background render per page;
 * - one store per process (page-cache.ts) that services invalidate by tag, and a generation check
 *   so a render racing an invalidation is never stored.
 */
function parseDirectives(header: string | null): { maxAge: number; swr: number } {
  let maxAge = 0;
  let swr = 0;
  for (const part of (header ?? '').split(',')) {
    const [name, value] = part.trim().toLowerCase().split('=');
    if (name === 'max-age') maxAge = Number.parseInt(value ?? '', 10) || 0;
    if (name === 'stale-while-revalidate') swr = Number.parseInt(value ?? '', 10) || 0;
  }
  return { maxAge, swr };
}

/**
 * The entry to store for a response, or null. Only a page rendered in the market of its key is
 * stored: should the key and the render ever read a request differently, the page is served to
 * this request but never to the other market's shoppers.
 */
async function toEntry(response: Response, keyMarket: MarketCode): Promise<CachedPage | null> {
  if (response.status !== 200 || response.headers.has('set-cookie')) return null;
  if (response.headers.get(RENDERED_MARKET_HEADER) !== keyMarket) return null;
  const { maxAge, swr } = parseDirectives(response.headers.get('cdn-cache-control'));
  if (maxAge <= 0) return null;
  const tags = (response.headers.get('cache-tag') ?? '').split(',').map((t) => t.trim()).filter(Boolean);
  return pageEntry(new Uint8Array(await response.arrayBuffer()), response.status, response.headers, { maxAge, swr, tags });
}

/** Of the encodings the entry has been compressed in so far, the one the request takes (else none). */
function preferredEncoding(request: Request, entry: CachedPage): 'br' | 'gzip' | null {
  return acceptedEncoding(
    request,
    (['br', 'gzip'] as const).filter((encoding) => entry[encoding]),
  );
}

function fromEntry(entry: CachedPage, request: Request, state: 'HIT' | 'STALE' | 'MISS'): Response {
  const headers = new Headers(entry.headers);
  headers.set('etag', entry.etag);
  headers.set('x-cache', state);
  headers.append('vary', 'Accept-Encoding');
  if (matchesEtag(request, entry.etag)) return new Response(null, { status: 304, headers });
  const encoding = preferredEncoding(request, entry);
  if (!encoding) return new Response(entry.body.slice(), { status: entry.status, headers });
  // Already compressed: the HTTP server's compression passes encoded bodies through.
  const bytes = entry[encoding]!;
  headers.set('content-encoding', encoding);
  headers.set('content-length', String(bytes.length));
  return new Response(bytes.slice(), { status: entry.status, headers });
}

/** The rendered-market, searched and CSRF slots headers are for the cache only. */
const CACHE_ONLY_HEADERS = [RENDERED_MARKET_HEADER, SEARCHED_HEADER, CSRF_SLOTS_HEADER];
function withoutCacheHeaders(response: Response): Response {
  if (!CACHE_ONLY_HEADERS.some((name) => response.headers.has(name))) return response;
  try {
    for (const name of CACHE_ONLY_HEADERS) response.headers.delete(name);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    for (const name of CACHE_ONLY_HEADERS) copy.headers.delete(name);
    return copy;
  }
}

export default function routeCacheProvider(): CacheProvider {
  const store = processPageCache();
  const revalidating = new Set<string>();
  return {
    name: 'maison-route-cache',
    async onRequest({ request }, next) {
      return withMarketCookie(request, withoutCacheHeaders(await cachedOrRendered(request, next)));
    },
    async invalidate({ tags, path }) {
      if (tags) store.invalidateTags(Array.isArray(tags) ? tags : [tags]);
      if (path) store.invalidatePath(path);
    },
  };

  async function cachedOrRendered(request: Request, next: () => Promise<Response>): Promise<Response> {
    // The route cache: only anonymous GETs are looked up and stored. A signed-in shopper's GET of
    // a shared page that is stored and fresh is answered here too, with their parts put in.
    if (request.method !== 'GET') return next();
    if (hasSession(request)) return (await personalisedFromStore(request)) ?? next();
    const key = cacheKey(request);
    const market = anonymousMarket(request);
    const cached = store.get(key);
    const now = Date.now();
    if (cached) {
      const age = (now - cached.storedAt) / 1000;
      if (age <= cached.maxAge) {
        store.served(cached);
        return fromEntry(cached, request, 'HIT');
      }
      if (age <= cached.maxAge + cached.swr) {
        // The render that revalidates it records its search itself (catalogue.listProducts).
        if (revalidating.has(key)) store.served(cached);
        else {
          revalidating.add(key);
          const generation = store.generation;
          void next()
            .then(async (fresh) => {
              const entry = await toEntry(fresh, market);
              if (entry) storePage(store, key, entry, generation);
            })
            .catch(() => undefined)
            .finally(() => revalidating.delete(key));
        }
        return fromEntry(cached, request, 'STALE');
      }
    }
    const generation = store.generation;
    const response = await next();
    const entry = await toEntry(response, market);
    if (!entry) return response;
    storePage(store, key, entry, generation);
    return fromEntry(entry, request, 'MISS');
  }
}
