import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type { AstroGlobal, APIContext } from 'astro';
import { MARKET_COOKIE, parseMarket, resolveMarket, type MarketCode } from '../../domain/markets';
import { isTrackingParam } from '../../domain/page-url';
import type { ProductListDto } from '../../domain/catalogue';
import { requestCookie } from '../infra/cookies';
import { SESSION_COOKIE } from '../accounts/sessions';
import { acceptsEncoding, negotiateEncoding, type ContentEncoding } from '../infra/content-encoding';

/**
 * The route cache of anonymous catalogue pages (docs/decisions/0002).
 *
 * Astro's Cache Provider API runs the provider (./route-cache-provider.ts) around the middleware;
 * pages opt in with cacheForAnonymous(), which sets Astro.cache tags. The store below is one per
 * process; invalidation reaches every app server through the cache bus (./cache-bus.ts).
 *
 * A page rendered for a signed-in shopper must never reach another visitor, so a request that
 * carries a session (cookie or bearer token) skips the provider's lookup and storage, and stored
 * responses carry no Set-Cookie. Signed-in shoppers' catalogue pages are served from this same store
 * by ./shared-pages.ts: rendered for nobody, then given the shopper's own parts.
 */

/** Tags: one per product shown, `listing` on every page that lists products, `nav` on every page (the menu), `designers` on the designers' A–Z. */
export const cacheTags = {
  product: (id: number) => `product:${id}`,
  listing: 'listing',
  nav: 'nav',
  designers: 'designers',
} as const;

/** A session cookie or bearer token, read as the middleware reads them (./cookies.ts). */
export function hasSession(request: Request): boolean {
  if (request.headers.get('authorization')?.toLowerCase().startsWith('bearer ')) return true;
  return requestCookie(request, SESSION_COOKIE) !== undefined;
}

export function saveDataRequested(request: Request): boolean {
  return request.headers.get('save-data')?.trim().toLowerCase() === 'on';
}

/** The market cookie of a request, when it names a market (anonymous visitors: their market comes from it or from ?market=). */
export function marketCookie(request: Request): MarketCode | null {
  return parseMarket(requestCookie(request, MARKET_COOKIE));
}

/**
 * The market a page is rendered in for an anonymous request, as the middleware resolves it:
 * ?market= first, then the market cookie. The route cache keys and checks its entries by it.
 */
export function anonymousMarket(request: Request): MarketCode {
  return resolveMarket({ query: new URL(request.url).searchParams.get('market'), cookie: marketCookie(request) });
}

/**
 * The cache key: path, the meaningful query sorted, and the variants a page is rendered in: the
 * market (from ?market= or else the market cookie, as the middleware resolves it) and Save-Data.
 */
export function cacheKey(request: Request, market: MarketCode = anonymousMarket(request)): string {
  const url = new URL(request.url);
  const params = new URLSearchParams();
  for (const [k, v] of url.searchParams) if (!isTrackingParam(k) && k !== 'market') params.append(k, v);
  params.sort();
  const query = params.toString();
  return `${url.pathname}${query ? `?${query}` : ''}\0market=${market}${saveDataRequested(request) ? '\0save-data' : ''}`;
}

/**
 * A search a stored page answers (a search page's first page, or the catalogue API's), noted so
 * each time the store serves it the search is still recorded for the back office's report, as a
 * render records it (catalogue.listProducts).
 */
export interface SearchedNote {
  query: string;
  results: number;
  market: MarketCode;
}

/** Carries a rendered page's SearchedNote (JSON, URI-encoded: header values are Latin-1) to the route cache; never sent. */
export const SEARCHED_HEADER = 'x-searched';

/** The note for a list of products answering a search on its first page (the one listProducts records), else undefined. */
export function searchedNote(list: Pick<ProductListDto, 'search' | 'totalDocs' | 'page'>, market: MarketCode): SearchedNote | undefined {
  return list.search && list.page === 1 ? { query: list.search.query, results: list.totalDocs, market } : undefined;
}

function searchedNoteOf(headers: Headers): SearchedNote | undefined {
  const raw = headers.get(SEARCHED_HEADER);
  if (!raw) return undefined;
  try {
    const { query, results, market } = JSON.parse(decodeURIComponent(raw)) as Partial<SearchedNote>;
    const inMarket = parseMarket(market);
    return typeof query === 'string' && typeof results === 'number' && inMarket ? { query, results, market: inMarket } : undefined;
  } catch {
    return undefined;
  }
}

