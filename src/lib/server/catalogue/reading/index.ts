import type { Db } from '@/lib/server/infra/db/client';
import type { ReadMemo } from '@/lib/server/infra/read-memo';
import type { SearchService } from '../search';
import { createCategoryReading } from './categories';
import { createDesignerReading } from './designers';
import { createListings } from './listings';
import { createProductPage } from './product-page';
import { createSitemapReading } from './sitemap';

/**
 * Catalogue reads, as the pages and the API call them: one object made of one module per job:
 * - listings.ts: a page of products (a listing or a search, with its facets) and the home page's rows;
 * - product-page.ts: one product with its variants, and its related products;
 * - categories.ts: the menu, a category and its sub-categories;
 * - designers.ts: the designers' A–Z;
 * - sitemap.ts: what the sitemap lists, by parts;
 * - products.ts: a product as a card and the API show it, read for many products at once.
 * With a memo (the app server's), the product, its related products, the menu and pages of products
 * are kept in memory and dropped by the same tags as the route cache (read-memo.ts). Nothing is
 * decided here.
 */
export function createCatalogueService({ db, memo, search }: { db: Db; memo?: ReadMemo; search: SearchService }) {
  return {
    ...createListings({ db, memo, search }),
    ...createProductPage({ db, memo }),
    ...createCategoryReading({ db, memo }),
    ...createDesignerReading({ db, memo }),
    ...createSitemapReading({ db }),
  };
}
export type CatalogueService = ReturnType<typeof createCatalogueService>;
