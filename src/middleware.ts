import { randomUUID } from 'node:crypto';
import { defineMiddleware } from 'astro:middleware';
import { errorResponse, isCrossSiteWrite } from '@/lib/server/infra/http';
import { crossSiteAnswer, formExpiredAnswer, toResponse, unavailablePage } from '@/lib/server/infra/error-pages';
import { unreachableReason } from '@/lib/server/infra/db/unreachable';
import { getServices, lifecycle } from '@/lib/server/services';
import { compressedWhole, RENDERED_MARKET_HEADER, revalidatedPrivately, saveDataRequested } from '@/lib/server/storefront/page-cache';
import { requestCookie } from '@/lib/server/infra/cookies';
import { CSRF_SLOT } from '@/lib/server/storefront/personal-page';
import { isSharedPage, servePersonalised, withSlotsTakenOut } from '@/lib/server/storefront/shared-pages';
import { csrfTokenFor, hasBearer, hasValidCsrfToken, needsCsrfToken } from '@/lib/server/infra/csrf';
import { SESSION_COOKIE, tokenFromRequest } from '@/lib/server/accounts/sessions';
import { MARKET_COOKIE, resolveMarket } from '@/lib/domain/markets';
import { getConfig } from '@/lib/server/infra/config';
import { withoutUnrunScripts } from '@/lib/server/infra/csp';
import { localRedirectPath } from '@/lib/domain/redirects';
import { PERSONAL_HEADER } from '@/lib/domain/offline';
import { MethodNotAllowed } from '@/lib/domain/errors';
import { message } from '@/lib/domain/messages';
import { endpointMethods } from '@/lib/server/storefront/endpoint-methods';

// Start opening the database as soon as the server loads this module.
void getServices().catch(() => undefined);