export interface CachedPage {
  body: Uint8Array;
  /** The body brotli'd and gzipped once, shortly after storing, so hits are not compressed again. */
  br?: Uint8Array;
  gzip?: Uint8Array;
  /** A shared page's CSRF slots (shared-pages.ts `slotted`): where each signed-in shopper's token goes. */
  slots?: number[];
  status: number;
  headers: [string, string][];
  etag: string;
  storedAt: number;
  maxAge: number;
  swr: number;
  tags: string[];
  searched?: SearchedNote;
}

/**
 * The market a response was rendered in, set by the middleware (which resolved it) and read and
 * removed by the route cache: an entry is stored only under the key of the market it shows.
 */
export const RENDERED_MARKET_HEADER = 'x-rendered-market';

/** Carries where a shared page's CSRF slots are (offsets, comma-separated) from the middleware to the route cache; never sent. */
export const CSRF_SLOTS_HEADER = 'x-csrf-slots';

function slotsOf(headers: Headers): number[] | undefined {
  const raw = headers.get(CSRF_SLOTS_HEADER);
  if (raw === null) return undefined;
  return raw === '' ? [] : raw.split(',').map(Number);
}

/** Headers that belong to one response only and are never stored. */
const UNSTORED_HEADERS = new Set(['set-cookie', 'x-request-id', 'cdn-cache-control', 'cache-tag', 'x-cache', 'etag', RENDERED_MARKET_HEADER, SEARCHED_HEADER, CSRF_SLOTS_HEADER]);

export function storeableHeaders(headers: Headers): [string, string][] {
  const kept: [string, string][] = [];
  headers.forEach((value, key) => {
    if (!UNSTORED_HEADERS.has(key.toLowerCase())) kept.push([key, value]);
  });
  return kept;
}

