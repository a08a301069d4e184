/**
 * A product page's structured data as Google's merchant listings and product variants read it: a
 * ProductGroup with one Product per variant sold in the page's market, each with one Offer (its
 * price, stock, URL, shipping and return terms). Pure: the page passes the product and its origin.
 */
import { STORE_NAME } from './brand';
import type { ProductDetailDto } from './catalogue';
import type { MarketCode } from './markets';
import { parseSize, priceText, returnPolicyLd, SCHEMA_SIZE_SYSTEMS, shippingDetailsLd, variantPath, variantSku, type ListedVariant } from './merchant';

/** `designer` is the brand search engines are told; without one, the store. */
export type ListedProduct = Pick<ProductDetailDto, 'id' | 'name' | 'description' | 'images' | 'imageColors' | 'categoryNames' | 'currency' | 'designer'> & {
  variants: ListedVariant[];
};

/** A variant's size: with its system where it has one (EU, UK), plain text otherwise. */
function sizeLd(name: string): string | Record<string, unknown> {
  const { value, system } = parseSize(name);
  return system ? { '@type': 'SizeSpecification', name: value, sizeSystem: SCHEMA_SIZE_SYSTEMS[system] } : name;
}

/** The images that show a colour: its own and those of every colour (the gallery's rule); all of them when it has none. */
export function imagesOfColor(product: Pick<ListedProduct, 'images' | 'imageColors'>, color: string | null): string[] {
  const own = product.images.filter((_, i) => product.imageColors[i] === null || product.imageColors[i] === color);
  return own.length ? own : product.images;
}

export function productGroupLd(product: ListedProduct, market: MarketCode, site: string): Record<string, unknown> {
  const abs = (path: string) => new URL(path, site).toString();
  const groupUrl = abs(variantPath(product.id, { color: null, size: null }, market));
  // Only what tells the variants apart: a product in one colour varies by size alone.
  const varies = (['color', 'size'] as const).filter((k) => new Set(product.variants.map((v) => v[k])).size > 1);
  // Built once per page: every offer carries the same market terms.
  const shippingDetails = shippingDetailsLd(market);
  const hasMerchantReturnPolicy = returnPolicyLd(market);
  return {
    '@context': 'https://schema.org',
    '@type': 'ProductGroup',
    '@id': groupUrl,
    name: product.name,
    description: product.description,
    url: groupUrl,
    brand: { '@type': 'Brand', name: product.designer?.name ?? STORE_NAME },
    category: product.categoryNames.join(' > '),
    image: product.images.map(abs),
    productGroupID: String(product.id),
    ...(varies.length ? { variesBy: varies.map((k) => `https://schema.org/${k}`) } : {}),
    hasVariant: product.variants.map((v) => {
      const url = abs(variantPath(product.id, v, market));
      return {
        '@type': 'Product',
        sku: variantSku(product.id, v),
        name: [product.name, v.color, v.size].filter(Boolean).join(', '),
        image: imagesOfColor(product, v.color).map(abs),
        ...(v.color ? { color: v.color } : {}),
        ...(v.size ? { size: sizeLd(v.size) } : {}),
        offers: {
          '@type': 'Offer',
          url,
          price: priceText(v.price),
          priceCurrency: product.currency,
          availability: v.stock > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
          itemCondition: 'https://schema.org/NewCondition',
          shippingDetails,
          hasMerchantReturnPolicy,
        },
      };
    }),
  };
}
