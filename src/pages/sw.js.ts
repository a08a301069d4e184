import type { APIRoute } from 'astro';
import { serviceWorkerScript } from '@/lib/server/offline/service-worker';

/**
 * The service worker (ADR 0030). Never cached by the browser's HTTP cache, so a new build's worker is
 * seen on the next navigation; with SERVICE_WORKER=off, a worker that removes itself.
 */
export const GET: APIRoute = (ctx) => {
  const { config } = ctx.locals.services;
  const body = serviceWorkerScript({ build: config.BUILD_ID ?? __STORE_BUILD_ID__, on: config.SERVICE_WORKER === 'on' });
  return new Response(body, {
    headers: {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'no-cache, no-store',
      'service-worker-allowed': '/',
    },
  });
};