export function etagOf(body: Uint8Array): string {
  return `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
}

/** Whether a request's If-None-Match names this ETag (a list, weak or strong, or `*`). */
export function matchesEtag(request: Request, etag: string): boolean {
  const wanted = request.headers.get('if-none-match');
  if (!wanted) return false;
  return wanted.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/**
 * The cache-control of a public answer asked for by a signed-in shopper (cacheForAnonymous): kept
 * out of shared caches, the route cache included, but revalidated by the browser with its ETag.
 */
export const PRIVATE_REVALIDATE = 'private, no-cache';

/**
 * A public answer made for a signed-in request (catalogue JSON: the same for everyone in the
 * market) given an ETag of its body, and a 304 when the browser already holds it: a phone that
 * signed in pays for the home page's lists once, not again on every visit.
 */
export async function revalidatedPrivately(request: Request, response: Response): Promise<Response> {
  if (request.method !== 'GET' || response.status !== 200 || response.headers.get('cache-control') !== PRIVATE_REVALIDATE || !response.body) return response;
  const body = new Uint8Array(await response.arrayBuffer());
  const etag = etagOf(body);
  const headers = new Headers(response.headers);
  headers.set('etag', etag);
  if (matchesEtag(request, etag)) {
    headers.delete('content-length');
    headers.delete('content-type');
    return new Response(null, { status: 304, headers });
  }
  return new Response(body, { status: 200, headers });
}

/** What a page asked of the cache (Astro.cache.set): how long it stays fresh, then stale, and its tags. */
export interface CacheDirectives {
  maxAge: number;
  swr: number;
  tags: readonly string[];
}

/** The entry to store for a rendered page's body and headers, or null when the page is not to be stored. */
export function pageEntry(body: Uint8Array, status: number, headers: Headers, { maxAge, swr, tags }: CacheDirectives, slots = slotsOf(headers)): CachedPage | null {
  if (status !== 200 || maxAge <= 0 || headers.has('set-cookie')) return null;
  const searched = searchedNoteOf(headers);
  return { body, status, headers: storeableHeaders(headers), etag: etagOf(body), storedAt: Date.now(), maxAge, swr, tags: [...tags], ...(searched ? { searched } : {}), ...(slots ? { slots } : {}) };
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Brotli's quality for a stored page: 10 makes the home page and the product lists about 8% smaller
 * than 9 for about twice the time (some 20 ms for a 120 KB collection page), once per stored copy,
 * in the thread pool; 11 saves little more for four times as long.
 */
const STORED_BROTLI_QUALITY = 10;

/** Compresses a stored page once, off the request path; until then hits are compressed as they go out. */
export async function precompress(entry: CachedPage): Promise<void> {
  const [br, gz] = await Promise.all([
    brotliAsync(entry.body, { params: { [constants.BROTLI_PARAM_QUALITY]: STORED_BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: entry.body.length } }),
    gzipAsync(entry.body, { level: 9 }),
  ]);
  entry.br = br;
  entry.gzip = gz;
}

/** Whether a request accepts an encoding (q above 0). */
export function accepts(request: Request, encoding: ContentEncoding): boolean {
  return acceptsEncoding(request.headers.get('accept-encoding'), encoding);
}

/** The encoding to answer a request with, of those `offered`: brotli first where the client likes both as much (as the HTTP server's compression chooses). */
export function acceptedEncoding(request: Request, offered?: readonly ContentEncoding[]): ContentEncoding | null {
  return negotiateEncoding(request.headers.get('accept-encoding'), offered);
}

/**
 * A page made for one request (a shared page with a shopper's parts put in), compressed in one
 * call, brotli at quality 4 as the HTTP server's compression uses. Synchronously, on purpose:
 * about 1 ms for a 120 KB collection page, where the thread pool's streamed compression passes
 * the page in 16 KB chunks, each a round trip, and served a third as many pages per second
 * (`npm run bench`, ADR 0018).
 */
export function compressOnce(request: Request, body: Uint8Array<ArrayBuffer>): { bytes: Uint8Array<ArrayBuffer>; encoding: 'br' | 'gzip' | null } {
  const encoding = acceptedEncoding(request);
  if (encoding === 'br') return { bytes: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }), encoding };
  if (encoding === 'gzip') return { bytes: gzipSync(body, { level: 6 }), encoding };
  return { bytes: body, encoding: null };
}

/**
 * A rendered page that no cache keeps (a search, a shopper's own page), compressed whole in one
 * call like a personalised page (compressOnce) instead of streamed through the HTTP server's
 * compression: a search page of 48 cards went through the thread pool in 16 KB round trips while
 * the main thread waited. A page that fails while rendering now fails whole.
 */
export async function compressedWhole(request: Request, response: Response): Promise<Response> {
  const type = response.headers.get('content-type') ?? '';
  if (request.method !== 'GET' || response.status !== 200 || !response.body || response.headers.has('content-encoding') || !type.startsWith('text/html')) return response;
  const { bytes, encoding } = compressOnce(request, new Uint8Array(await response.arrayBuffer()));
  const headers = new Headers(response.headers);
  if (encoding) headers.set('content-encoding', encoding);
  headers.append('vary', 'Accept-Encoding');
  headers.set('content-length', String(bytes.length));
  return new Response(bytes, { status: response.status, headers });
}

/** Stores an entry rendered since `generation` (unless an invalidation came in between) and compresses it off the request path. */
export function storePage(store: PageCacheStore, key: string, entry: CachedPage, generation: number): void {
  if (store.set(key, entry, generation)) void precompress(entry).catch(() => undefined);
}

/**
 * What a stored page weighs: its body and, once precompressed, its brotli and gzip copies (about a
 * third of it), and for a shared page read by signed-in shoppers its gzip layout (a fifth or so).
 */
const weightOf = (entry: CachedPage) => Math.ceil(entry.body.length * 1.5);

/**
 * An LRU of rendered pages with tag invalidation, bounded by count and by bytes: searches are
 * stored too, and a stream of made-up queries must push out only older pages, never grow memory.
 */
export class PageCacheStore {
  #entries = new Map<string, CachedPage>();
  #max: number;
  #maxBytes: number;
  #bytes = 0;
  /** Bumped by every invalidation: a render that started before one is not stored (it may be stale). */
  generation = 0;
  #listeners: ((tags: readonly string[] | 'all') => void)[] = [];
  #servedListeners: ((entry: CachedPage) => void)[] = [];

  constructor(max = 2000, maxBytes = 128 * 1024 * 1024) {
    this.#max = max;
    this.#maxBytes = maxBytes;
  }

  get(key: string): CachedPage | undefined {
    const entry = this.#entries.get(key);
    if (entry) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, entry: CachedPage, generationAtStart: number): boolean {
    if (generationAtStart !== this.generation) return false;
    this.#remove(key);
    this.#entries.set(key, entry);
    this.#bytes += weightOf(entry);
    // Oldest first, never the page just stored.
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#max && this.#bytes <= this.#maxBytes) break;
      if (oldest === key) break;
      this.#remove(oldest);
    }
    return true;
  }

  #remove(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= weightOf(entry);
  }

  /** Other in-memory copies (the menu's categories) follow the same invalidations. */
  onInvalidate(listener: (tags: readonly string[] | 'all') => void): void {
    this.#listeners.push(listener);
  }

  /** Told of each answer made from a stored page without rendering it (the search report counts them: services.ts). */
  onServed(listener: (entry: CachedPage) => void): void {
    this.#servedListeners.push(listener);
  }

  /** An answer was made from this stored page, not rendered (a hit, a 304, a signed-in shopper's copy). */
  served(entry: CachedPage): void {
    for (const l of this.#servedListeners) l(entry);
  }

  invalidateTags(tags: readonly string[]): number {
    this.generation++;
    for (const l of this.#listeners) l(tags);
    const wanted = new Set(tags);
    let removed = 0;
    for (const [key, entry] of this.#entries) {
      if (entry.tags.some((t) => wanted.has(t))) {
        this.#remove(key);
        removed++;
      }
    }
    return removed;
  }

  invalidatePath(pathname: string): void {
    this.generation++;
    for (const key of [...this.#entries.keys()]) {
      if (key === pathname || key.startsWith(`${pathname}?`) || key.startsWith(`${pathname}\0`)) this.#remove(key);
    }
  }

  clear(): void {
    this.generation++;
    for (const l of this.#listeners) l('all');
    this.#entries.clear();
    this.#bytes = 0;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The weight of what is stored (weightOf), for the bound and /metrics. */
  get bytes(): number {
    return this.#bytes;
  }
}

const STORE = Symbol.for('maison.pageCacheStore');
/** The process's one store, shared by the cache provider and the services that invalidate it. */
export function processPageCache(): PageCacheStore {
  const g = globalThis as { [STORE]?: PageCacheStore };
  return (g[STORE] ??= new PageCacheStore());
}

/** What services use to say that pages changed; the cache bus also tells the other app servers. */
export interface PageCacheInvalidator {
  invalidate(tags: readonly string[]): Promise<void>;
}

export const noPageCache: PageCacheInvalidator = { invalidate: async () => undefined };

type CacheContext = Pick<APIContext, 'locals' | 'cache' | 'request'>;

/**
 * Marks a public page or API answer as cacheable for anonymous visitors, tagged with what it
 * shows, and returns the headers for the response. Browsers revalidate every time (no-cache;
 * the ETag turns a repeat visit into a 304 on a slow network) while the server answers from
 * its route cache. A signed-in request gets a private answer, revalidated by its ETag
 * (revalidatedPrivately; pages for a signed-in shopper are never stored: see the middleware).
 */
export function cacheForAnonymous(ctx: CacheContext, tags: readonly string[], searched?: SearchedNote): Record<string, string> {
  // A page rendered for the shared cache (shared-pages.ts) is rendered for nobody, whoever asked.
  if (ctx.locals.session || (hasSession(ctx.request) && !ctx.locals.sharedRender)) {
    ctx.cache.set(false);
    return { 'cache-control': PRIVATE_REVALIDATE };
  }
  const seconds = ctx.locals.services.config.PAGE_CACHE_SECONDS;
  if (seconds <= 0) return { 'cache-control': 'no-cache', vary: 'Save-Data' };
  ctx.cache.set({ maxAge: seconds, swr: 600, tags: [...new Set([cacheTags.nav, ...tags])] });
  return { 'cache-control': 'no-cache', vary: 'Save-Data', ...(searched ? { [SEARCHED_HEADER]: encodeURIComponent(JSON.stringify(searched)) } : {}) };
}

/** cacheForAnonymous for .astro pages. */
export function cachePage(astro: Pick<AstroGlobal, 'locals' | 'cache' | 'request' | 'response'>, tags: readonly string[], searched?: SearchedNote): void {
  for (const [k, v] of Object.entries(cacheForAnonymous(astro, tags, searched))) astro.response.headers.set(k, v);
}
