import type { APIRoute } from 'astro';
import { ALL_MARKETS, MARKETS, type MarketCode } from '@/lib/domain/markets';
import { inMarket } from '@/lib/domain/merchant';
import { cacheForAnonymous, cacheTags } from '@/lib/server/infra/page-cache';

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Home, the content pages, every category's collection and every product with its pictures (image sitemap), in every market (a product only where it is sold). */
export const GET: APIRoute = async (ctx) => {
  const { locals } = ctx;
  const { catalogue, config } = locals.services;
  const site = config.PUBLIC_SITE_URL;
  const { products, categories } = await catalogue.sitemapEntries();
  const allMarkets = ALL_MARKETS.map((m) => m.code);
  const urls: { loc: string; lastmod?: string; priority: string; markets?: readonly MarketCode[]; images?: readonly string[] }[] = [
    { loc: '/', priority: '1.0', markets: allMarkets },
    { loc: '/collection', priority: '0.8', markets: allMarkets },
    { loc: '/Bags-men', priority: '0.6', markets: allMarkets },
    ...['/about', '/privacy', '/contact'].map((loc) => ({ loc, priority: '0.3' })),
    ...categories.map((c) => ({
      loc: c.parentId === null ? `/collection?categoryId=${c.id}` : `/collection?categoryId=${c.parentId}&subCategory=${c.id}`,
      priority: c.parentId === null ? '0.8' : '0.7',
      markets: allMarkets,
    })),
    ...products.map((p) => ({ loc: `/product/${p.id}`, lastmod: p.updated.toISOString().slice(0, 10), priority: '0.6', markets: p.markets, images: p.images })),
  ];
  const abs = (loc: string) => xmlEscape(new URL(loc, site).toString());
  // Each market's page is listed through hreflang alternates (xhtml:link) of the default market's URL.
  const alternates = (u: (typeof urls)[number]) =>
    u.markets
      ? [...u.markets.map((m) => `<xhtml:link rel="alternate" hreflang="${MARKETS[m].locale}" href="${abs(inMarket(u.loc, m))}"/>`), `<xhtml:link rel="alternate" hreflang="x-default" href="${abs(u.loc)}"/>`].join('')
      : '';
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n' +
    urls
      .map(
        (u) =>
          `  <url><loc>${abs(u.loc)}</loc>${alternates(u)}${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ''}<priority>${u.priority}</priority>${(u.images ?? []).map((i) => `<image:image><image:loc>${abs(i)}</image:loc></image:image>`).join('')}</url>`,
      )
      .join('\n') +
    '\n</urlset>\n';
  return new Response(body, {
    headers: { 'content-type': 'application/xml; charset=utf-8', ...cacheForAnonymous(ctx, [cacheTags.listing]) },
  });
};
