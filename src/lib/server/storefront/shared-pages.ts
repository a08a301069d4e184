import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import type { APIContext, MiddlewareNext } from 'astro';
import { accountControl, cartLink, csrfInput, favouriteButton, menuAccountLinks, profileOf, sessionScript } from '@/components/personal-parts';
import { SESSION_COOKIE, type ActiveSession } from '../accounts/sessions';
import { getServices, type Services } from '../services';
import { MARKET_COOKIE, resolveMarket } from '../../domain/markets';
import { requestCookie } from '../infra/cookies';
import { CSRF_TOKEN_LENGTH, csrfTokenFor, hasBearer } from '../infra/csrf';
import type { Logger } from '../infra/log';
import { accepts, cacheKey, compressOnce, CSRF_SLOTS_HEADER, pageEntry, processPageCache, SEARCHED_HEADER, storePage, type CachedPage } from './page-cache';
import { personalGzip, personalGzipLayout, type PersonalGzipLayout } from './personal-gzip';

/**
 * Signed-in shoppers' catalogue pages from the shared route cache (ADR 0016). The catalogue
 * pages (home, collection and search, product, content) are rendered for nobody: no session,
 * and a slot where each form's CSRF token goes. That render is the one the route cache stores
 * for anonymous visitors too, under the same key (path, query, market,
 * Save-Data). A signed-in shopper gets it with their own parts put in (personalise): who is signed
 * in, the cart count, their hearts and their CSRF token. Nothing personal is ever in what is
 * stored, so nothing personal can reach another shopper.
 */

/**
 * What a page rendered for nobody holds where each form's CSRF token goes, exactly as long as a
 * token (a shopper's copy keeps everything below the header in place, which its gzip answer relies
 * on: personal-gzip.ts). Random for each process and never sent: `slotted` takes it out of every
 * page before the page is stored or answered, keeping where each slot was. So no search, product
 * name or form field can carry it: a token goes only where the render put a slot.
 */
export const CSRF_SLOT = randomBytes(32).toString('base64url');

/** What anonymous visitors see in a slot (the hidden `_csrf` field; without a session it is ignored): text, never searched for. */
export const SHOWN_SLOT = 'ml-csrf-slot'.padEnd(CSRF_TOKEN_LENGTH, '_');
const SLOT = Buffer.from(CSRF_SLOT);
const SHOWN = Buffer.from(SHOWN_SLOT);

/**
 * The markup right before a slot: a form's hidden field (csrfInput) and an island's `csrf` prop as
 * Astro serialises it. Nothing a shopper types can write either (their quotes come out escaped).
 */
const SLOT_CONTEXTS = [csrfInput(CSRF_SLOT).slice(0, csrfInput(CSRF_SLOT).indexOf(CSRF_SLOT)), '&quot;csrf&quot;:[0,&quot;'].map((c) => Buffer.from(c));

/** A page rendered for nobody with its slots taken out: the page as stored and shown (SHOWN_SLOT in each), and where each slot is. */
export interface SlottedPage {
  body: Uint8Array<ArrayBuffer>;
  slots: number[];
  /** The marker was found outside a slot too (taken out as well): such a page is not stored. */
  stray: boolean;
}

/** Takes the slot marker out of a page rendered for nobody (see CSRF_SLOT). */
export function slotted(rendered: Uint8Array): SlottedPage {
  const body = new Uint8Array(rendered.byteLength);
  body.set(rendered);
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const slots: number[] = [];
  let stray = false;
  for (let at = bytes.indexOf(SLOT); at >= 0; at = bytes.indexOf(SLOT, at + SLOT.length)) {
    const inSlot = SLOT_CONTEXTS.some((context) => at >= context.length && bytes.subarray(at - context.length, at).equals(context));
    if (inSlot) slots.push(at);
    else stray = true;
    SHOWN.copy(bytes, at);
  }
  return { body, slots, stray };
}

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

export interface PersonalParts {
  session: ActiveSession;
  csrfToken: string | null;
  cartCount: number | null;
  favouriteIds: ReadonlySet<number>;
}

/** The start of every heart rendered for nobody (favouriteButton, not pressed): its product id follows. */
const UNPRESSED_HEART = ((heart) => Buffer.from(heart.slice(0, heart.indexOf('value="') + 'value="'.length)))(favouriteButton(0, false));
const BUTTON_END = Buffer.from('</button>');

/** The parts as rendered for nobody, as bytes (built once: they never change). */
let nobodysParts: [name: string, bytes: Buffer][] | undefined;
const partsForNobody = () =>
  (nobodysParts ??= [
    ['session', Buffer.from(sessionScript(null))],
    ['account', Buffer.from(accountControl(null, null))],
    ['cart', Buffer.from(cartLink(null))],
    ['menu account links', Buffer.from(menuAccountLinks(null, null))],
  ]);

/**
 * A page rendered for nobody, made the shopper's: each part rendered for nobody is swapped for
 * theirs, found by the markup personal-parts.ts produces. Returns the page and the parts it
 * could not find (none, unless the layout stopped rendering one: logged by the caller).
 *
 * It works on the page's bytes as stored: every cut is found with Buffer.indexOf, then the page is
 * put together once. (Decoding a 120 KB page with ₦ in it to a string and encoding it again cost
 * 2.6 ms of the 4 a signed-in page took; the parts are ASCII markers, found the same in UTF-8.)
 */
