import { gunzipSync } from 'node:zlib';
import type { APIContext, MiddlewareNext } from 'astro';
import { SESSION_COOKIE, type ActiveSession } from '../accounts/sessions';
import { getServices, type Services } from '../services';
import { MARKET_COOKIE, resolveMarket } from '../../domain/markets';
import { requestCookie } from '../infra/cookies';
import { CSRF_TOKEN_LENGTH, csrfTokenFor, hasBearer } from '../infra/csrf';
import type { Logger } from '../infra/log';
import { accepts, cacheKey, compressOnce, CSRF_SLOTS_HEADER, pageEntry, processPageCache, SEARCHED_HEADER, storePage, type CachedPage } from './page-cache';
import { CSRF_SLOT, personalise, signedInGzip, signedInLayout, slotted, type PersonalParts, type SignedInLayout } from './personal-page';

/**
 * Signed-in shoppers' catalogue pages from the shared route cache (ADR 0016). The catalogue
 * pages (home, collection and search, product, content) are rendered for nobody: no session,
 * and a slot where each form's CSRF token goes. That render is the one the route cache stores
 * for anonymous visitors too, under the same key (path, query, market,
 * Save-Data). A signed-in shopper gets it with their own parts put in (personalise): who is signed
 * in, the cart count, their hearts and their CSRF token. Nothing personal is ever in what is
 * stored, so nothing personal can reach another shopper.
 */

/** Slot offsets as the rendered page carries them to the route cache (CSRF_SLOTS_HEADER). */
export const slotsHeader = (slots: readonly number[]) => slots.join(',');

/**
 * An anonymous visitor's render of a shared page with its slots taken out (slotted): where they
 * are goes to the route cache in CSRF_SLOTS_HEADER; a page with the marker anywhere else is
 * answered (without it) but never stored.
 */
