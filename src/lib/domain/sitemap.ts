/**
 * The sitemap (sitemaps.org), as an index of parts: /sitemaps/pages.xml (home, content pages,
 * categories) and /sitemaps/products-N.xml, each with every market's URL as an hreflang alternate
 * and a product's pictures (image sitemap). One sitemap file holds at most 50,000 URLs and 50 MB.
 */
import { ALL_MARKETS, MARKETS, type MarketCode } from './markets';
import { inMarket } from './merchant';
import { xmlText } from './xml';

const NAMESPACES = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"';

interface SitemapUrl {
  loc: string;
  lastmod?: string;
  priority: string;
  /** Listed through hreflang alternates of the default market's URL. */
  markets?: readonly MarketCode[];
  images?: readonly string[];
}

/** `pages` or a products part's number (from 1); null for any other file name. */
export function parseSitemapPart(file: string | undefined): 'pages' | number | null {
  if (file === 'pages.xml') return 'pages';
  const m = /^products-([1-9]\d{0,5})\.xml$/.exec(file ?? '');
  return m ? Number(m[1]) : null;
}

export const sitemapPartPath = (part: 'pages' | number) => (part === 'pages' ? '/sitemaps/pages.xml' : `/sitemaps/products-${part}.xml`);

/** The index robots.txt names: the pages' part, then `productParts` parts of products. */
export function sitemapIndex(site: string, productParts: number): string {
  const parts: ('pages' | number)[] = ['pages', ...Array.from({ length: productParts }, (_, i) => i + 1)];
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    parts.map((p) => `  <sitemap><loc>${xmlText(new URL(sitemapPartPath(p), site).toString())}</loc></sitemap>`).join('\n') +
    '\n</sitemapindex>\n'
  );
}

function urlset(site: string, urls: readonly SitemapUrl[]): string {
  const abs = (loc: string) => xmlText(new URL(loc, site).toString());
  const alternates = (u: SitemapUrl) =>
    u.markets
      ? [...u.markets.map((m) => `<xhtml:link rel="alternate" hreflang="${MARKETS[m].locale}" href="${abs(inMarket(u.loc, m))}"/>`), `<xhtml:link rel="alternate" hreflang="x-default" href="${abs(u.loc)}"/>`].join('')
      : '';
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NAMESPACES}>\n` +
    urls
      .map(
        (u) =>
          `  <url><loc>${abs(u.loc)}</loc>${alternates(u)}${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ''}<priority>${u.priority}</priority>${(u.images ?? []).map((i) => `<image:image><image:loc>${abs(i)}</image:loc></image:image>`).join('')}</url>`,
      )
      .join('\n') +
    '\n</urlset>\n'
  );
}

/** Home, the designers' A–Z, the content pages (with their published "Last updated" day) and every category's collection, in every market. */
export function pagesSitemap(site: string, categories: readonly { id: number; parentId: number | null }[], contentUpdated: Readonly<Record<string, string>> = {}): string {
  const allMarkets = ALL_MARKETS.map((m) => m.code);
  return urlset(site, [
    { loc: '/', priority: '1.0', markets: allMarkets },
    { loc: '/collection', priority: '0.8', markets: allMarkets },
    { loc: '/Bags-men', priority: '0.6', markets: allMarkets },
    { loc: '/designers', priority: '0.6', markets: allMarkets },
    ...['about', 'privacy', 'contact'].map((slug) => ({ loc: `/${slug}`, priority: '0.3', ...(contentUpdated[slug] ? { lastmod: contentUpdated[slug] } : {}) })),
    ...categories.map((c) => ({
      loc: c.parentId === null ? `/collection?categoryId=${c.id}` : `/collection?categoryId=${c.parentId}&subCategory=${c.id}`,
      priority: c.parentId === null ? '0.8' : '0.7',
      markets: allMarkets,
    })),
  ]);
}

/** Products, each in the markets it is sold in, with its pictures. */
export function productsSitemap(site: string, products: readonly { id: number; updated: Date; markets: readonly MarketCode[]; images: readonly string[] }[]): string {
  return urlset(
    site,
    products.map((p) => ({ loc: `/product/${p.id}`, lastmod: p.updated.toISOString().slice(0, 10), priority: '0.6', markets: p.markets, images: p.images })),
  );
}
