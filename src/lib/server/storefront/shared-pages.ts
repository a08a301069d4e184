import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import type { APIContext, MiddlewareNext } from 'astro';
import { accountControl, cartLink, csrfInput, favouriteButton, menuAccountLinks, nameInLabel, PERSONAL_ROOM, profileOf, sessionJson, sessionScript } from '@/components/personal-parts';
import { SESSION_COOKIE, type ActiveSession } from '../accounts/sessions';
import { getServices, type Services } from '../services';
import { MARKET_COOKIE, resolveMarket } from '../../domain/markets';
import { requestCookie } from '../infra/cookies';
import { CSRF_TOKEN_LENGTH, csrfTokenFor, hasBearer } from '../infra/csrf';
import type { Logger } from '../infra/log';
import { accepts, cacheKey, compressOnce, CSRF_SLOTS_HEADER, pageEntry, processPageCache, SEARCHED_HEADER, storePage, type CachedPage } from './page-cache';
import { personalGzip, personalGzipLayout, type PersonalGzipLayout, type PersonalPlace } from './personal-gzip';

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

/** The header's parts as rendered for nobody, by name, as bytes (built once: they never change). */
let nobodysParts: [name: HeaderPart, bytes: Buffer][] | undefined;
type HeaderPart = 'session' | 'account' | 'cart' | 'menu account links';
const partsForNobody = () =>
  (nobodysParts ??= [
    ['session', Buffer.from(sessionScript(null))],
    ['account', Buffer.from(accountControl(null, null))],
    ['cart', Buffer.from(cartLink(null))],
    ['menu account links', Buffer.from(menuAccountLinks(null, null))],
  ]);

/** The header's parts as the shopper sees them, by name. */
function theirHeaderParts(parts: PersonalParts): Record<HeaderPart, string> {
  const profile = profileOf(parts.session.user);
  const token = parts.csrfToken ?? '';
  return {
    session: sessionScript(profile),
    account: accountControl(profile, token),
    cart: cartLink(parts.cartCount),
    'menu account links': menuAccountLinks(profile, token),
  };
}

/** Each heart rendered for nobody (unpressed): where it is and its product's id. */
function heartsOf(bytes: Buffer): { at: number; length: number; id: number }[] {
  const hearts: { at: number; length: number; id: number }[] = [];
  for (let at = bytes.indexOf(UNPRESSED_HEART); at >= 0; at = bytes.indexOf(UNPRESSED_HEART, at + 1)) {
    const idFrom = at + UNPRESSED_HEART.length;
    const idTo = bytes.indexOf('"', idFrom);
    const end = bytes.indexOf(BUTTON_END, idTo);
    if (idTo < 0 || end < 0) break;
    hearts.push({ at, length: end + BUTTON_END.length - at, id: Number(bytes.toString('latin1', idFrom, idTo)) });
  }
  return hearts;
}

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
  const theirs = theirHeaderParts(parts);
  const missing: string[] = [];
  let pressedHearts = 0;
  const cuts: { at: number; length: number; put: string }[] = [];
  for (const [name, nobodys] of partsForNobody()) {
    const at = bytes.indexOf(nobodys);
    if (at < 0) missing.push(name);
    else cuts.push({ at, length: nobodys.length, put: theirs[name] });
  }
  if (parts.favouriteIds.size > 0) {
    for (const heart of heartsOf(bytes)) {
      if (!parts.favouriteIds.has(heart.id)) continue;
      cuts.push({ at: heart.at, length: heart.length, put: favouriteButton(heart.id, true) });
      pressedHearts++;
    }
  }
  for (const at of slots) cuts.push({ at, length: SLOT.length, put: parts.csrfToken ?? '' });
  cuts.sort((a, b) => a.at - b.at);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const cut of cuts) {
    if (cut.at < from) continue;
    pieces.push(bytes.subarray(from, cut.at), Buffer.from(cut.put));
    from = cut.at + cut.length;
  }
  pieces.push(bytes.subarray(from));
  return { body: Buffer.concat(pieces), missing, pressedHearts };
}

