import type { APIRoute } from 'astro';
import { cacheForAnonymous } from '@/lib/server/storefront/page-cache';

/** Crawl the store, not the API or account pages; the sitemap lists what matters. */
export const GET: APIRoute = (ctx) => {
  const site = ctx.locals.services.config.PUBLIC_SITE_URL;
  const body = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /api/',
    'Disallow: /cart',
    'Disallow: /place-order',
    'Disallow: /profile',
    'Disallow: /settings',
    'Disallow: /order-history',
    'Disallow: /order-details/',
    'Disallow: /dev/',
    '',
    `Sitemap: ${new URL('/sitemap.xml', site).toString()}`,
    '',
  ].join('\n');
  return new Response(body, { headers: { 'content-type': 'text/plain; charset=utf-8', ...cacheForAnonymous(ctx, []) } });
};
