import type { AstroGlobal } from 'astro';
import { publicCache } from './http';

/**
 * Cache headers for catalogue pages. Anonymous visitors share cached copies
 * (short freshness, long stale-while-revalidate); a signed-in shopper's page carries
 * a personalised header, so it is never stored by shared caches.
 */
export function setCatalogueCacheHeaders(astro: Pick<AstroGlobal, 'response' | 'locals'>): void {
  const headers = astro.response.headers;
  headers.set('cache-control', astro.locals.session ? 'private, no-store' : publicCache['cache-control']);
  headers.set('vary', 'Cookie');
}
