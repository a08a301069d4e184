/**
 * What search engines and shopping catalogues are told about what the store sells, in one place:
 * a variant's SKU, URL and size system, the sub-categories' Google product categories and
 * audiences, and the store's shipping and return terms per market, read from the same constants
 * checkout (DELIVERY_SPEEDS) and returns (RETURN_WINDOW_DAYS, RETURN_METHODS, RETURN_RESOLUTIONS)
 * use, so a change of fee or window changes the markup and the feeds with it. No I/O.
 */
import { RETURN_METHODS, RETURN_RESOLUTIONS, RETURN_WINDOW_DAYS, type ReturnMethod, type ReturnResolution } from './after-sales';
import { DEFAULT_MARKET, MARKETS, type MarketCode } from './markets';
import { toMajor } from './money';
import { DELIVERY_SPEEDS } from './shipping';

/** A variant as listings need it. */
export interface ListedVariant {
  id: number;
  sku: string | null;
  size: string | null;
  color: string | null;
  stock: number;
  /** Major units of the market's currency. */
  price: number;
}

/** The SKU staff gave the variant, else one made from its ids (stable, unique: variant ids are). */
export function variantSku(productId: number, v: Pick<ListedVariant, 'id' | 'sku'>): string {
  return v.sku?.trim() || `ML-${productId}-${v.id}`;
}

/** The path (and query) of a page in a market: Nigeria's has no ?market= (it is the default), the others' do. */
export function inMarket(path: string, market: MarketCode): string {
  if (market === DEFAULT_MARKET) return path;
  return `${path}${path.includes('?') ? '&' : '?'}market=${market}`;
}

/** The product page with this variant chosen (`?color=` / `?size=` preselect it, with or without scripts), in a market. */
export function variantPath(productId: number, v: Pick<ListedVariant, 'color' | 'size'>, market: MarketCode): string {
  const q = new URLSearchParams();
  if (v.color) q.set('color', v.color);
  if (v.size) q.set('size', v.size);
  const query = q.toString();
  return inMarket(`/product/${productId}${query ? `?${query}` : ''}`, market);
}

/** A price as catalogues write it: major units with two decimals ("12500.00"). */
export const priceText = (major: number) => major.toFixed(2);

export type SizeSystem = 'EU' | 'UK';

/** "EU 38" -> 38 in the EU system; sizes of no named system ("M", "90 cm") stay as they are. */
export function parseSize(name: string): { value: string; system: SizeSystem | null } {
  const m = /^(EU|UK)\s+(.+)$/i.exec(name.trim());
  return m ? { value: m[2]!, system: m[1]!.toUpperCase() as SizeSystem } : { value: name, system: null };
}

/** schema.org's wearable size systems by the store's prefixes. */
export const SCHEMA_SIZE_SYSTEMS: Record<SizeSystem, string> = {
  EU: 'https://schema.org/WearableSizeSystemEurope',
  UK: 'https://schema.org/WearableSizeSystemUK',
};

export type Gender = 'female' | 'male' | 'unisex';

interface CategoryFacts {
  /** Google's product taxonomy id (https://www.google.com/basepages/producttype/taxonomy-with-ids.en-US.txt). */
  google: number;
  gender: Gender;
}

/**
 * The sub-categories (and, as a fallback for ones staff add, the parent categories) by slug, with
 * their place in Google's product taxonomy and who they are cut for.
 */
const CATEGORY_FACTS: Record<string, CategoryFacts> = {
  bags: { google: 6551, gender: 'unisex' }, // Handbags, Wallets & Cases
  totes: { google: 3032, gender: 'female' }, // Handbags
  'crossbody-bags': { google: 3032, gender: 'female' },
  clutches: { google: 3032, gender: 'female' },
  backpacks: { google: 100, gender: 'unisex' }, // Luggage & Bags > Backpacks
  'bags-men': { google: 5181, gender: 'male' }, // Luggage & Bags
  clothing: { google: 1604, gender: 'unisex' }, // Apparel & Accessories > Clothing
  dresses: { google: 2271, gender: 'female' },
  shirts: { google: 212, gender: 'unisex' }, // Shirts & Tops
  jackets: { google: 5598, gender: 'unisex' }, // Outerwear > Coats & Jackets
  trousers: { google: 204, gender: 'unisex' }, // Pants
  shoes: { google: 187, gender: 'unisex' },
  heels: { google: 187, gender: 'female' },
  sneakers: { google: 187, gender: 'unisex' },
  loafers: { google: 187, gender: 'unisex' },
  sandals: { google: 187, gender: 'unisex' },
  accessories: { google: 167, gender: 'unisex' }, // Clothing Accessories
  belts: { google: 169, gender: 'unisex' },
  scarves: { google: 177, gender: 'unisex' }, // Scarves & Shawls
  wallets: { google: 2668, gender: 'unisex' }, // Wallets & Money Clips
  sunglasses: { google: 178, gender: 'unisex' },
};
/** Apparel & Accessories: what a category nobody mapped still is. */
const ANY_CATEGORY: CategoryFacts = { google: 166, gender: 'unisex' };

