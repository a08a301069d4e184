import type { APIContext, MiddlewareNext } from 'astro';
import { accountControl, cartLink, favouriteForm, menuAccountLinks, profileOf, sessionScript } from '@/components/personal-parts';
import type { ActiveSession } from '../accounts/sessions';
import { cacheKey, compressOnce, pageEntry, processPageCache, storePage } from './page-cache';

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
  const missing: string[] = [];
  let out = html;
  for (const [name, nobodys, theirs] of swaps) {
    const at = out.indexOf(nobodys);
    if (at < 0) missing.push(name);
    else out = out.slice(0, at) + theirs + out.slice(at + nobodys.length);
  }
  if (parts.favouriteIds.size > 0) {
    out = out.replace(UNHEARTED, (form, back: string, id: string) =>
      parts.favouriteIds.has(Number(id)) ? favouriteForm(Number(id), true, decodeURIComponent(back), CSRF_SLOT) : form,
    );
  }
  // Last, so the parts put in above get the token too. A function, so no `$` in it is a pattern.
  return { html: out.replaceAll(CSRF_SLOT, () => parts.csrfToken ?? ''), missing };
}

/**
 * Serves a signed-in shopper's GET of a shared page (the middleware calls this once the session,
 * its CSRF token and the market are known): from the store when fresh, else rendered for nobody
 * (and stored when the page allows it, as an anonymous visit would), then personalised.
 */
export async function servePersonalised(ctx: APIContext, next: MiddlewareNext, session: ActiveSession): Promise<Response> {
  const { services, log } = ctx.locals;
  const csrfToken = ctx.locals.csrfToken;
  // The shopper's own parts load while the page is looked up or rendered.
  const personal = Promise.all([
    services.cart.count(session.user).catch(() => null),
    services.favourites.ids(session.user.id).catch(() => [] as number[]),
  ]);
  const store = processPageCache();
  const key = cacheKey(ctx.request, ctx.locals.market);
  const cached = store.get(key);
  const generation = store.generation;
  let page: { body: Uint8Array; status: number; headers: Headers; state: 'HIT' | 'MISS' };
  if (cached && (Date.now() - cached.storedAt) / 1000 <= cached.maxAge) {
    page = { body: cached.body, status: cached.status, headers: new Headers(cached.headers), state: 'HIT' };
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
  const { html, missing } = personalise(new TextDecoder().decode(page.body), { session, csrfToken, cartCount, favouriteIds: new Set(favouriteIds) });
  if (missing.length) log.error('shared page without its personal parts', { path: ctx.url.pathname, missing });
  // Stored only when every part was found as nobody's: a page that had someone's in it is never kept.
  else if (page.state === 'MISS') {
    const { maxAge = 0, swr = 0, tags = [] } = ctx.cache.options;
    const entry = pageEntry(page.body, page.status, page.headers, { maxAge, swr, tags });
    if (entry) storePage(store, key, entry, generation);
  }
  const headers = new Headers(page.headers);
  headers.delete('etag');
  headers.set('x-cache', page.state);
  const { bytes, encoding } = compressOnce(ctx.request, new TextEncoder().encode(html));
  if (encoding) headers.set('content-encoding', encoding);
  headers.append('vary', 'Accept-Encoding');
  headers.set('content-length', String(bytes.length));
  return new Response(bytes, { status: page.status, headers });
}
