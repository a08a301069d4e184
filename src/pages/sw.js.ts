import type { APIRoute } from 'astro';
import { buildId, serviceWorkerScript } from '@/lib/server/offline/service-worker';

/**
 * The service worker (ADR 0030). Pages register it as /sw.js?v=<build> with updateViaCache 'all':
 * the browser's check on each navigation then comes from its HTTP cache (no request), and a new
 * build's pages name a new URL, whose worker takes over at once. Any other URL (an old build's,
 * the browser's daily check) is never cached: it gets this build's worker, or with
 * SERVICE_WORKER=off the worker that removes itself.
 */
export const GET: APIRoute = (ctx) => {
  const { config } = ctx.locals.services;
  const build = buildId(config);
  const on = config.SERVICE_WORKER === 'on';
  const current = on && ctx.url.searchParams.get('v') === build;
  return new Response(serviceWorkerScript({ build, on }), {
    headers: {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': current ? 'public, max-age=86400' : 'no-cache, no-store',
      'service-worker-allowed': '/',
    },
  });
};
