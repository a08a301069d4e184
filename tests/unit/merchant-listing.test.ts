import { describe, expect, it } from 'vitest';
import { RETURN_WINDOW_DAYS } from '@/lib/domain/after-sales';
import { feedItems, googleItem, googleShipping } from '@/lib/domain/feeds';
import { META_HEAD, metaRow } from '@/lib/server/catalogue/feeds/meta-csv';
import { parseSize, variantPath } from '@/lib/domain/merchant';
import { productGroupLd, type ListedProduct } from '@/lib/domain/product-ld';
import { DELIVERY_SPEEDS } from '@/lib/domain/shipping';
import { onlineStoreLd } from '@/lib/domain/store-ld';

const SITE = 'https://shop.example';
const product: ListedProduct = {
  id: 7,
  name: 'Amara Silk Midi Dress',
  description: 'Cut on the bias & lined in silk.',
  images: ['/media/a/640.webp', '/media/b/640.webp', '/media/c/640.webp'],
  imageColors: [null, 'Black', 'Ivory'],
  categoryNames: ['Clothing', 'Dresses'],
  currency: 'ZAR',
  designer: { id: 3, name: 'Ọ̀ṣun & Ivory', slug: 'osun-ivory' },
  variants: [
    { id: 70, sku: 'AM-BLK-S', size: 'S', color: 'Black', stock: 2, price: 4200 },
    { id: 71, sku: null, size: 'M', color: 'Black', stock: 0, price: 4200 },
    { id: 72, sku: null, size: 'S', color: 'Ivory', stock: 5, price: 4500.5 },
  ],
};

describe('a product page’s ProductGroup', () => {
  const ld = productGroupLd(product, 'ZA', SITE) as Record<string, any>;
  const variants = ld.hasVariant as Record<string, any>[];

  it('groups one Product per variant sold in the market, varying by what tells them apart', () => {
    expect(ld).toMatchObject({ '@type': 'ProductGroup', productGroupID: '7', name: product.name, category: 'Clothing > Dresses', brand: { '@type': 'Brand', name: 'Ọ̀ṣun & Ivory' } });
    expect(ld.variesBy).toEqual(['https://schema.org/color', 'https://schema.org/size']);
    // A piece with no designer named yet is branded with the store.
    expect((productGroupLd({ ...product, designer: null }, 'ZA', SITE) as Record<string, any>).brand).toEqual({ '@type': 'Brand', name: 'Maison Luxe' });
    expect(variants.map((v) => v.sku)).toEqual(['AM-BLK-S', 'ML-7-71', 'ML-7-72']);
    expect(variants[2]).toMatchObject({ color: 'Ivory', size: 'S', image: [`${SITE}/media/a/640.webp`, `${SITE}/media/c/640.webp`] });
  });

  it('gives each variant one Offer at its own price, stock and URL in the market', () => {
    expect(variants[0]!.offers).toMatchObject({ price: '4200.00', priceCurrency: 'ZAR', availability: 'https://schema.org/InStock', itemCondition: 'https://schema.org/NewCondition', url: `${SITE}/product/7?color=Black&size=S&market=ZA` });
    expect(variants[1]!.offers.availability).toBe('https://schema.org/OutOfStock');
    expect(variants[2]!.offers.price).toBe('4500.50');
  });

  it('carries the market’s delivery speeds and the 3-day return policy from checkout’s and returns’ own tables', () => {
    const { shippingDetails, hasMerchantReturnPolicy } = variants[0]!.offers;
    expect(shippingDetails).toHaveLength(DELIVERY_SPEEDS.length);
    DELIVERY_SPEEDS.forEach((speed, i) => {
      expect(shippingDetails[i]).toMatchObject({
        shippingRate: { value: (speed.feeMinor.ZAR / 100).toFixed(2), currency: 'ZAR' },
        shippingDestination: { addressCountry: 'ZA' },
        deliveryTime: { transitTime: { minValue: speed.workingDays[0], maxValue: speed.workingDays[1], unitCode: 'DAY' } },
      });
    });
    expect(hasMerchantReturnPolicy).toMatchObject({
      applicableCountry: 'ZA',
      returnPolicyCategory: 'https://schema.org/MerchantReturnFiniteReturnWindow',
      merchantReturnDays: RETURN_WINDOW_DAYS,
      returnFees: 'https://schema.org/FreeReturn',
    });
    expect(hasMerchantReturnPolicy.returnMethod).toEqual(['https://schema.org/ReturnInStore', 'https://schema.org/ReturnByMail']);
    expect([...hasMerchantReturnPolicy.refundType].sort()).toEqual(['https://schema.org/ExchangeRefund', 'https://schema.org/FullRefund', 'https://schema.org/StoreCreditRefund']);
  });

  it('names EU and UK sizes with their system, other sizes as text, and leaves variesBy out when nothing varies', () => {
    const shoe = productGroupLd({ ...product, variants: [{ id: 1, sku: null, size: 'EU 38', color: 'Tan', stock: 1, price: 10 }] }, 'NG', SITE) as Record<string, any>;
    expect(shoe.hasVariant[0].size).toEqual({ '@type': 'SizeSpecification', name: '38', sizeSystem: 'https://schema.org/WearableSizeSystemEurope' });
    expect(shoe.variesBy).toBeUndefined();
    expect(shoe.hasVariant[0].offers.url).toBe(`${SITE}/product/7?color=Tan&size=EU+38`);
    expect(parseSize('UK 6')).toEqual({ value: '6', system: 'UK' });
    expect(parseSize('90 cm')).toEqual({ value: '90 cm', system: null });
  });

  it('is written compactly: no line breaks or indentation', () => {
    expect(JSON.stringify(ld)).not.toMatch(/\n|: /);
  });
});

