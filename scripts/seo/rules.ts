/**
 * The rules `npm run seo:check` holds the store to, each with the documentation it comes from.
 * `error`: Google (or Meta) requires it, or the store would tell a shopper something untrue (a
 * feed price that is not the page's); `warning`: documented as recommended.
 */
export type Level = 'error' | 'warning';

export interface Rule {
  level: Level;
  what: string;
  source: string;
}

const MERCHANT_LISTING = 'https://developers.google.com/search/docs/appearance/structured-data/merchant-listing';
const VARIANTS = 'https://developers.google.com/search/docs/appearance/structured-data/product-variants';
const RETURNS = 'https://developers.google.com/search/docs/appearance/structured-data/return-policy';
const SHIPPING = 'https://developers.google.com/search/docs/appearance/structured-data/shipping-policy';
const ORGANIZATION = 'https://developers.google.com/search/docs/appearance/structured-data/organization';
const MC_SPEC = 'https://support.google.com/merchants/answer/7052112';
const MC_VARIANTS = 'https://support.google.com/merchants/answer/6324507';
const META_SPEC = 'https://www.facebook.com/business/help/120325381656392';
const SCHEMA = 'https://schema.org/';

export const RULES = {
  // ---- product pages: the ProductGroup
  'page.product-group': { level: 'error', what: 'a product page sold in the market carries a ProductGroup', source: VARIANTS },
  'group.name': { level: 'error', what: 'ProductGroup.name (required)', source: VARIANTS },
  'group.productGroupID': { level: 'warning', what: 'ProductGroup.productGroupID (recommended)', source: VARIANTS },
  'group.variesBy': { level: 'warning', what: 'ProductGroup.variesBy names what the variants differ in (recommended)', source: VARIANTS },
  'group.hasVariant': { level: 'error', what: 'ProductGroup.hasVariant: at least one variant Product', source: VARIANTS },
  'group.brand': { level: 'warning', what: 'ProductGroup.brand.name (recommended)', source: VARIANTS },
  'group.description': { level: 'warning', what: 'ProductGroup.description (recommended)', source: VARIANTS },
  // ---- each variant: a merchant listing
  'variant.name': { level: 'error', what: 'Product.name (required)', source: MERCHANT_LISTING },
  'variant.image': { level: 'error', what: 'Product.image (required)', source: MERCHANT_LISTING },
  'variant.offers': { level: 'error', what: 'Product.offers: one Offer (required)', source: MERCHANT_LISTING },
  'variant.sku': { level: 'warning', what: 'Product.sku, unique on the page (recommended identifier)', source: MERCHANT_LISTING },
  'variant.varies-by': { level: 'error', what: 'each variant has every property its group variesBy', source: VARIANTS },
  'variant.size': { level: 'warning', what: 'size as text or SizeSpecification with a schema.org WearableSizeSystem (recommended)', source: MERCHANT_LISTING },
  'offer.price': { level: 'error', what: 'Offer.price, a number above zero (required)', source: MERCHANT_LISTING },
  'offer.priceCurrency': { level: 'error', what: "Offer.priceCurrency, the market's ISO 4217 code (required)", source: MERCHANT_LISTING },
  'offer.availability': { level: 'warning', what: 'Offer.availability, a schema.org ItemAvailability (recommended)', source: MERCHANT_LISTING },
  'offer.itemCondition': { level: 'warning', what: 'Offer.itemCondition, a schema.org OfferItemCondition (recommended)', source: MERCHANT_LISTING },
  'offer.url': { level: 'error', what: "Offer.url: the variant's own URL on this site, which preselects it (single-page variants)", source: VARIANTS },
  'offer.page-price': { level: 'error', what: "the variant's URL shows the offer's price", source: MERCHANT_LISTING },
  'offer.shippingDetails': { level: 'warning', what: 'Offer.shippingDetails (recommended)', source: MERCHANT_LISTING },
  'shipping.rate': { level: 'error', what: 'OfferShippingDetails.shippingRate with value and currency', source: SHIPPING },
  'shipping.destination': { level: 'error', what: 'OfferShippingDetails.shippingDestination.addressCountry (ISO 3166-1 alpha-2)', source: SHIPPING },
  'shipping.deliveryTime': { level: 'warning', what: 'deliveryTime with handlingTime and transitTime (minValue, maxValue, unitCode DAY)', source: SHIPPING },
  'offer.hasMerchantReturnPolicy': { level: 'warning', what: 'Offer.hasMerchantReturnPolicy (recommended)', source: MERCHANT_LISTING },
  'returns.country': { level: 'error', what: 'MerchantReturnPolicy.applicableCountry (required)', source: RETURNS },
  'returns.category': { level: 'error', what: 'MerchantReturnPolicy.returnPolicyCategory, a schema.org MerchantReturnEnumeration (required)', source: RETURNS },
  'returns.days': { level: 'error', what: 'merchantReturnDays with a finite return window', source: RETURNS },
  'returns.method': { level: 'warning', what: 'MerchantReturnPolicy.returnMethod (recommended)', source: RETURNS },
  'returns.fees': { level: 'warning', what: 'MerchantReturnPolicy.returnFees (recommended)', source: RETURNS },
  'page.not-sold': { level: 'error', what: 'a product not sold in a market answers 404 there and carries no offer', source: MERCHANT_LISTING },
  // ---- the home page
  'home.organization': { level: 'error', what: 'the home page carries an Organization (OnlineStore) with name, url and logo', source: ORGANIZATION },
  'home.contactPoint': { level: 'warning', what: 'Organization.contactPoint (recommended)', source: ORGANIZATION },
  'home.returnPolicy': { level: 'warning', what: "Organization.hasMerchantReturnPolicy for every market (recommended)", source: RETURNS },
  'home.shippingService': { level: 'warning', what: 'Organization.hasShippingService for every market (recommended)', source: SHIPPING },
  // ---- Merchant Center feed
  'gfeed.id': { level: 'error', what: 'id: present, at most 50 characters, unique in the feed', source: MC_SPEC },
  'gfeed.title': { level: 'error', what: 'title: present, at most 150 characters', source: MC_SPEC },
  'gfeed.description': { level: 'error', what: 'description: present, at most 5,000 characters', source: MC_SPEC },
  'gfeed.link': { level: 'error', what: "link: an URL of the store's own site", source: MC_SPEC },
  'gfeed.image_link': { level: 'error', what: 'image_link: present', source: MC_SPEC },
  'gfeed.availability': { level: 'error', what: 'availability: in_stock, out_of_stock, preorder or backorder', source: MC_SPEC },
  'gfeed.price': { level: 'error', what: "price: a number and the market's ISO 4217 currency", source: MC_SPEC },
  'gfeed.brand': { level: 'error', what: 'brand (required for new products)', source: MC_SPEC },
  'gfeed.identifiers': { level: 'error', what: 'gtin or mpn, or identifier_exists no', source: MC_SPEC },
  'gfeed.condition': { level: 'warning', what: 'condition: new, refurbished or used', source: MC_SPEC },
  'gfeed.apparel': { level: 'error', what: 'apparel: color, gender (male, female, unisex) and age_group (adult, …)', source: MC_SPEC },
  'gfeed.size': { level: 'error', what: 'apparel sold in sizes: size', source: MC_SPEC },
  'gfeed.item_group_id': { level: 'error', what: 'variants of one product share an item_group_id', source: MC_VARIANTS },
  'gfeed.google_product_category': { level: 'warning', what: "google_product_category: an id of Google's taxonomy", source: MC_SPEC },
  'gfeed.shipping': { level: 'warning', what: 'shipping: country, service and price', source: MC_SPEC },
  // ---- Meta catalogue feed
  'mfeed.required': { level: 'error', what: 'id, title, description, availability, condition, price, link, image_link, brand', source: META_SPEC },
  'mfeed.availability': { level: 'error', what: 'availability: in stock, out of stock, preorder, available for order or discontinued', source: META_SPEC },
  'mfeed.price': { level: 'error', what: "price: a number and the market's ISO 4217 currency", source: META_SPEC },
  // ---- feeds against the pages
  'feed.matches-page': { level: 'error', what: "each feed item's price, availability and link equal its variant's offer on the page", source: MC_SPEC },
  'feed.covers-page': { level: 'error', what: "every variant a page offers is in the market's feeds, and no feed item lacks its page", source: MC_SPEC },
} as const satisfies Record<string, Rule>;

export type RuleId = keyof typeof RULES;

export const SCHEMA_AVAILABILITY = new Set(['InStock', 'OutOfStock', 'PreOrder', 'BackOrder', 'Discontinued', 'InStoreOnly', 'LimitedAvailability', 'OnlineOnly', 'PreSale', 'SoldOut', 'MadeToOrder'].map((v) => SCHEMA + v));
export const SCHEMA_CONDITION = new Set(['NewCondition', 'UsedCondition', 'RefurbishedCondition', 'DamagedCondition'].map((v) => SCHEMA + v));
export const SCHEMA_RETURN_CATEGORY = new Set(['MerchantReturnFiniteReturnWindow', 'MerchantReturnNotPermitted', 'MerchantReturnUnlimitedWindow', 'MerchantReturnUnspecified'].map((v) => SCHEMA + v));
export const SCHEMA_SIZE_SYSTEMS = new Set(['AU', 'BR', 'CN', 'DE', 'Europe', 'FR', 'GS1', 'IT', 'JP', 'MX', 'UK', 'US'].map((v) => `${SCHEMA}WearableSizeSystem${v}`));
