import { cursorFields } from './paging';
import type { MarketCode } from './markets';
import { z } from 'zod';
import { message } from './messages';
import { optionalId, text } from './validation';
import type { CurrencyCode } from './money';
import type { DesignerRef } from './designers';

/** A product as the API and pages show it, money in major units. */
export interface ProductDto {
  id: number;
  name: string;
  slug: string;
  /** The house that made it (shown above the name); null: none named yet. */
  designer: DesignerRef | null;
  /** The card's price: the lowest of the variants (in the filtered colour, on a colour-filtered list). */
  price: number;
  /** Other variants (of that colour) cost more: the card says "From". */
  priceFrom: boolean;
  /** The colour `price` is for (the card's picture and link show it); null for a product without colours. */
  cardColor: string | null;
  currency: CurrencyCode;
  description: string;
  /** Image URLs, first one displayed. */
  images: string[];
  sizeNames: string[];
  colorNames: string[];
  /** Parent category first, then the sub-category. */
  categoryNames: string[];
  categoryId: number;
  subCategoryId: number;
  inStock: boolean;
  createdAt: string;
}

export interface VariantDto {
  id: number;
  size: string | null;
  color: string | null;
  stock: number;
  /** This variant's price in the market (major units); the product's `price` is the lowest. */
  price: number;
  /** The stock keeping unit staff gave it (null: none yet; listings make one from the ids). */
  sku: string | null;
}

export interface ProductDetailDto extends ProductDto {
  variants: VariantDto[];
  imageAlts: string[];
  /** The colour each image shows (same order as images); null: every colour. */
  imageColors: (string | null)[];
  colors: { name: string; hex: string }[];
  /** The markets the product is sold in (has a price in): its hreflang alternates. */
  markets: MarketCode[];
  /** The parent category's slug, then the sub-category's (what shopping catalogues map). */
  categorySlugs: [string, string];
  /** A bag's outer size, "width × height × depth" in cm (formatDimensions); null: none stated. */
  dimensionsCm: string | null;
}

/** A stated size: up to three measures in cm, each a whole number or one decimal, from 0.1 to 500. */
const MEASURE = /^\d{1,3}(?:[.,]\d)?$/;

/**
 * Staff type a bag's size as "38 x 30 x 14" (x, ×, * or spaces between; a decimal comma or point):
 * stored as "38 × 30 × 14", width, height and depth in cm. Empty: none stated (null). Anything
 * else: null from here, and the form's schema refuses it.
 */
export function parseDimensions(raw: string | null | undefined): string | null | undefined {
  const trimmed = (raw ?? '').trim().replace(/\s*cm$/i, '');
  if (!trimmed) return null;
  const parts = trimmed.split(/\s*[x×*]\s*|\s+/i).filter(Boolean);
  if (parts.length !== 3 || !parts.every((p) => MEASURE.test(p))) return undefined;
  const numbers = parts.map((p) => Number(p.replace(',', '.')));
  if (numbers.some((n) => n <= 0 || n > 500)) return undefined;
  return numbers.map((n) => String(n)).join(' × ');
}

/** The product page's "Size & fit" line: "Width 38 cm × height 30 cm × depth 14 cm". */
export function formatDimensions(stored: string): string {
  const [w, h, d] = stored.split(' × ');
  return `Width ${w} cm × height ${h} cm × depth ${d} cm`;
}

export interface NamedRef {
  id: number;
  name: string;
}

export interface CategoryDto {
  id: number;
  name: string;
  slug: string;
  description: string | null;
  image: string | null;
  parentId: number | null;
}

export interface ParentCategoryDto extends CategoryDto {
  subCategories: NamedRef[];
}

export const SORTS = ['relevant', 'low-high', 'high-low'] as const;
export type Sort = (typeof SORTS)[number];


/** Query of GET /products and of the /collection page (which names the ids color, size, subCategory). */
export const productQuerySchema = z.object({
  categoryId: optionalId,
  colorId: optionalId,
  sizeId: optionalId,
  subCategoryId: optionalId,
  /** A designer's slug (the /designers page links the collection with it). */
  designer: z.preprocess((v) => (v === '' ? undefined : v), z.string().max(80).regex(/^[a-z0-9-]+$/, message('designer-not-found')).optional()),
  q: z.preprocess((v) => (typeof v === 'string' ? v.trim() || undefined : v), text('q', 100).max(100, message('search-too-long')).optional()),
  sort: z.preprocess((v) => (v === '' ? undefined : v), z.enum(SORTS, { error: message('sort-invalid') }).default('relevant')),
  page: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1, message('page-invalid')).max(100_000).default(1)),
  limit: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).max(100, message('limit-too-high')).default(48)),
  ...cursorFields,
});
export type ProductQuery = z.output<typeof productQuerySchema>;

/** Maps the collection page's query names (color, size, subCategory) onto the API's. */
export function collectionQueryFromSearch(params: URLSearchParams): Record<string, string | undefined> {
  const get = (k: string) => params.get(k) ?? undefined;
  return {
    categoryId: get('categoryId'),
    colorId: get('color') ?? get('colorId'),
    sizeId: get('size') ?? get('sizeId'),
    subCategoryId: get('subCategory') ?? get('subCategoryId'),
    designer: get('designer'),
    q: get('q'),
    sort: get('sort'),
    page: get('page'),
    limit: get('limit'),
    after: get('after'),
    before: get('before'),
  };
}

export interface ProductListDto {
  docs: ProductDto[];
  colors: NamedRef[];
  sizes: NamedRef[];
  subCategories: NamedRef[];
  /** The designers of the pieces sold here, A–Z (the collection's "Designer" filter). */
  designers: DesignerRef[];
  totalDocs: number;
  page: number;
  limit: number;
  totalPages: number;
  /** A listing's page links by key (the product ids the next page follows and the previous one precedes); none for a search. */
  cursors?: { before: string | null; after: string | null };
  /** With a search (q): what was searched for, and when nothing was found, the closest queries the store knows. */
  search?: { query: string; corrected: string | null; didYouMean: string[] };
}
