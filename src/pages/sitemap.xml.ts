import type { APIRoute } from 'astro';
import { cacheForAnonymous, cacheTags } from '../lib/server/page-cache';

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Home, the content pages, every category's collection and every product. */
export const GET: APIRoute = async (ctx) => {
  const { locals } = ctx;
  const { catalogue, config } = locals.services;
  const site = config.PUBLIC_SITE_URL;
  const { products, categories } = await catalogue.sitemapEntries();
  const urls: { loc: string; lastmod?: string; priority: string }[] = [
    { loc: '/', priority: '1.0' },
    { loc: '/collection', priority: '0.8' },
    { loc: '/Bags-men', priority: '0.6' },
    ...['/about', '/privacy', '/contact'].map((loc) => ({ loc, priority: '0.3' })),
    ...categories.map((c) => ({
      loc: c.parentId === null ? `/collection?categoryId=${c.id}` : `/collection?categoryId=${c.parentId}&subCategory=${c.id}`,
      priority: c.parentId === null ? '0.8' : '0.7',
    })),
    ...products.map((p) => ({ loc: `/product/${p.id}`, lastmod: p.updated.toISOString().slice(0, 10), priority: '0.6' })),
  ];
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    urls
      .map(
        (u) =>
          `  <url><loc>${xmlEscape(new URL(u.loc, site).toString())}</loc>${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ''}<priority>${u.priority}</priority></url>`,
      )
      .join('\n') +
    '\n</urlset>\n';
  return new Response(body, {
    headers: { 'content-type': 'application/xml; charset=utf-8', ...cacheForAnonymous(ctx, [cacheTags.listing]) },
  });
};
