import type { APIRoute } from 'astro';
import { cacheForAnonymous, cacheTags } from '@/lib/server/storefront/page-cache';
import { pagesSitemap, parseSitemapPart, productsSitemap } from '@/lib/domain/sitemap';
import { SITEMAP_TAG } from '@/lib/server/content/pages';

/** A part of the sitemap: /sitemaps/pages.xml (home, content pages, categories), /sitemaps/products-1.xml, … */
export const GET: APIRoute = async (ctx) => {
  const { catalogue, config, contentPages } = ctx.locals.services;
  const part = parseSitemapPart(ctx.params.part);
  const notFound = () => new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  if (part === null) return notFound();
  const site = config.PUBLIC_SITE_URL;
  let body: string;
  if (part === 'pages') body = pagesSitemap(site, await catalogue.sitemapCategories(), await contentPages.lastUpdated());
  else {
    if (part > (await catalogue.sitemapProductParts())) return notFound();
    body = productsSitemap(site, await catalogue.sitemapProducts(part));
  }
  return new Response(body, { headers: { 'content-type': 'application/xml; charset=utf-8', ...cacheForAnonymous(ctx, [cacheTags.listing, SITEMAP_TAG]) } });
};