/** A stored page laid out for signed-in shoppers' gzip answers, and the products its hearts are for. */
export interface SignedInLayout {
  gzip: PersonalGzipLayout;
  heartIds: readonly number[];
}

/**
 * A shopper no one is, whose name is a marker (random for each process): a stored page made theirs
 * is the page every signed-in shopper gets, with the marker where their name goes, the session
 * script's JSON where their profile goes, and CSRF_SLOT in each token's place.
 */
const NAME_MARKER = `n${randomBytes(12).toString('hex')}`;
const MARKER_SHOPPER: PersonalParts = {
  session: { user: { id: NAME_MARKER, firstName: NAME_MARKER, lastName: NAME_MARKER, email: NAME_MARKER, imageHash: null, country: 'nigeria' } } as unknown as ActiveSession,
  csrfToken: CSRF_SLOT,
  cartCount: 0,
  favouriteIds: new Set(),
};
const SESSION_JSON_OPEN = ((script) => Buffer.from(script.slice(0, script.indexOf('null'))))(sessionScript(null));
const NAME = Buffer.from(NAME_MARKER);
/** The cart links most shoppers have: none to nine items, and the count not known. */
const COMMON_CARTS = [null, ...Array.from({ length: 10 }, (_, n) => n)].map(cartLink);

/**
 * A stored page's layout for signed-in shoppers: the page as every signed-in shopper gets it
 * (MARKER_SHOPPER's), with these places, each as long for every shopper (PERSONAL_ROOM): the
 * session script's JSON, the first name in the account menu's label, the cart link, and every CSRF
 * token. Everything else of the header (the account menu, the logout forms) is the same for all
 * and deflated with the page. Null when a header part is missing or a place is not where it
 * should be (such a page is compressed whole).
 */
export async function signedInLayout(page: Uint8Array, slots: readonly number[]): Promise<SignedInLayout | null> {
  const made = personalise(page, slots, MARKER_SHOPPER);
  if (made.missing.length) return null;
  const template = Buffer.from(made.body.buffer, made.body.byteOffset, made.body.byteLength);
  const places: PersonalPlace[] = [];
  const jsonAt = template.indexOf(SESSION_JSON_OPEN);
  const nameAt = template.indexOf(NAME, jsonAt + SESSION_JSON_OPEN.length + PERSONAL_ROOM.sessionJson);
  const cartAt = template.indexOf(cartLink(MARKER_SHOPPER.cartCount));
  if (jsonAt < 0 || nameAt < 0 || cartAt < 0 || template.indexOf(NAME, nameAt + NAME.length) >= 0) return null;
  places.push(
    { at: jsonAt + SESSION_JSON_OPEN.length, length: PERSONAL_ROOM.sessionJson, name: 'session json' },
    { at: nameAt, length: PERSONAL_ROOM.nameInLabel, name: 'name in label' },
    { at: cartAt, length: PERSONAL_ROOM.cartLink, name: 'cart', variants: COMMON_CARTS },
  );
  for (let at = template.indexOf(SLOT); at >= 0; at = template.indexOf(SLOT, at + SLOT.length)) places.push({ at, length: SLOT.length, name: 'token' });
  places.sort((a, b) => a.at - b.at);
  if (places.some((place, i) => i > 0 && place.at < places[i - 1]!.at + places[i - 1]!.length)) return null;
  const bytes = Buffer.from(page.buffer, page.byteOffset, page.byteLength);
  return { gzip: await personalGzipLayout(template, places), heartIds: heartsOf(bytes).map((heart) => heart.id) };
}

/** The shopper's page from a stored page's layout, gzipped: null when it cannot be (a heart of theirs pressed, a part longer than its room). */
export function signedInGzip(layout: SignedInLayout, parts: PersonalParts): Uint8Array<ArrayBuffer> | null {
  if (layout.heartIds.some((id) => parts.favouriteIds.has(id))) return null;
  const profile = profileOf(parts.session.user);
  return personalGzip(layout.gzip, {
    token: parts.csrfToken ?? '',
    'session json': sessionJson(profile),
    'name in label': nameInLabel(profile.firstName),
    cart: cartLink(parts.cartCount),
  });
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