export function personalise(page: Uint8Array, slots: readonly number[], parts: PersonalParts): { body: Uint8Array<ArrayBuffer>; missing: string[]; pressedHearts: number } {
  const bytes = Buffer.from(page.buffer, page.byteOffset, page.byteLength);
  const profile = profileOf(parts.session.user);
  const token = parts.csrfToken ?? '';
  const theirs = [sessionScript(profile), accountControl(profile, token), cartLink(parts.cartCount), menuAccountLinks(profile, token)];
  const missing: string[] = [];
  let pressedHearts = 0;
  const cuts: { at: number; length: number; put: string }[] = [];
  partsForNobody().forEach(([name, nobodys], i) => {
    const at = bytes.indexOf(nobodys);
    if (at < 0) missing.push(name);
    else cuts.push({ at, length: nobodys.length, put: theirs[i]! });
  });
  if (parts.favouriteIds.size > 0) {
    for (let at = bytes.indexOf(UNPRESSED_HEART); at >= 0; at = bytes.indexOf(UNPRESSED_HEART, at + 1)) {
      const idFrom = at + UNPRESSED_HEART.length;
      const idTo = bytes.indexOf('"', idFrom);
      const end = bytes.indexOf(BUTTON_END, idTo);
      if (idTo < 0 || end < 0) break;
      const id = Number(bytes.toString('latin1', idFrom, idTo));
      if (!parts.favouriteIds.has(id)) continue;
      cuts.push({ at, length: end + BUTTON_END.length - at, put: favouriteButton(id, true) });
      pressedHearts++;
    }
  }
  for (const at of slots) cuts.push({ at, length: SLOT.length, put: token });
  cuts.sort((a, b) => a.at - b.at);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const cut of cuts) {
    if (cut.at < from) continue;
    pieces.push(bytes.subarray(from, cut.at), Buffer.from(cut.put));
    from = cut.at + cut.length;
  }
  pieces.push(bytes.subarray(from));
  const body = new Uint8Array(pieces.reduce((n, piece) => n + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    body.set(piece, at);
    at += piece.length;
  }
  return { body, missing, pressedHearts };
}

/**
 * Where a page rendered for nobody has its personal places, for its gzip layout: the region from
 * the first of them to the end of the last header part (whose lengths vary), and every CSRF slot.
 * Null when a header part is missing (such a page is never personalised from the store anyway).
 */
function personalPlaces(page: Uint8Array, slots: readonly number[]): { region: { start: number; end: number }; slots: readonly number[] } | null {
  const bytes = Buffer.from(page.buffer, page.byteOffset, page.byteLength);
  let start = Infinity;
  let end = -1;
  for (const [, nobodys] of partsForNobody()) {
    const at = bytes.indexOf(nobodys);
    if (at < 0) return null;
    start = Math.min(start, at);
    end = Math.max(end, at + nobodys.length);
  }
  // A slot before the header's last part is in the region (deflated with it per request).
  for (const at of slots) if (at < end) start = Math.min(start, at);
  return { region: { start, end }, slots };
}

/** Layouts being made, so one page is laid out once however many shoppers ask at the same time. */
const layingOut = new WeakSet<CachedPage>();

/**
 * A stored page's gzip layout for signed-in shoppers, made once in the background on the first
 * signed-in hit (until then that page is compressed whole). It is checked once against the page
 * itself: a layout that would not give the page back is never used (logged).
 */
function gzipLayoutOf(entry: CachedPage, log: Logger): PersonalGzipLayout | null {
  if (entry.personalGzip !== undefined || layingOut.has(entry)) return entry.personalGzip ?? null;
  layingOut.add(entry);
  const places = personalPlaces(entry.body, entry.slots ?? []);
  if (!places) {
    entry.personalGzip = null;
    return null;
  }
  void personalGzipLayout(entry.body, places.region, places.slots, SLOT.length)
    .then((layout) => {
      const probe = Buffer.from(entry.body);
      const token = Buffer.from('t'.repeat(SLOT.length));
      for (const at of places.slots) token.copy(probe, at);
      const faithful = gunzipSync(personalGzip(layout, probe, token)).equals(probe);
      if (!faithful) log.error('gzip layout does not give the page back', { bytes: entry.body.length });
      entry.personalGzip = faithful ? layout : null;
    })
    .catch((err: unknown) => {
      log.error('gzip layout failed', { err });
      entry.personalGzip = null;
    });
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
  const { body, missing, pressedHearts } = personalise(page.body, page.slots, parts);
  if (missing.length) log.error('shared page without its personal parts', { path: new URL(request.url).pathname, missing });
  const headers = new Headers(page.headers);
  headers.delete('etag');
  headers.delete(SEARCHED_HEADER);
  headers.set('x-cache', page.state);
  // A page with a shopper's name in it: never stored by any cache.
  headers.set('cache-control', 'private, no-store');
  // From the stored page's gzip layout when it fits (every token in its slot, no heart pressed,
  // gzip accepted), else the whole page compressed now.
  const token = parts.csrfToken ?? '';
  const layout = page.stored && missing.length === 0 && pressedHearts === 0 && token.length === SLOT.length && accepts(request, 'gzip') ? gzipLayoutOf(page.stored, log) : null;
  const { bytes, encoding } = layout ? { bytes: personalGzip(layout, body, Buffer.from(token)), encoding: 'gzip' as const } : compressOnce(request, body);
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
