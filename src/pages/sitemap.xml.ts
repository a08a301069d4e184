import type { APIRoute } from 'astro';
import { cacheForAnonymous, cacheTags } from '@/lib/server/storefront/page-cache';
import { sitemapIndex } from '@/lib/domain/sitemap';

/** The sitemap index: the pages' part, then the products in parts (one file holds at most 50,000 URLs and 50 MB). */
export const GET: APIRoute = async (ctx) => {
  const { catalogue, config } = ctx.locals.services;
  const body = sitemapIndex(config.PUBLIC_SITE_URL, await catalogue.sitemapProductParts());
  return new Response(body, { headers: { 'content-type': 'application/xml; charset=utf-8', ...cacheForAnonymous(ctx, [cacheTags.listing]) } });
};
