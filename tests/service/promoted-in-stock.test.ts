import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productQuerySchema } from '@/lib/domain/catalogue';
import { cardHref } from '@/lib/domain/product-card';
import { DRIVERS, servicesFor } from '../support/services';

const actor = { id: null, email: 'stock@maisonluxe.ng' };
const rowsOf = <T>(res: unknown): T[] => ((res as { rows?: T[] }).rows ?? (res as T[]));

/** The store never promotes what cannot be bought: cards open a colour in stock, and the home rows and "You may also like" leave out a piece with none. */
for (const driver of DRIVERS) {
  describe(`promoted pieces can be bought, on ${driver}`, () => {
    let ctx: Awaited<ReturnType<typeof servicesFor>>;
    beforeAll(async () => {
      ctx = await servicesFor(driver);
    });
    afterAll(async () => ctx?.close());

    const variantsOf = async (productId: number) =>
      rowsOf<{ id: number; stock: number; color: string | null }>(
        await ctx.services.db.execute(sql`select v.id, v.stock, c.name as color from variants v left join colors c on c.id = v.color_id where v.product_id = ${productId} order by v.id`),
      ).map((v) => ({ ...v, id: Number(v.id), stock: Number(v.stock) }));
    const soldOut = async (variantIds: number[]) => {
      for (const id of variantIds) {
        const [v] = rowsOf<{ stock: number }>(await ctx.services.db.execute(sql`select stock from variants where id = ${id}`));
        if (Number(v!.stock) > 0) await ctx.services.stock.adjust(actor, { variantId: id, delta: -Number(v!.stock), reason: 'Counted: none left' });
      }
    };

    it('a card whose cheapest colour is sold out opens a colour in stock', async () => {
      const best = await ctx.services.catalogue.bestSellers(15, 'NG');
      const piece = best.find((p) => p.colorNames.length > 1 && p.cardColor)!;
      const shown = piece.cardColor!;
      const variants = await variantsOf(piece.id);
      await soldOut(variants.filter((v) => v.color === shown).map((v) => v.id));

      const again = (await ctx.services.catalogue.bestSellers(15, 'NG')).find((p) => p.id === piece.id)!;
      expect(again.cardColor).not.toBe(shown);
      expect(variants.some((v) => v.color === again.cardColor && v.stock > 0)).toBe(true);
      expect(cardHref(again)).toBe(`/product/${piece.id}?color=${encodeURIComponent(again.cardColor!)}`);
      // The listing's card too, and its price is still the lowest the piece is sold at (what the sort orders by).
      const listed = (await ctx.services.catalogue.listProducts(productQuerySchema.parse({ q: piece.name, limit: 20 }), 'NG')).docs.find((p) => p.id === piece.id)!;
      expect(listed.cardColor).toBe(again.cardColor);
      expect(listed.price).toBe(piece.price);
    });

    it('a piece with nothing in stock leaves the home rows and "You may also like", and comes back when restocked', async () => {
      const best = await ctx.services.catalogue.bestSellers(15, 'NG');
      const piece = best[1]!;
      const variants = await variantsOf(piece.id);
      const detail = await ctx.services.catalogue.getProduct(piece.id, 'NG');
      const sibling = (await ctx.services.catalogue.related(detail, 20, 'NG'))[0]!;
      expect((await ctx.services.catalogue.related(sibling, 20, 'NG')).map((p) => p.id)).toContain(piece.id);

      await soldOut(variants.map((v) => v.id));
      expect((await ctx.services.catalogue.bestSellers(15, 'NG')).map((p) => p.id)).not.toContain(piece.id);
      expect((await ctx.services.catalogue.latest(200, 'NG')).map((p) => p.id)).not.toContain(piece.id);
      expect((await ctx.services.catalogue.related(sibling, 20, 'NG')).map((p) => p.id)).not.toContain(piece.id);
      // Still found by its page and in its category: only promotion leaves it out.
      expect((await ctx.services.catalogue.getProduct(piece.id, 'NG')).id).toBe(piece.id);

      await ctx.services.stock.adjust(actor, { variantId: variants[0]!.id, delta: 2, reason: 'Delivery from the atelier' });
      expect((await ctx.services.catalogue.bestSellers(15, 'NG')).map((p) => p.id)).toContain(piece.id);
      expect((await ctx.services.catalogue.related(sibling, 20, 'NG')).map((p) => p.id)).toContain(piece.id);
    });
  });
}
