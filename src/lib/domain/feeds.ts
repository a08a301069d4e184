/**
 * Shopping feeds, one item per variant sold in a market: Google Merchant Center's RSS 2.0
 * (https://support.google.com/merchants/answer/7052112) and Meta's catalogue CSV
 * (https://www.facebook.com/business/help/120325381656392), which WhatsApp's catalogue reads too.
 * Pure: the feed service passes the products, these write their text.
 */
import { STORE_NAME } from './brand';
import { MARKETS, type MarketCode } from './markets';
import { categoryFacts, marketShipping, parseSize, priceText, variantPath, variantSku, type ListedVariant } from './merchant';
import { xmlText } from './xml';

export const FEED_FORMATS = ['google', 'meta'] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];

/** A product as a feed reads it: its variants sold in the market, its images (absolute) and the colour each shows. */
export interface FeedProduct {
  id: number;
  name: string;
  description: string;
  /** The designer's name (null: none named yet; the feeds then name the store). */
  brand: string | null;
  categoryNames: [string, string];
  categorySlugs: [string, string];
  images: { url: string; color: string | null }[];
  variants: ListedVariant[];
}

/** One variant's line of a feed, in the words both formats share. */
export interface FeedItem {
  id: string;
  groupId: string;
  title: string;
  description: string;
  brand: string;
  link: string;
  images: string[];
  inStock: boolean;
  /** "12500.00 NGN". */
  price: string;
  color: string | null;
  size: string | null;
  sizeSystem: string | null;
  gender: string;
  googleCategory: number;
  productType: string;
}

/** Merchant Center takes at most 150 characters of title and 5,000 of description, 10 additional images. */
const TITLE_MAX = 150;
const DESCRIPTION_MAX = 5000;
const MORE_IMAGES_MAX = 10;

export function feedItems(p: FeedProduct, market: MarketCode, site: string): FeedItem[] {
  const { currency } = MARKETS[market];
  const facts = categoryFacts(p.categorySlugs[1], p.categorySlugs[0]);
  return p.variants.map((v) => {
    const ofColor = p.images.filter((i) => i.color === null || i.color === v.color);
    const size = v.size ? parseSize(v.size) : null;
    return {
      id: variantSku(p.id, v),
      groupId: String(p.id),
      title: [p.name, v.color, v.size].filter(Boolean).join(', ').slice(0, TITLE_MAX),
      description: p.description.slice(0, DESCRIPTION_MAX),
      brand: p.brand ?? STORE_NAME,
      link: new URL(variantPath(p.id, v, market), site).toString(),
      images: (ofColor.length ? ofColor : p.images).map((i) => i.url),
      inStock: v.stock > 0,
      price: `${priceText(v.price)} ${currency}`,
      color: v.color,
      size: size?.value ?? null,
      sizeSystem: size?.system ?? null,
      gender: facts.gender,
      googleCategory: facts.google,
      productType: p.categoryNames.join(' > '),
    };
  });
}

/**
 * The variants of a product follow one another and repeat its description, pictures and
 * category: each element remembers its last value's markup, so 50,000 products' feed escapes each
 * once, not once per variant.
 */
const lastTag = new Map<string, { value: string | number; markup: string }>();
function tag(name: string, value: string | number | null): string {
  if (value === null || value === '') return '';
  const last = lastTag.get(name);
  if (last && last.value === value) return last.markup;
  const markup = `<${name}>${xmlText(String(value))}</${name}>`;
  lastTag.set(name, { value, markup });
  return markup;
}

/** The market's shipping once, as every Google item repeats it (g:shipping per delivery speed). */
export function googleShipping(market: MarketCode): string {
  return marketShipping(market)
    .map((s) => `<g:shipping><g:country>${s.country}</g:country><g:service>${xmlText(s.name)}</g:service><g:price>${priceText(s.fee)} ${s.currency}</g:price><g:min_transit_time>${s.days[0]}</g:min_transit_time><g:max_transit_time>${s.days[1]}</g:max_transit_time></g:shipping>`)
    .join('');
}

export function googleHead(market: MarketCode, site: string): string {
  const home = new URL('/', site).toString();
  return `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel><title>${xmlText(`${STORE_NAME} (${MARKETS[market].countryName})`)}</title><link>${xmlText(home)}</link><description>${xmlText(`${STORE_NAME}: luxury bags, clothing and shoes in ${MARKETS[market].countryName}`)}</description>\n`;
}
export const GOOGLE_TAIL = '</channel></rss>\n';

/** One Google item. `shipping` is googleShipping(market), made once per feed. */
export function googleItem(i: FeedItem, shipping: string): string {
  return (
    '<item>' +
    tag('g:id', i.id) +
    tag('g:item_group_id', i.groupId) +
    tag('title', i.title) +
    tag('description', i.description) +
    tag('link', i.link) +
    tag('g:image_link', i.images[0] ?? null) +
    i.images.slice(1, 1 + MORE_IMAGES_MAX).map((u) => tag('g:additional_image_link', u)).join('') +
    tag('g:availability', i.inStock ? 'in_stock' : 'out_of_stock') +
    tag('g:price', i.price) +
    tag('g:condition', 'new') +
    tag('g:brand', i.brand) +
    // The designers' pieces are listed without a GTIN or manufacturer part number.
    tag('g:identifier_exists', 'no') +
    tag('g:color', i.color) +
    tag('g:size', i.size) +
    tag('g:size_system', i.sizeSystem) +
    tag('g:gender', i.gender) +
    tag('g:age_group', 'adult') +
    tag('g:google_product_category', i.googleCategory) +
    tag('g:product_type', i.productType) +
    shipping +
    '</item>\n'
  );
}

/** Meta's columns (its catalogue's own names). */
export const META_COLUMNS = [
  'id',
  'title',
  'description',
  'availability',
  'condition',
  'price',
  'link',
  'image_link',
  'additional_image_link',
  'brand',
  'item_group_id',
  'color',
  'size',
  'gender',
  'age_group',
  'google_product_category',
  'product_type',
] as const;

/** A variant's cells of Meta's CSV, in META_COLUMNS' order (written by src/lib/server/infra/csv.ts). */
export function metaRecord(i: FeedItem): (string | number | null)[] {
  const row: Record<(typeof META_COLUMNS)[number], string | number | null> = {
    id: i.id,
    title: i.title,
    description: i.description,
    availability: i.inStock ? 'in stock' : 'out of stock',
    condition: 'new',
    price: i.price,
    link: i.link,
    image_link: i.images[0] ?? null,
    additional_image_link: i.images.slice(1, 1 + MORE_IMAGES_MAX).join(',') || null,
    brand: i.brand,
    item_group_id: i.groupId,
    color: i.color,
    size: i.sizeSystem ? `${i.sizeSystem} ${i.size}` : i.size,
    gender: i.gender,
    age_group: 'adult',
    google_product_category: i.googleCategory,
    product_type: i.productType,
  };
  return META_COLUMNS.map((c) => row[c]);
}