export async function withSlotsTakenOut(response: Response): Promise<Response> {
  if (!response.body || !response.headers.get('content-type')?.startsWith('text/html') || response.headers.has('content-encoding')) return response;
  const { body, slots, stray } = slotted(new Uint8Array(await response.arrayBuffer()));
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  if (stray) headers.delete('cdn-cache-control');
  else headers.set(CSRF_SLOTS_HEADER, slotsHeader(slots));
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** The pages rendered for nobody, for anonymous and signed-in shoppers alike: the ones that call cachePage. */
const SHARED_PAGES = [/^\/$/, /^\/collection\/?$/, /^\/designers\/?$/, /^\/product\/[^/]+\/?$/, /^\/Bags-men\/?$/, /^\/(about|contact|privacy)\/?$/];

export function isSharedPage(pathname: string): boolean {
  return SHARED_PAGES.some((p) => p.test(pathname));
}

/** A shopper whose page checks each new layout against personalise (names with markup, a cart with items). */
const PROBE_SHOPPER: PersonalParts = {
  session: { user: { id: 'u-probe', firstName: 'Ọlá & <Chí> "O\'Neil"', lastName: 'Obi', email: 'probe@example.com', imageHash: null, country: 'nigeria' } } as unknown as ActiveSession,
  csrfToken: 't'.repeat(CSRF_TOKEN_LENGTH),
  cartCount: 3,
  favouriteIds: new Set(),
};

/** Each stored page's layout (null: it has none), or the promise of it while it is made, so one page is laid out once however many shoppers ask at the same time. */
const layouts = new WeakMap<CachedPage, SignedInLayout | null | Promise<unknown>>();

/**
 * A stored page's layout for signed-in shoppers, made once in the background on the first
 * signed-in hit (until then that page is compressed whole). It is checked once against the page
 * itself: a layout that would not give the page back is never used (logged).
 */
function layoutOf(entry: CachedPage, log: Logger): SignedInLayout | null {
  const known = layouts.get(entry);
  if (known !== undefined) return known instanceof Promise ? null : known;
  const making = signedInLayout(entry.body, entry.slots ?? [])
    .then((layout) => {
      if (layout && !gunzipSync(signedInGzip(layout, PROBE_SHOPPER)!).equals(personalise(entry.body, entry.slots ?? [], PROBE_SHOPPER).body)) {
        log.error('gzip layout does not give the page back', { bytes: entry.body.length });
        layout = null;
      }
      layouts.set(entry, layout);
    })
    .catch((err: unknown) => {
      log.error('gzip layout failed', { err });
      layouts.set(entry, null);
    });
  layouts.set(entry, making);
  return null;
}

/** The shopper's own parts of a shared page, read while the page is looked up or rendered. */
function personalPartsOf(services: Services, session: ActiveSession): Promise<[number | null, number[]]> {
  return Promise.all([services.cart.count(session.user).catch(() => null), services.favourites.ids(session.user.id).catch(() => [] as number[])]);
}

/** A page rendered for nobody, stored or just rendered (with its slots taken out). */
interface SharedPage {
  body: Uint8Array;
  slots: number[];
  status: number;
  headers: Headers | [string, string][];
  state: 'HIT' | 'MISS';
  stored?: CachedPage;
  /** The marker was found outside its slots (slotted): answered, never stored. */
  stray?: boolean;
}

/** A shared page's headers that a shopper's copy does not carry, or carries its own of. */
const NOT_PASSED_ON = new Set(['etag', SEARCHED_HEADER, 'x-cache', 'cache-control', 'content-encoding', 'content-length']);

/**
 * A page rendered for nobody (stored or just rendered) made into the shopper's answer: their parts
 * put in, private and never stored, compressed once. Returns null when a part could not be found
 * (logged): such a page must not be stored either.
 */
function personalAnswer(
  request: Request,
  page: SharedPage,
  parts: PersonalParts,
  log: Logger,
): { response: Response; complete: boolean } {
  // From the stored page's layout when it has one and it fits (no heart of theirs pressed, gzip
  // accepted), else the page put together and compressed whole.
  const layout = page.stored && accepts(request, 'gzip') ? layoutOf(page.stored, log) : null;
  const laidOut = layout ? signedInGzip(layout, parts) : null;
  let answer: { bytes: Uint8Array<ArrayBuffer>; encoding: string | null };
  let complete = true;
  if (laidOut) answer = { bytes: laidOut, encoding: 'gzip' };
  else {
    const { body, missing } = personalise(page.body, page.slots, parts);
    if (missing.length) log.error('shared page without its personal parts', { path: new URL(request.url).pathname, missing });
    complete = missing.length === 0;
    answer = compressOnce(request, body);
  }
  // Given as a list, made into the response's headers once.
  const headers: [string, string][] = [];
  for (const [name, value] of page.headers) if (!NOT_PASSED_ON.has(name.toLowerCase())) headers.push([name, value]);
  headers.push(
    ['x-cache', page.state],
    // A page with a shopper's name in it: never stored by any cache.
    ['cache-control', 'private, no-store'],
    ['vary', 'Accept-Encoding'],
    ['content-length', String(answer.bytes.length)],
  );
  if (answer.encoding) headers.push(['content-encoding', answer.encoding]);
  return { response: new Response(answer.bytes, { status: page.status, headers }), complete };
}

/** The CSRF tokens of sessions shown lately, by the session's hash: an HMAC per page was a tenth of a signed-in page's time. */
const csrfTokensShown = new Map<string, string>();
const CSRF_TOKENS_KEPT = 10_000;

function shownCsrfToken(session: ActiveSession, cookieToken: string): string {
  let token = csrfTokensShown.get(session.tokenHash);
  if (token === undefined) {
    token = csrfTokenFor(cookieToken);
    if (csrfTokensShown.size >= CSRF_TOKENS_KEPT) csrfTokensShown.delete(csrfTokensShown.keys().next().value!);
    csrfTokensShown.set(session.tokenHash, token);
  }
  return token;
}

/**
 * A signed-in shopper's GET of a shared page answered by the route cache provider, before Astro's
 * pipeline and the middleware, when the page is stored and fresh (the common case): the session
 * as pages show it (sessions.shown), the market as the middleware resolves it, their parts put in.
 * Null sends the request on to the middleware (servePersonalised), which renders what is missing
 * and handles whatever else (an unknown session, the database away).
 */
export async function personalisedFromStore(request: Request): Promise<Response | null> {
  if (request.method !== 'GET' || hasBearer(request)) return null;
  const url = new URL(request.url);
  if (!isSharedPage(url.pathname)) return null;
  const cookieToken = requestCookie(request, SESSION_COOKIE);
  if (!cookieToken) return null;
  try {
    const services = await getServices();
    if (services.config.PAGE_CACHE_SECONDS <= 0) return null;
    const session = await services.sessions.shown(cookieToken);
    if (!session) return null;
    const market = resolveMarket({ query: url.searchParams.get('market'), cookie: requestCookie(request, MARKET_COOKIE), country: session.user.country });
    const cached = processPageCache().get(cacheKey(request, market));
    if (!cached || (Date.now() - cached.storedAt) / 1000 > cached.maxAge) return null;
    processPageCache().served(cached);
    const [cartCount, favouriteIds] = await personalPartsOf(services, session);
    const parts = { session, csrfToken: shownCsrfToken(session, cookieToken), cartCount, favouriteIds: new Set(favouriteIds) };
    return personalAnswer(request, { ...cached, slots: cached.slots ?? [], state: 'HIT', stored: cached }, parts, services.log).response;
  } catch (err) {
    // The middleware answers instead (and owns the 503 page and the error log); a bug here would
    // otherwise show only as lost speed.
    (await getServices().catch(() => null))?.log.debug('signed-in page not answered from the store', { err, path: url.pathname });
    return null;
  }
}

/**
 * Serves a signed-in shopper's GET of a shared page (the middleware calls this once the session,
 * its CSRF token and the market are known) when the cache provider could not (personalisedFromStore):
 * from the store when fresh, else rendered for nobody (and stored when the page allows it, as an
 * anonymous visit would), then personalised.
 */
export async function servePersonalised(ctx: APIContext, next: MiddlewareNext, session: ActiveSession): Promise<Response> {
  const { services, log } = ctx.locals;
  const csrfToken = ctx.locals.csrfToken;
  const personal = personalPartsOf(services, session);
  const store = processPageCache();
  const key = cacheKey(ctx.request, ctx.locals.market);
  const cached = store.get(key);
  const generation = store.generation;
  let page: SharedPage;
  if (cached && (Date.now() - cached.storedAt) / 1000 <= cached.maxAge) {
    store.served(cached);
    page = { ...cached, slots: cached.slots ?? [], state: 'HIT', stored: cached };
  } else {
    ctx.locals.session = null;
    ctx.locals.csrfToken = CSRF_SLOT;
    ctx.locals.sharedRender = true;
    let rendered: Response;
    let body: Uint8Array | null = null;
    try {
      rendered = await next();
      // Read while the locals are still nobody's: Astro renders the page's components as the body streams.
      if (rendered.headers.get('content-type')?.startsWith('text/html') && rendered.body) body = new Uint8Array(await rendered.arrayBuffer());
    } finally {
      ctx.locals.session = session;
      ctx.locals.csrfToken = csrfToken;
      ctx.locals.sharedRender = false;
    }
    // A redirect or anything but a page has nothing personal to put in.
    if (!body) return rendered;
    const { body: shown, slots, stray } = slotted(body);
    if (stray) log.warn('shared page with the CSRF slot marker outside its slots: not stored', { path: ctx.url.pathname });
    page = { body: shown, slots, stray, status: rendered.status, headers: rendered.headers, state: 'MISS' };
  }
  const [cartCount, favouriteIds] = await personal;
  const { response, complete } = personalAnswer(ctx.request, page, { session, csrfToken, cartCount, favouriteIds: new Set(favouriteIds) }, log);
  // Stored only when every part was found as nobody's: a page that had someone's in it is never kept.
  // Nor one with the slot marker outside its slots.
  if (complete && !page.stray && page.state === 'MISS' && page.headers instanceof Headers) {
    const { maxAge = 0, swr = 0, tags = [] } = ctx.cache.options;
    const entry = pageEntry(page.body, page.status, page.headers, { maxAge, swr, tags }, page.slots);
    if (entry) storePage(store, key, entry, generation);
  }
  return response;
}
