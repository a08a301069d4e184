import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productQuerySchema } from '../../src/lib/domain/catalogue';
import { NotFound } from '../../src/lib/domain/errors';
import { NOT_IN_SOUTH_AFRICA_EVERY, seedRandPrice } from '../../src/lib/server/db/seed';
import { productPrices, products, users, variants } from '../../src/lib/server/db/schema';
import type { Services } from '../../src/lib/server/services';
import type { SessionUser } from '../../src/lib/server/sessions';
import { DRIVERS, servicesFor } from '../support/services';

for (const driver of DRIVERS) {
  describe(`prices per market on ${driver}`, () => {
    let services: Services;
    let close: () => Promise<void>;
    let demo: SessionUser;

    beforeAll(async () => {
      ({ services, close } = await servicesFor(driver));
      [demo] = (await services.db.select().from(users).where(eq(users.email, 'demo@maisonluxe.ng'))) as [SessionUser];
    });
    afterAll(async () => {
      await close?.();
    });

    const priceOf = async (productId: number, market: string) =>
      (await services.db.select().from(productPrices).where(and(eq(productPrices.productId, productId), eq(productPrices.market, market))))[0]?.priceMinor ?? null;

    it('seeds a naira price for every product and believable rand prices, with a few not sold in South Africa', async () => {
      const all = await services.db.select({ id: products.id }).from(products);
      const rows = await services.db.select().from(productPrices);
      const ng = rows.filter((r) => r.market === 'NG');
      const za = rows.filter((r) => r.market === 'ZA');
      expect(ng).toHaveLength(all.length);
      expect(za.length).toBe(all.length - Math.floor(all.length / NOT_IN_SOUTH_AFRICA_EVERY));
      for (const r of za) {
        const naira = ng.find((n) => n.productId === r.productId)!.priceMinor / 100;
        expect(r.priceMinor / 100).toBe(seedRandPrice(naira));
        expect(r.priceMinor % 5000).toBe(0); // whole R50 steps
      }
      expect(seedRandPrice(450_000)).toBe(5650);
    });

    it('lists each market at its own prices and currency; a product without a price there is not listed', async () => {
      const ng = await services.catalogue.listProducts(productQuerySchema.parse({ limit: 100 }), 'NG');
      const za = await services.catalogue.listProducts(productQuerySchema.parse({ limit: 100 }), 'ZA');
      expect(ng.docs.every((p) => p.currency === 'NGN')).toBe(true);
      expect(za.docs.every((p) => p.currency === 'ZAR')).toBe(true);
      expect(za.totalDocs).toBeLessThan(ng.totalDocs);
      const sample = za.docs[0]!;
      expect(sample.price * 100).toBe(await priceOf(sample.id, 'ZA'));
      const notInZa = ng.docs.find((p) => !za.docs.some((z) => z.id === p.id) && p.id % NOT_IN_SOUTH_AFRICA_EVERY === 0);
      const missing = (await services.db.select({ id: products.id }).from(products)).find((p) => p.id % NOT_IN_SOUTH_AFRICA_EVERY === 0)!;
      expect(await priceOf(missing.id, 'ZA')).toBeNull();
      await expect(services.catalogue.getProduct(missing.id, 'ZA')).rejects.toBeInstanceOf(NotFound);
      expect((await services.catalogue.getProduct(missing.id, 'NG')).currency).toBe('NGN');
      void notInZa;
      const low = await services.catalogue.listProducts(productQuerySchema.parse({ limit: 5, sort: 'low-high' }), 'ZA');
      expect(low.docs.map((p) => p.price)).toEqual([...low.docs.map((p) => p.price)].sort((a, b) => a - b));
    });

    it('re-prices the cart on the server when the shopper changes market, and says so once', async () => {
      const [v] = await services.db
        .select({ id: variants.id, productId: variants.productId })
        .from(variants)
        .innerJoin(productPrices, and(eq(productPrices.productId, variants.productId), eq(productPrices.market, 'ZA')))
        .where(and(eq(variants.stock, 5)))
        .limit(1);
      const detail = await services.catalogue.getProduct(v!.productId, 'NG');
      const variant = detail.variants.find((x) => x.id === v!.id)!;
      for (const i of (await services.cart.view(demo, 'NG')).items) await services.cart.remove(demo, { productId: i.productId, color: i.color ?? undefined, size: i.size ?? undefined }, 'NG');
      const inNaira = await services.cart.add(demo, { productId: v!.productId, color: variant.color ?? undefined, size: variant.size ?? undefined, quantity: 2 }, 'NG');
      expect(inNaira).toMatchObject({ currency: 'NGN', market: 'NG', subtotal: (2 * (await priceOf(v!.productId, 'NG'))!) / 100 });
      expect(inNaira.pickupAddress.city).toBe('Ikoyi');

      const inRand = await services.cart.view(demo, 'ZA');
      const zaUnit = (await priceOf(v!.productId, 'ZA'))!;
      expect(inRand).toMatchObject({ currency: 'ZAR', market: 'ZA', subtotal: (2 * zaUnit) / 100 });
      expect(inRand.notice).toMatch(/South Africa \(R ZAR\)/);
      expect(inRand.pickupAddress.city).toBe('Johannesburg');
      // The demo shopper's address is in Lagos: delivering it from the South African market costs the rand fee to Nigeria.
      expect(inRand.total).toBe(inRand.subtotal + inRand.deliveryFee);
      expect((await services.cart.view(demo, 'ZA')).notice).toBeUndefined();

      const back = await services.cart.view(demo, 'NG');
      expect(back).toMatchObject({ currency: 'NGN', subtotal: inNaira.subtotal });
      expect(back.notice).toMatch(/Nigeria \(₦ NGN\)/);
    });

    it('refuses to add a product to the cart in a market where it is not sold', async () => {
      const missing = (await services.db.select({ id: products.id }).from(products)).find((p) => p.id % NOT_IN_SOUTH_AFRICA_EVERY === 0)!;
      const detail = await services.catalogue.getProduct(missing.id, 'NG');
      const v = detail.variants[0]!;
      await expect(services.cart.add(demo, { productId: missing.id, color: v.color ?? undefined, size: v.size ?? undefined, quantity: 1 }, 'ZA')).rejects.toThrow(/not sold in South Africa/);
    });

    it('the back office edits both prices side by side; an empty rand price takes the product off sale in South Africa', async () => {
      const product = (await services.catalogueAdmin.listProducts({})).rows[0]!;
      const { product: before } = await services.catalogueAdmin.getProduct(product.id);
      expect(before.prices.NG).not.toBeNull();
      const actor = { id: null, email: 'test' };
      const input = { name: before.name, description: before.description, categoryId: before.categoryId, active: before.active };
      await services.catalogueAdmin.saveProduct(actor, product.id, { ...input, priceMinor: 1_000_000, prices: { ZA: 15_000 } });
      expect((await services.catalogue.getProduct(product.id, 'ZA')).price).toBe(150);
      expect((await services.catalogue.getProduct(product.id, 'NG')).price).toBe(10_000);
      await services.catalogueAdmin.saveProduct(actor, product.id, { ...input, prices: { ZA: null } });
      await expect(services.catalogue.getProduct(product.id, 'ZA')).rejects.toBeInstanceOf(NotFound);
      expect((await services.catalogue.getProduct(product.id, 'NG')).price).toBe(10_000);
      await services.catalogueAdmin.setPrice(product.id, 20_000, actor, 'ZA');
      expect((await services.catalogue.getProduct(product.id, 'ZA')).price).toBe(200);
    });
  });
}