describe('the store’s OnlineStore', () => {
  it('names the contact points, and the return policy and shipping of every market', () => {
    const ld = onlineStoreLd(SITE, { phone: '+234 1 700 5866', email: 'care@maisonluxe.ng' }) as Record<string, any>;
    expect(ld).toMatchObject({ '@type': 'OnlineStore', name: 'Maison Luxe', url: `${SITE}/`, logo: `${SITE}/favicon.svg` });
    expect(ld.contactPoint[0]).toMatchObject({ telephone: '+23417005866', email: 'care@maisonluxe.ng' });
    expect(ld.hasMerchantReturnPolicy.map((p: any) => p.applicableCountry)).toEqual(['NG', 'ZA']);
    expect(ld.hasShippingService.map((s: any) => s.shippingConditions[0].shippingDestination.addressCountry)).toEqual(['NG', 'ZA']);
  });
});

describe('feed items', () => {
  const feedProduct = {
    id: 7,
    name: product.name,
    description: product.description,
    brand: 'Ọ̀ṣun & Ivory',
    categoryNames: ['Clothing', 'Dresses'] as [string, string],
    categorySlugs: ['clothing', 'dresses'] as [string, string],
    images: product.images.map((url, i) => ({ url: SITE + url, color: product.imageColors[i]! })),
    variants: product.variants,
  };
  const items = feedItems(feedProduct, 'ZA', SITE);

  it('one per variant, with the SKU, the group, colour and size in the title, the price in the market’s currency and the variant’s link', () => {
    expect(items[0]).toMatchObject({ id: 'AM-BLK-S', groupId: '7', title: 'Amara Silk Midi Dress, Black, S', price: '4200.00 ZAR', inStock: true, gender: 'female', googleCategory: 2271 });
    expect(items[0]!.link).toBe(SITE + variantPath(7, product.variants[0]!, 'ZA'));
    expect(items[1]!.inStock).toBe(false);
  });

  it('written as Merchant Center’s RSS and Meta’s CSV', () => {
    const xml = googleItem(items[0]!, googleShipping('ZA'));
    expect(xml).toContain('<g:id>AM-BLK-S</g:id><g:item_group_id>7</g:item_group_id>');
    expect(xml).toContain('<description>Cut on the bias &amp; lined in silk.</description>');
    expect(xml).toContain('<g:brand>Ọ̀ṣun &amp; Ivory</g:brand>');
    expect(feedItems({ ...feedProduct, brand: null }, 'ZA', SITE)[0]!.brand).toBe('Maison Luxe');
    expect(xml).toContain('<g:availability>in_stock</g:availability><g:price>4200.00 ZAR</g:price>');
    expect(xml).toContain('<g:shipping><g:country>ZA</g:country><g:service>Express</g:service><g:price>250.00 ZAR</g:price>');
    const row = metaRow(items[1]!);
    expect(row.split(',').length).toBeGreaterThanOrEqual(META_HEAD.split(',').length);
    expect(row).toMatch(/^ML-7-71,"Amara Silk Midi Dress, Black, M",Cut on the bias & lined in silk\.,out of stock,new,4200\.00 ZAR,/);
    expect(row).toContain(',Ọ̀ṣun & Ivory,7,');
  });
});