export const onRequest = defineMiddleware(async (ctx, next) => {
  const started = performance.now();
  const incoming = ctx.request.headers.get('x-request-id');
  const requestId = incoming && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
  // While draining (SIGTERM), requests still arriving on open connections are served: the
  // server answers them with Connection: close (src/server/server.ts), and the shutdown waits
  // for them. Only after the database is closed would a request fail, and by then none arrive.
  // Set by the HTTP server (src/server/server.ts); `astro dev` has no such server: the configured site.
  ctx.locals.publicOrigin ??= new URL(getConfig().PUBLIC_SITE_URL).origin;
  if (isCrossSiteWrite(ctx.request, ctx.locals.publicOrigin)) {
    return toResponse(crossSiteAnswer(), { 'x-request-id': requestId });
  }
  lifecycle.enter();
  try {
    const services = await getServices();
    const log = services.log.child({ requestId });
    ctx.locals.requestId = requestId;
    ctx.locals.log = log;
    ctx.locals.services = services;
    ctx.locals.saveData = saveDataRequested(ctx.request);
    let response: Response;
    try {
      if (ctx.url.pathname.startsWith('/api/')) {
        const methods = await endpointMethods(ctx.routePattern);
        if (methods && !methods.includes(ctx.request.method)) {
          // A client's mistake, not the store's: worth a line for whoever looks, never an alert.
          log.info('method not allowed', { path: ctx.url.pathname, method: ctx.request.method });
          throw new MethodNotAllowed(message('method-not-allowed'), methods);
        }
      }
      // Cookies are read as the route cache reads them (its key and its session check).
      const cookieToken = requestCookie(ctx.request, SESSION_COOKIE);
      const viaCookie = Boolean(cookieToken) && !hasBearer(ctx.request);
      // Catalogue pages are rendered for nobody and shared through the route cache; a signed-in
      // shopper's copy gets their own parts put in (src/lib/server/storefront/shared-pages.ts), from the
      // session as pages show it (kept a few seconds; every post and account page reads it afresh).
      const shared = ctx.request.method === 'GET' && services.config.PAGE_CACHE_SECONDS > 0 && isSharedPage(ctx.url.pathname);
      const token = tokenFromRequest(ctx.request, cookieToken);
      ctx.locals.session = ctx.url.pathname.startsWith('/media/')
        ? null
        : shared && viaCookie
          ? await services.sessions.shown(token)
          : await services.sessions.resolve(token);
      // Forms rendered for a cookie session carry its CSRF token (src/components/CsrfField.astro).
      ctx.locals.csrfToken = viaCookie && ctx.locals.session ? csrfTokenFor(cookieToken!) : null;
      if (ctx.locals.csrfToken && needsCsrfToken(ctx.request, ctx.locals.publicOrigin) && !(await hasValidCsrfToken(ctx.request, ctx.locals.csrfToken))) {
        log.warn('form post without a valid CSRF token', { path: ctx.url.pathname });
        return toResponse(formExpiredAnswer(ctx.request.headers.get('accept')), { 'x-request-id': requestId });
      }
      ctx.locals.market = resolveMarket({
        query: ctx.url.searchParams.get('market'),
        cookie: requestCookie(ctx.request, MARKET_COOKIE),
        country: ctx.locals.session?.user.country,
      });
      if (shared && ctx.locals.session && viaCookie) response = await servePersonalised(ctx, next, ctx.locals.session);
      else {
        const forNobody = shared && !ctx.locals.session;
        if (forNobody) ctx.locals.csrfToken = CSRF_SLOT;
        response = await next();
        // The slot marker never leaves the server (shared-pages.ts).
        if (forNobody) response = await withSlotsTakenOut(response);
        // What the route cache keeps it compresses itself; any other page is compressed whole, once.
        if (!((ctx.cache.options.maxAge ?? 0) > 0)) response = await compressedWhole(ctx.request, response);
      }
    } catch (err) {
      const away = unreachableReason(err);
      if (ctx.url.pathname.startsWith('/api/')) response = errorResponse(err, requestId, log);
      else if (away !== null) {
        log.warn('page unavailable: database unreachable', { path: ctx.url.pathname, reason: away });
        // A plain page that needs nothing from the database.
        response = toResponse(unavailablePage(localRedirectPath(ctx.url.pathname + ctx.url.search, ctx.locals.publicOrigin) ?? '/'), { 'x-request-id': requestId });
      } else {
        // Astro answers with the generic 500 page; the log keeps the details.
        log.error('page failed', { path: ctx.url.pathname, err });
        throw err;
      }
    }
    try {
      // A fingerprinted file is the same answer for everyone: its id would only add bytes to each of
      // a page's many pictures on a slow line.
      if (!response.headers.get('cache-control')?.includes('immutable')) response.headers.set('x-request-id', requestId);
      // For the route cache, which stores a page only under its own market's key.
      if (ctx.locals.market) response.headers.set(RENDERED_MARKET_HEADER, ctx.locals.market);
      const policy = response.headers.get('content-security-policy');
      if (policy) response.headers.set('content-security-policy', withoutUnrunScripts(policy));
      // A page rendered for a signed-in shopper shows their name: never stored by any cache.
      if (ctx.locals.session && response.headers.get('content-type')?.startsWith('text/html')) {
        response.headers.set('cache-control', 'private, no-store');
        // Said twice for the service worker, which must never keep such a page (ADR 0030).
        response.headers.set(PERSONAL_HEADER, '1');
      }
      response = await revalidatedPrivately(ctx.request, response);
    } catch {
      // some responses (redirects built by Response.redirect) have immutable headers
    }
    if (!ctx.url.pathname.startsWith('/media/') && !ctx.url.pathname.startsWith('/_astro/')) {
      log.info('request', {
        method: ctx.request.method,
        path: ctx.url.pathname,
        status: response.status,
        ip: ctx.locals.clientIp ?? undefined,
        ms: Math.round(performance.now() - started),
      });
    }
    return response;
  } finally {
    lifecycle.leave();
  }
});
