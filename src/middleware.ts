import { randomUUID } from 'node:crypto';
import { defineMiddleware } from 'astro:middleware';
import { errorResponse, isCrossSiteWrite } from './lib/server/http';
import { getServices, lifecycle } from './lib/server/services';
import { saveDataRequested } from './lib/server/page-cache';
import { SESSION_COOKIE, tokenFromRequest } from './lib/server/sessions';

// Start opening the database as soon as the server loads this module.
void getServices().catch(() => undefined);

export const onRequest = defineMiddleware(async (ctx, next) => {
  const started = performance.now();
  const incoming = ctx.request.headers.get('x-request-id');
  const requestId = incoming && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
  if (lifecycle.draining) {
    return new Response('Shutting down', { status: 503, headers: { 'retry-after': '5', 'x-request-id': requestId } });
  }
  if (isCrossSiteWrite(ctx.request, ctx.url)) {
    return new Response(JSON.stringify({ status: false, message: 'Cross-site requests are not allowed' }), {
      status: 403,
      headers: { 'content-type': 'application/json', 'x-request-id': requestId },
    });
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
      ctx.locals.session = ctx.url.pathname.startsWith('/media/')
        ? null
        : await services.sessions.resolve(tokenFromRequest(ctx.request, ctx.cookies.get(SESSION_COOKIE)?.value));
      response = await next();
    } catch (err) {
      if (ctx.url.pathname.startsWith('/api/')) response = errorResponse(err, requestId, log);
      else {
        // Astro answers with the generic 500 page; the log keeps the details.
        log.error('page failed', { path: ctx.url.pathname, err });
        throw err;
      }
    }
    try {
      response.headers.set('x-request-id', requestId);
      // A page rendered for a signed-in shopper shows their name: never stored by any cache.
      if (ctx.locals.session && response.headers.get('content-type')?.startsWith('text/html')) {
        response.headers.set('cache-control', 'private, no-store');
      }
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
