import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKET_CODES, type MarketCode } from '@/lib/domain/markets';
import { DRIVERS, servicesFor } from '../support/services';

/** A catalogue that reads like a house: unique names, descriptions of their own, men's bags, no empty categories. */
for (const driver of DRIVERS) {
  describe(`categories shown to shoppers on ${driver}`, () => {
    let ctx: Awaited<ReturnType<typeof servicesFor>>;
    const actor = { id: null, email: 'ops@example.com' };
    beforeAll(async () => {
      ctx = await servicesFor(driver);
    });
    afterAll(async () => ctx?.close());

    /** Category ids with an active product priced in the market. */
    async function forSale(market: MarketCode): Promise<Set<number>> {
      const res = await ctx.services.db.execute(sql`
        select distinct p.category_id as id from products p
        where p.active and exists (select 1 from variants v join variant_prices vp on vp.variant_id = v.id where v.product_id = p.id and vp.market = ${market})`);
      return new Set((((res as any).rows ?? res) as { id: number }[]).map((r) => Number(r.id)));
    }

    it('every category in the menu of each market has something for sale there', async () => {
      for (const market of MARKET_CODES) {
        const selling = await forSale(market);
        const parents = await ctx.services.catalogue.parentCategories(market);
        expect(parents.length).toBeGreaterThan(0);
        for (const p of parents) {
          expect(selling.has(p.id) || p.subCategories.length > 0).toBe(true);
          for (const s of p.subCategories) expect(selling.has(s.id)).toBe(true);
        }
      }
    });

    it('every seeded name is used once, and every description is its own, with verbs that agree', async () => {
      const res = await ctx.services.db.execute(sql`select name, description from products`);
      const rows = ((res as any).rows ?? res) as { name: string; description: string }[];
      expect(rows.length).toBeGreaterThanOrEqual(150);
      expect(new Set(rows.map((r) => r.name)).size).toBe(rows.length);
      expect(new Set(rows.map((r) => r.description)).size).toBe(rows.length);
      for (const r of rows) {
        expect(r.description).toContain(r.name);
        expect(r.description).not.toMatch(/\b(Sneakers|Trousers|Loafers|Sandals|Pumps|Sunglasses) (is|pairs|keeps|brings|holds|fits|runs|comes)\b/);
      }
    });

    it("/Bags-men's category holds men's bags, with a banner of its own", async () => {
      const men = await ctx.services.catalogue.findCategoryBySlug('bags-men');
      expect(men?.image).toBeTruthy();
      const parent = await ctx.services.catalogue.getCategory(men!.parentId!);
      expect(men!.image).not.toBe(parent.image);
      const res = await ctx.services.db.execute(sql`select name from products where category_id = ${men!.id}`);
      const names = (((res as any).rows ?? res) as { name: string }[]).map((r) => r.name);
      expect(names.length).toBeGreaterThanOrEqual(10);
      for (const n of names) expect(n).toMatch(/ (Weekender|Holdall|Messenger Bag|Travel Backpack)$/);
      expect(names.some((n) => /^(Tunde|Sipho|Kofi|Bongani|Emeka|Thabo|Chidi|Lwazi|Femi|Kagiso|Obinna|Mandla) /.test(n))).toBe(true);
    });

    it('each colour has pictures of its own, and staff assign an image to a colour the product comes in', async () => {
      const res = await ctx.services.db.execute(sql`select p.id from products p where (select count(distinct color_id) from variants v where v.product_id = p.id) >= 2 order by p.id limit 1`);
      const id = Number((((res as any).rows ?? res) as { id: number }[])[0]!.id);
      const product = await ctx.services.catalogue.getProduct(id, 'NG');
      for (const c of product.colors) expect(product.imageColors.filter((x) => x === c.name).length).toBeGreaterThanOrEqual(1);
      const admin = await ctx.services.catalogueAdmin.getProduct(id);
      const [image] = admin.images;
      const other = admin.variants.find((v) => v.colorId !== image!.colorId)!;
      await ctx.services.catalogueAdmin.editImage(actor, id, image!.id, { colorId: other.colorId });
      expect((await ctx.services.catalogue.getProduct(id, 'NG')).imageColors[0]).toBe(other.color);
      await ctx.services.catalogueAdmin.editImage(actor, id, image!.id, { colorId: null });
      expect((await ctx.services.catalogue.getProduct(id, 'NG')).imageColors[0]).toBeNull();
      const offered = new Set(admin.variants.map((v) => v.colorId));
      const [notOffered] = (await ctx.services.catalogueAdmin.formOptions()).colors.filter((c) => !offered.has(c.id));
      await expect(ctx.services.catalogueAdmin.editImage(actor, id, image!.id, { colorId: notOffered!.id })).rejects.toThrow('This product does not come in that colour');
    });

    it('an empty category made by staff stays out of the menu (but the back office still has it)', async () => {
      const parent = await ctx.services.catalogueAdmin.saveCategory(actor, null, { name: 'Objets', description: 'Small things for the home.', position: 99, parentId: null });
      const sub = await ctx.services.catalogueAdmin.saveCategory(actor, null, { name: 'Candles', description: null, position: 1, parentId: parent.id });
      for (const market of MARKET_CODES) {
        const shown = await ctx.services.catalogue.parentCategories(market);
        expect(shown.map((p) => p.id)).not.toContain(parent.id);
      }
      const everything = await ctx.services.catalogue.parentCategories();
      expect(everything.find((p) => p.id === parent.id)?.subCategories.map((s) => s.id)).toEqual([sub.id]);
    });
  });
}