/** The Google category and gender of a product in a sub-category (then its parent, then the store's whole range). */
export function categoryFacts(subCategorySlug: string, parentSlug: string): CategoryFacts {
  return CATEGORY_FACTS[subCategorySlug] ?? CATEGORY_FACTS[parentSlug] ?? ANY_CATEGORY;
}

/** A delivery speed as a market offers it: fee in its currency, working days from order to door. */
export interface MarketShipping {
  name: string;
  country: MarketCode;
  currency: string;
  fee: number;
  days: readonly [number, number];
}

/** The market's delivery speeds, from checkout's own table (DELIVERY_SPEEDS); the store delivers within the market's country. */
export function marketShipping(market: MarketCode): MarketShipping[] {
  const { currency } = MARKETS[market];
  return DELIVERY_SPEEDS.map((s) => ({ name: s.name, country: market, currency, fee: toMajor(s.feeMinor[currency]), days: s.workingDays }));
}

/** How goods come back (RETURN_METHODS), as schema.org says it: a drop-off is in store, a collection goes back by courier. */
const SCHEMA_RETURN_METHOD: Record<ReturnMethod, string> = {
  drop_off: 'https://schema.org/ReturnInStore',
  collection: 'https://schema.org/ReturnByMail',
};
/** What a shopper may ask for (RETURN_RESOLUTIONS), as schema.org's refund types. */
const SCHEMA_REFUND_TYPE: Record<ReturnResolution, string> = {
  refund: 'https://schema.org/FullRefund',
  exchange: 'https://schema.org/ExchangeRefund',
  credit: 'https://schema.org/StoreCreditRefund',
};

/**
 * The return policy of a market's orders (schema.org MerchantReturnPolicy): the window returns
 * enforce, the ways goods come back and the money back they offer. Returns cost the shopper
 * nothing: a return gives back what was paid for the lines and withholds no fee.
 */
export function returnPolicyLd(market: MarketCode): Record<string, unknown> {
  return {
    '@type': 'MerchantReturnPolicy',
    applicableCountry: market,
    returnPolicyCountry: market,
    returnPolicyCategory: 'https://schema.org/MerchantReturnFiniteReturnWindow',
    merchantReturnDays: RETURN_WINDOW_DAYS,
    returnMethod: RETURN_METHODS.map((m) => SCHEMA_RETURN_METHOD[m]),
    returnFees: 'https://schema.org/FreeReturn',
    refundType: RETURN_RESOLUTIONS.map((r) => SCHEMA_REFUND_TYPE[r]),
  };
}

const days = (min: number, max: number) => ({ '@type': 'QuantitativeValue', minValue: min, maxValue: max, unitCode: 'DAY' });

/**
 * The market's delivery speeds as an offer's shipping details (schema.org OfferShippingDetails).
 * A speed's working days run from the order to the door, so they are the transit time and the
 * handling time is none.
 */
export function shippingDetailsLd(market: MarketCode): Record<string, unknown>[] {
  return marketShipping(market).map((s) => ({
    '@type': 'OfferShippingDetails',
    shippingRate: { '@type': 'MonetaryAmount', value: priceText(s.fee), currency: s.currency },
    shippingDestination: { '@type': 'DefinedRegion', addressCountry: s.country },
    deliveryTime: { '@type': 'ShippingDeliveryTime', handlingTime: days(0, 0), transitTime: days(s.days[0], s.days[1]) },
  }));
}

/** The market's delivery speeds as the store-wide shipping service (schema.org ShippingService, on the Organization). */
export function shippingServiceLd(market: MarketCode): Record<string, unknown> {
  return {
    '@type': 'ShippingService',
    name: `Delivery in ${MARKETS[market].countryName}`,
    shippingConditions: marketShipping(market).map((s) => ({
      '@type': 'ShippingConditions',
      name: s.name,
      shippingDestination: { '@type': 'DefinedRegion', addressCountry: s.country },
      shippingRate: { '@type': 'MonetaryAmount', value: priceText(s.fee), currency: s.currency },
      transitTime: { '@type': 'ServicePeriod', duration: days(s.days[0], s.days[1]) },
    })),
  };
}
