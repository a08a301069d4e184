import { and, eq, inArray, min } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productQuerySchema } from '@/lib/domain/catalogue';
import { NotFound } from '@/lib/domain/errors';
import { NOT_IN_SOUTH_AFRICA_EVERY, PREMIUM_COLOURS_EVERY, seedRandPrice, seedVariantNaira } from '@/lib/server/demo/seed';
import { users } from '@/lib/server/accounts/tables';
import { colors, productFromPrices, products, sizes, variantPrices, variants } from '@/lib/server/catalogue/tables';
import type { Services } from '@/lib/server/services';
import type { SessionUser } from '@/lib/server/accounts/sessions';
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

    /** A product's "from" price in a market: its lowest variant price there. */
    const priceOf = async (productId: number, market: string) => {
      const [row] = await services.db
        .select({ p: min(variantPrices.priceMinor) })
        .from(variantPrices)
        .innerJoin(variants, eq(variants.id, variantPrices.variantId))
        .where(and(eq(variants.productId, productId), eq(variantPrices.market, market)));
      return row?.p === null || row?.p === undefined ? null : Number(row.p);
    };
    const variantPriceOf = async (variantId: number, market: string) =>
      (await services.db.select().from(variantPrices).where(and(eq(variantPrices.variantId, variantId), eq(variantPrices.market, market))))[0]?.priceMinor ?? null;

    it('seeds a naira price for every variant and believable rand prices, with a few products not sold in South Africa', async () => {
      const allProducts = await services.db.select({ id: products.id }).from(products);
      const allVariants = await services.db.select({ id: variants.id, productId: variants.productId }).from(variants);
      const rows = await services.db.select().from(variantPrices);
      const ng = rows.filter((r) => r.market === 'NG');
      const za = rows.filter((r) => r.market === 'ZA');
      expect(ng).toHaveLength(allVariants.length);
      const productOf = new Map(allVariants.map((v) => [v.id, v.productId]));
      const zaProducts = new Set(za.map((r) => productOf.get(r.variantId)));
      expect(zaProducts.size).toBe(allProducts.length - Math.floor(allProducts.length / NOT_IN_SOUTH_AFRICA_EVERY));
      for (const r of za) {
        const naira = ng.find((n) => n.variantId === r.variantId)!.priceMinor / 100;
        expect(r.priceMinor / 100).toBe(seedRandPrice(naira));
        expect(r.priceMinor % 5000).toBe(0); // whole R50 steps
      }
      expect(seedRandPrice(450_000)).toBe(5650);
      // Some products cost more in some colours: prices really are per variant.
      const spread = new Map<number, Set<number>>();
      for (const r of ng) spread.set(productOf.get(r.variantId)!, (spread.get(productOf.get(r.variantId)!) ?? new Set()).add(r.priceMinor));
      expect([...spread.values()].filter((prices) => prices.size > 1).length).toBeGreaterThan(0);
      expect(seedVariantNaira(200_000, PREMIUM_COLOURS_EVERY, 1)).toBe(230_000);
      expect(seedVariantNaira(200_000, PREMIUM_COLOURS_EVERY, 0)).toBe(200_000);
      expect(seedVariantNaira(200_000, PREMIUM_COLOURS_EVERY + 1, 1)).toBe(200_000);
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
        .innerJoin(variantPrices, and(eq(variantPrices.variantId, variants.id), eq(variantPrices.market, 'ZA')))
        .where(and(eq(variants.stock, 5)))
        .limit(1);
      const detail = await services.catalogue.getProduct(v!.productId, 'NG');
      const variant = detail.variants.find((x) => x.id === v!.id)!;
      for (const i of (await services.cart.view(demo, 'NG')).items) await services.cart.remove(demo, { productId: i.productId, color: i.color ?? undefined, size: i.size ?? undefined }, 'NG');
      const inNaira = await services.cart.add(demo, { productId: v!.productId, color: variant.color ?? undefined, size: variant.size ?? undefined, quantity: 2 }, 'NG');
      expect(inNaira).toMatchObject({ currency: 'NGN', market: 'NG', subtotal: (2 * (await variantPriceOf(v!.id, 'NG'))!) / 100 });
      expect(inNaira.pickupAddress.city).toBe('Ikoyi');

      const inRand = await services.cart.view(demo, 'ZA');
      const zaUnit = (await variantPriceOf(v!.id, 'ZA'))!;
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

    it('sells each variant at its own price per market: the product shows its lowest, the page and cart the chosen one', async () => {
      const actor = { id: null, email: 'test' };
      const options = await services.catalogueAdmin.formOptions();
      const sub = options.categories[0]!.subs[0]!;
      const [black, tan, ivory] = options.colors;
      const { id } = await services.catalogueAdmin.createProduct(
        actor,
        { name: 'Variant Priced Tote', description: 'Prices per variant', priceMinor: 300_000_00, prices: { ZA: 3_900_00 }, categoryId: sub.id, active: true },
        { colorId: black!.id, sizeId: null, stock: 5 },
      );
      // Tan costs more in both markets; ivory is not sold in South Africa.
      await services.catalogueAdmin.addVariant(actor, id, { colorId: tan!.id, sizeId: null, stock: 5, prices: { NG: 345_000_00, ZA: 4_450_00 } });
      await services.catalogueAdmin.addVariant(actor, id, { colorId: ivory!.id, sizeId: null, stock: 5, prices: { ZA: null } });
      const edit = await services.catalogueAdmin.getProduct(id);
      expect(edit.variants.map((v) => [v.color, v.prices])).toEqual(
        expect.arrayContaining([
          [black!.name, { NG: 300_000_00, ZA: 3_900_00 }],
          [tan!.name, { NG: 345_000_00, ZA: 4_450_00 }],
          [ivory!.name, { NG: 300_000_00, ZA: null }], // an added variant takes the product's "from" price unless told
        ]),
      );
      expect(edit.product.prices).toEqual({ NG: 300_000_00, ZA: 3_900_00 });

      const ng = await services.catalogue.getProduct(id, 'NG');
      expect(ng.price).toBe(300_000);
      expect(ng.variants.map((v) => [v.color, v.price])).toEqual(expect.arrayContaining([[tan!.name, 345_000], [ivory!.name, 300_000]]));
      const za = await services.catalogue.getProduct(id, 'ZA');
      expect(za.price).toBe(3_900);
      expect(za.variants.map((v) => v.color).sort()).toEqual([black!.name, tan!.name].sort());
      expect(za.colorNames).not.toContain(ivory!.name);

      for (const i of (await services.cart.view(demo, 'ZA')).items) await services.cart.remove(demo, { productId: i.productId, color: i.color ?? undefined, size: i.size ?? undefined }, 'ZA');
      const cart = await services.cart.add(demo, { productId: id, color: tan!.name, quantity: 2 }, 'ZA');
      expect(cart.items.find((i) => i.productId === id)).toMatchObject({ unitPrice: 4_450, price: 8_900 });
      await expect(services.cart.add(demo, { productId: id, color: ivory!.name, quantity: 1 }, 'ZA')).rejects.toThrow(/not available/);
      const back = await services.cart.view(demo, 'NG');
      expect(back.items.find((i) => i.productId === id)).toMatchObject({ unitPrice: 345_000, price: 690_000 });
      await services.cart.remove(demo, { productId: id, color: tan!.name }, 'NG');

      // The grid sets one variant at a time; a product-wide price sets them all.
      const blackVariant = edit.variants.find((v) => v.color === black!.name)!;
      const input = { name: edit.product.name, description: edit.product.description, categoryId: edit.product.categoryId, active: true };
      await services.catalogueAdmin.saveProduct(actor, id, input, [{ variantId: blackVariant.id, stock: 5, sku: null, prices: { ZA: 3_500_00 } }]);
      expect((await services.catalogue.getProduct(id, 'ZA')).price).toBe(3_500);
      expect((await services.catalogue.getProduct(id, 'ZA')).variants.find((v) => v.color === tan!.name)!.price).toBe(4_450);
      await services.catalogueAdmin.setPrice(id, 2_000_00, actor, 'ZA');
      expect((await services.catalogue.getProduct(id, 'ZA')).variants.map((v) => v.price)).toEqual([2_000, 2_000, 2_000]);
      const audit = await services.audit.list({ page: 1 });
      const update = audit.rows.find((a) => a.action === 'product.update' && a.entityId === String(id));
      expect(update?.details.variants).toEqual([{ variantId: blackVariant.id, before: { stock: 5, sku: null, prices: { ZA: 3_900_00 } }, after: { stock: 5, sku: null, prices: { ZA: 3_500_00 } } }]);
    });

    it('lists colour and size filters only for what is sold in the market', async () => {
      const actor = { id: null, email: 'test' };
      const options = await services.catalogueAdmin.formOptions();
      const sub = options.categories[1]!.subs[0]!;
      // A colour and a size no seeded product uses, sold in Nigeria only.
      const [onlyColour] = await services.db.insert(colors).values({ name: 'Test Aubergine', hex: '#4b2142' }).returning();
      const [onlySize] = await services.db.insert(sizes).values({ name: 'Test 5XL', position: 999 }).returning();
      await services.catalogueAdmin.createProduct(
        actor,
        { name: 'Nigeria Only Shirt', description: 'Sold in Nigeria only', priceMinor: 90_000_00, prices: { ZA: null }, categoryId: sub.id, active: true },
        { colorId: onlyColour!.id, sizeId: onlySize!.id, stock: 3 },
      );
      const query = productQuerySchema.parse({ categoryId: options.categories[1]!.id, limit: 100 });
      const ng = await services.catalogue.listProducts(query, 'NG');
      const za = await services.catalogue.listProducts(query, 'ZA');
      expect(ng.colors.map((c) => c.name)).toContain('Test Aubergine');
      expect(ng.sizes.map((c) => c.name)).toContain('Test 5XL');
      expect(za.colors.map((c) => c.name)).not.toContain('Test Aubergine');
      expect(za.sizes.map((c) => c.name)).not.toContain('Test 5XL');
      const filtered = await services.catalogue.listProducts(productQuerySchema.parse({ colorId: onlyColour!.id }), 'ZA');
      expect(filtered.totalDocs).toBe(0);
    });

    it('keeps each product\'s "from" price per market in step with every write of variant prices, staff\'s or by hand', async () => {
      const rollup = async () =>
        (await services.db.select().from(productFromPrices)).map((r) => `${r.productId}:${r.market}:${r.priceMinor}`).sort();
      const aggregate = async () =>
        (
          await services.db
            .select({ productId: variants.productId, market: variantPrices.market, priceMinor: min(variantPrices.priceMinor) })
            .from(variantPrices)
            .innerJoin(variants, eq(variants.id, variantPrices.variantId))
            .groupBy(variants.productId, variantPrices.market)
        )
          .map((r) => `${r.productId}:${r.market}:${Number(r.priceMinor)}`)
          .sort();
      // After the staff's price changes, new products and variants of the tests above.
      expect(await rollup()).toEqual(await aggregate());
      // A fix made by hand in SQL: one variant far cheaper, then one product taken off sale in South Africa.
      const [v] = await services.db.select().from(variants).orderBy(variants.id).limit(1);
      await services.db.update(variantPrices).set({ priceMinor: 100 }).where(and(eq(variantPrices.variantId, v!.id), eq(variantPrices.market, 'NG')));
      const taken = await services.db.select({ id: variants.id }).from(variants).where(eq(variants.productId, v!.productId));
      await services.db.delete(variantPrices).where(and(inArray(variantPrices.variantId, taken.map((t) => t.id)), eq(variantPrices.market, 'ZA')));
      expect(await rollup()).toEqual(await aggregate());
      expect(await rollup()).toContain(`${v!.productId}:NG:100`);
      expect((await rollup()).some((r) => r.startsWith(`${v!.productId}:ZA:`))).toBe(false);
    });
  });
}
