import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productQuerySchema } from '@/lib/domain/catalogue';
import { DRIVERS, servicesFor } from '../support/services';

for (const driver of DRIVERS) {
  describe(`catalogue service on ${driver}`, () => {
    let ctx: Awaited<ReturnType<typeof servicesFor>>;
    const queries: string[] = [];
    beforeAll(async () => {
      ctx = await servicesFor(driver, { onQuery: (q) => queries.push(q) });
    });
    afterAll(async () => ctx?.close());

    it('seeds a believable store', async () => {
      const parents = await ctx.services.catalogue.parentCategories();
      expect(parents.length).toBeGreaterThanOrEqual(4);
      expect(parents.every((p) => p.description && p.image)).toBe(true);
      expect(parents.flatMap((p) => p.subCategories).length).toBeGreaterThanOrEqual(12);
      const all = await ctx.services.catalogue.listProducts(productQuerySchema.parse({ limit: 100 }));
      expect(all.totalDocs).toBeGreaterThanOrEqual(150);
      for (const p of all.docs) {
        // Two pictures of each colour (up to four of a one-colour piece).
        expect(p.images.length).toBeGreaterThanOrEqual(2);
        expect(p.images.length).toBeLessThanOrEqual(6);
        expect(p.price).toBeGreaterThan(0);
      }
      const kinds = new Set(all.docs.map((p) => p.categoryNames[0]));
      expect(kinds).toEqual(new Set(['Bags', 'Clothing', 'Shoes', 'Accessories']));
    });

    it('lists 50 products in the same number of queries as 5 (no N+1)', async () => {
      const count = async (limit: number) => {
        queries.length = 0;
        await ctx.services.catalogue.listProducts(productQuerySchema.parse({ limit }));
        return queries.length;
      };
      const few = await count(5);
      const many = await count(50);
      expect(many).toBe(few);
      expect(many).toBeLessThanOrEqual(8);
    });

    /** Queries a block of page work runs. */
    const countQueries = async (work: () => Promise<unknown>) => {
      queries.length = 0;
      await work();
      return queries.length;
    };

    it('renders the product page from a bounded number of queries', async () => {
      const { catalogue } = ctx.services;
      await catalogue.parentCategories();
      const all = await catalogue.listProducts(productQuerySchema.parse({ limit: 100 }));
      const counts = new Set<number>();
      for (const p of all.docs.slice(0, 20)) {
        counts.add(
          await countQueries(async () => {
            const product = await catalogue.getProduct(p.id);
            await catalogue.related(product);
            await catalogue.parentCategories();
          }),
        );
      }
      // product, its images, its variants; related products and their images and variants; the menu is in memory
      expect([...counts]).toEqual([6]);
    });

    it('renders the collection and home pages from a bounded number of queries', async () => {
      const { catalogue } = ctx.services;
      await catalogue.parentCategories();
      const collection = await countQueries(() => catalogue.listProducts(productQuerySchema.parse({ limit: 48 })));
      const filtered = await countQueries(() => catalogue.listProducts(productQuerySchema.parse({ limit: 48, categoryId: 1, sort: 'low-high' })));
      // Of these, the facets are four: colours, sizes, sub-categories and designers.
      expect(collection).toBeLessThanOrEqual(8);
      expect(filtered).toBeLessThanOrEqual(8);
      const home = await countQueries(() => Promise.all([catalogue.parentCategories(), catalogue.latest(), catalogue.bestSellers()]));
      expect(home).toBeLessThanOrEqual(6);
    });

    it('pages listings by key in every sort and market: on, back and from the end give the pages by number', async () => {
      const { catalogue } = ctx.services;
      for (const market of ['NG', 'ZA'] as const) {
        for (const sort of ['relevant', 'low-high', 'high-low'] as const) {
          const read = (at: Record<string, string | number>) => catalogue.listProducts(productQuerySchema.parse({ limit: 30, sort, categoryId: undefined, ...at }), market);
          const first = await read({});
          expect(first.totalPages, `${market} ${sort}`).toBeGreaterThan(2);
          const byNumber: number[] = [];
          for (let p = 1; p <= first.totalPages; p++) byNumber.push(...(await read({ page: p })).docs.map((d) => d.id));
          expect(new Set(byNumber).size).toBe(first.totalDocs);
          const onwards = first.docs.map((d) => d.id);
          for (let at = first; at.cursors?.after; ) {
            at = await read({ page: at.page + 1, after: at.cursors.after });
            onwards.push(...at.docs.map((d) => d.id));
          }
          expect(onwards, `${market} ${sort} onwards`).toEqual(byNumber);
          let at = await read({ page: first.totalPages, before: 'end' });
          const back = [at.docs.map((d) => d.id)];
          while (at.cursors?.before) {
            at = await read({ page: at.page - 1, before: at.cursors.before });
            back.unshift(at.docs.map((d) => d.id));
          }
          expect(back.flat(), `${market} ${sort} back`).toEqual(byNumber);
        }
      }
      // A search is ranked: paged by number, without cursors.
      expect((await catalogue.listProducts(productQuerySchema.parse({ q: 'leather' }))).cursors).toBeUndefined();
    });

    it('keeps the menu in memory until categories change', async () => {
      const { catalogue } = ctx.services;
      await catalogue.parentCategories();
      expect(await countQueries(() => catalogue.parentCategories())).toBe(0);
      await ctx.services.pageCache.invalidate(['nav']);
      expect(await countQueries(() => catalogue.parentCategories())).toBe(1);
    });

    it('has indexes for the list filters and orderings', async () => {
      const { sql } = await import('drizzle-orm');
      const result = (await ctx.services.db.execute(sql`select indexname from pg_indexes where tablename in ('products', 'variant_prices', 'variants')`)) as unknown as {
        rows: { indexname: string }[];
      };
      const names = result.rows.map((r) => r.indexname);
      for (const idx of ['products_category_idx', 'products_created_idx', 'products_sales_idx', 'variant_prices_market_idx', 'variants_color_idx', 'variants_size_idx']) {
        expect(names).toContain(idx);
      }
    });
  });
}
