import type { APIContext, MiddlewareNext } from 'astro';
import { accountControl, cartLink, favouriteForm, menuAccountLinks, profileOf, sessionScript } from '@/components/personal-parts';
import { SESSION_COOKIE, type ActiveSession } from '../accounts/sessions';
import { getServices, type Services } from '../services';
import { MARKET_COOKIE, resolveMarket } from '../../domain/markets';
import { requestCookie } from './cookies';
import { csrfTokenFor, hasBearer } from './csrf';
import type { Logger } from './log';
import { cacheKey, compressOnce, pageEntry, processPageCache, SEARCHED_HEADER, storePage } from './page-cache';

/**
 * Signed-in shoppers' catalogue pages from the shared route cache (issue 22, DESIGN.md "Pages and
 * performance"). The catalogue pages (home, collection and search, product, content) are rendered
 * for nobody: no session, and a slot where each form's CSRF token goes. That render is the one the
 * route cache stores for anonymous visitors too, under the same key (path, query, market,
 * Save-Data). A signed-in shopper gets it with their own parts put in (personalise): who is signed
 * in, the cart count, their hearts and their CSRF token. Nothing personal is ever in what is
 * stored, so nothing personal can reach another shopper.
 */

/** The value rendered where a form's CSRF token goes in a page for the shared cache (never a valid token). */
export const CSRF_SLOT = 'ml-csrf-slot';

/** The pages rendered for nobody, for anonymous and signed-in shoppers alike: the ones that call cachePage. */
const SHARED_PAGES = [/^\/$/, /^\/collection\/?$/, /^\/product\/[^/]+\/?$/, /^\/Bags-men\/?$/, /^\/(about|contact|privacy)\/?$/];

export function isSharedPage(pathname: string): boolean {
  return SHARED_PAGES.some((p) => p.test(pathname));
}

export interface PersonalParts {
  session: ActiveSession;
  csrfToken: string | null;
  cartCount: number | null;
  favouriteIds: ReadonlySet<number>;
}

const UNHEARTED = /<form class="fav-form" method="post" action="\/api\/v1\/favourites\/add\?back=([^"]*)">[\s\S]*?data-fav="(\d+)"[\s\S]*?<\/form>/g;

/**
 * A page rendered for nobody, made the shopper's: each part rendered for nobody is swapped for
 * theirs, found by the markup personal-parts.ts produces. Returns the page and the parts it
 * could not find (none, unless the layout stopped rendering one: logged by the caller).
 */
export function personalise(html: string, parts: PersonalParts): { html: string; missing: string[] } {
  const profile = profileOf(parts.session.user);
  const swaps: [string, string, string][] = [
    ['session', sessionScript(null), sessionScript(profile)],
    ['account', accountControl(null, null), accountControl(profile, CSRF_SLOT)],
    ['cart', cartLink(null), cartLink(parts.cartCount)],
    ['menu account links', menuAccountLinks(null, null), menuAccountLinks(profile, CSRF_SLOT)],
  ];
  const token = parts.csrfToken ?? '';
  // A function, so no `$` in a token is a replacement pattern.
  const withToken = (part: string) => part.replaceAll(CSRF_SLOT, () => token);
  let page = html;
  if (parts.favouriteIds.size > 0) {
    page = page.replace(UNHEARTED, (form, back: string, id: string) =>
      parts.favouriteIds.has(Number(id)) ? favouriteForm(Number(id), true, decodeURIComponent(back), CSRF_SLOT) : form,
    );
  }
  // Every cut found in the page as it stands, then the page put together once: searching a string
  // already spliced (a rope V8 flattens again for each search) cost milliseconds on a 120 KB page.
  const missing: string[] = [];
  const cuts: { at: number; length: number; put: string }[] = [];
  for (const [name, nobodys, theirs] of swaps) {
    const at = page.indexOf(nobodys);
    if (at < 0) missing.push(name);
    else cuts.push({ at, length: nobodys.length, put: withToken(theirs) });
  }
  for (let at = page.indexOf(CSRF_SLOT); at >= 0; at = page.indexOf(CSRF_SLOT, at + CSRF_SLOT.length)) cuts.push({ at, length: CSRF_SLOT.length, put: token });
  cuts.sort((a, b) => a.at - b.at);
  const pieces: string[] = [];
  let from = 0;
  for (const cut of cuts) {
    if (cut.at < from) continue;
    pieces.push(page.slice(from, cut.at), cut.put);
    from = cut.at + cut.length;
  }
  pieces.push(page.slice(from));
  return { html: pieces.join(''), missing };
}

/** The shopper's own parts of a shared page, read while the page is looked up or rendered. */
function personalPartsOf(services: Services, session: ActiveSession): Promise<[number | null, number[]]> {
  return Promise.all([services.cart.count(session.user).catch(() => null), services.favourites.ids(session.user.id).catch(() => [] as number[])]);
}

/**
 * A page rendered for nobody (stored or just rendered) made into the shopper's answer: their parts
 * put in, private and never stored, compressed once. Returns null when a part could not be found
 * (logged): such a page must not be stored either.
 */
function personalAnswer(
  request: Request,
  page: { body: Uint8Array; status: number; headers: Headers | [string, string][]; state: 'HIT' | 'MISS' },
  parts: PersonalParts,
  log: Logger,
): { response: Response; complete: boolean } {
  const { html, missing } = personalise(new TextDecoder().decode(page.body), parts);
  if (missing.length) log.error('shared page without its personal parts', { path: new URL(request.url).pathname, missing });
  const headers = new Headers(page.headers);
  headers.delete('etag');
  headers.delete(SEARCHED_HEADER);
  headers.set('x-cache', page.state);
  // A page with a shopper's name in it: never stored by any cache.
  headers.set('cache-control', 'private, no-store');
  const { bytes, encoding } = compressOnce(request, new TextEncoder().encode(html));
  if (encoding) headers.set('content-encoding', encoding);
  headers.append('vary', 'Accept-Encoding');
  headers.set('content-length', String(bytes.length));
  return { response: new Response(bytes, { status: page.status, headers }), complete: missing.length === 0 };
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
    const parts = { session, csrfToken: csrfTokenFor(cookieToken), cartCount, favouriteIds: new Set(favouriteIds) };
    return personalAnswer(request, { ...cached, state: 'HIT' }, parts, services.log).response;
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
  let page: { body: Uint8Array; status: number; headers: Headers | [string, string][]; state: 'HIT' | 'MISS' };
  if (cached && (Date.now() - cached.storedAt) / 1000 <= cached.maxAge) {
    store.served(cached);
    page = { ...cached, state: 'HIT' };
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
    page = { body, status: rendered.status, headers: rendered.headers, state: 'MISS' };
  }
  const [cartCount, favouriteIds] = await personal;
  const { response, complete } = personalAnswer(ctx.request, page, { session, csrfToken, cartCount, favouriteIds: new Set(favouriteIds) }, log);
  // Stored only when every part was found as nobody's: a page that had someone's in it is never kept.
  if (complete && page.state === 'MISS' && page.headers instanceof Headers) {
    const { maxAge = 0, swr = 0, tags = [] } = ctx.cache.options;
    const entry = pageEntry(page.body, page.status, page.headers, { maxAge, swr, tags });
    if (entry) storePage(store, key, entry, generation);
  }
  return response;
}
