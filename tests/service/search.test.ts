import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productQuerySchema } from '@/lib/domain/catalogue';
import { clearCorrection, editDistance, searchWords, wordsFound } from '@/lib/domain/search';
import { DRIVERS, servicesFor } from '../support/services';

/** Search that finds what shoppers type, on PGlite and PostgreSQL alike. */
for (const driver of DRIVERS) {
  describe(`search on ${driver}`, () => {
    let ctx: Awaited<ReturnType<typeof servicesFor>>;
    beforeAll(async () => {
      ctx = await servicesFor(driver);
    });
    afterAll(async () => ctx?.close());

    const find = (q: string, extra: Record<string, unknown> = {}, market: 'NG' | 'ZA' = 'NG') =>
      ctx.services.catalogue.listProducts(productQuerySchema.parse({ q, limit: 20, ...extra }), market);

    it('"lether bag" finds leather bags first, and says what it searched for', async () => {
      const list = await find('lether bag');
      expect(list.search).toMatchObject({ query: 'lether bag', corrected: 'leather bag' });
      expect(list.totalDocs).toBeGreaterThan(0);
      for (const p of list.docs.slice(0, 5)) {
        expect(p.name.toLowerCase()).toContain('leather');
        expect(p.categoryNames.join(' ')).toMatch(/Bags/);
      }
    });

    it('misspelt and partial words find the right pieces: "snekers", "tote bag", "loafers men"', async () => {
      const sneakers = await find('snekers');
      expect(sneakers.search?.corrected).toBe('sneakers');
      expect(sneakers.docs[0]!.name).toMatch(/Sneaker/);
      const totes = await find('tote bag');
      expect(totes.docs[0]!.name).toMatch(/Tote/);
      const loafers = await find('loafers men');
      expect(loafers.totalDocs).toBeGreaterThan(0);
      expect(loafers.docs[0]!.name).toMatch(/Loafer/);
      const partial = await find('snea');
      expect(partial.search?.corrected).toBeNull();
      expect(partial.docs[0]!.name).toMatch(/Sneaker/);
    });

    it('forgives the commonest slips and knows the shop words: "hanbag", "sandles", "trainers", "purse"', async () => {
      const handbags = await find('hanbag');
      expect(handbags.search?.corrected).toBe('handbag');
      expect(handbags.totalDocs).toBeGreaterThan(0);
      expect(handbags.docs.every((p) => p.categoryNames.includes('Bags'))).toBe(true);
      const sandals = await find('sandles');
      expect(sandals.search?.corrected).toBe('sandals');
      expect(sandals.docs[0]!.name).toMatch(/Sandal/);
      const trainers = await find('trainers');
      expect(trainers.search?.corrected).toBeNull();
      expect(trainers.totalDocs).toBeGreaterThan(0);
      expect(trainers.docs.every((p) => /Sneaker/.test(p.name))).toBe(true);
      const purses = await find('purse', {}, 'ZA');
      expect(purses.search?.corrected).toBeNull();
      expect(purses.docs.length).toBeGreaterThan(0);
      expect(purses.docs[0]!.name).toMatch(/Clutch|Wallet/);
      expect(await ctx.services.search.suggest('handb')).toContain('handbag');
    });

    it('respects the market, the filters and the sort', async () => {
      const all = await find('leather');
      const za = await find('leather', {}, 'ZA');
      expect(za.totalDocs).toBeLessThanOrEqual(all.totalDocs);
      const bags = (await ctx.services.catalogue.parentCategories('NG')).find((c) => c.name === 'Bags')!;
      const inBags = await find('leather', { categoryId: bags.id });
      expect(inBags.totalDocs).toBeGreaterThan(0);
      expect(inBags.totalDocs).toBeLessThan(all.totalDocs);
      expect(inBags.docs.every((p) => p.categoryNames.includes('Bags'))).toBe(true);
      const cheapFirst = await find('leather', { sort: 'low-high' });
      const prices = cheapFirst.docs.map((p) => p.price);
      expect(prices).toEqual([...prices].sort((a, b) => a - b));
    });

    it('a search that finds nothing offers the closest terms, and both kinds of search are in the report', async () => {
      const none = await find('gucci');
      expect(none.totalDocs).toBe(0);
      expect(none.search).toMatchObject({ query: 'gucci', corrected: null });
      const near = await find('zzqx leathr');
      expect(near.search?.corrected).toBe('zzqx leather');
      const misspelt = await find('crossbdy');
      expect(misspelt.totalDocs).toBeGreaterThan(0);
      const report = await ctx.services.search.report(new Date(Date.now() - 86_400_000));
      expect(report.empty.map((r) => r.query)).toContain('gucci');
      expect(report.frequent.map((r) => r.query)).toEqual(expect.arrayContaining(['leather', 'gucci']));
      expect(report.frequent.find((r) => r.query === 'leather')!.searches).toBeGreaterThanOrEqual(3);
    });

    it('suggests known words as the shopper types', async () => {
      expect(await ctx.services.search.suggest('leat')).toContain('leather');
      expect((await ctx.services.search.suggest('black lea'))[0]).toMatch(/^black lea/);
      expect(await ctx.services.search.suggest('x')).toEqual([]);
    });

    it('a product staff create or rename is found by its new name at once', async () => {
      const actor = { id: null, email: 'search@maisonluxe.ng' };
      const [sub] = (await ctx.services.db.execute(sql`select id from categories where parent_id is not null order by id limit 1`) as any).rows ?? [];
      const { id } = await ctx.services.catalogueAdmin.createProduct(actor, { name: 'Obsidian Ostrich Weekender', description: 'Ostrich leather, hand-stitched in Lagos.', categoryId: Number(sub.id), active: true });
      const found = await ctx.services.search.plan('ostrich');
      expect(found?.corrected).toBeNull();
      const rows = (await ctx.services.db.execute(sql`select id from products where search_document @@ to_tsquery('english', 'ostrich:*')`) as any).rows;
      expect(rows.map((r: { id: number }) => Number(r.id))).toContain(id);
    });
  });
}

describe('search words', () => {
  it('a slip is corrected only when one known word is clearly meant', () => {
    expect(editDistance('hanbag', 'handbag')).toBe(1);
    expect(editDistance('sandles', 'sandals')).toBe(2);
    expect(editDistance('snekaers', 'sneakers')).toBe(1);
    expect(clearCorrection('sandles', ['sandals', 'sandal', 'sand'])).toBe('sandals');
    expect(clearCorrection('hanbag', ['handbag', 'handbags', 'bag'])).toBe('handbag');
    expect(clearCorrection('gucci', ['gucco', 'guccy'])).toBeNull();
    expect(clearCorrection('bagz', ['bags'])).toBeNull();
    expect(wordsFound('handbag')).toEqual(['handbag', 'bag']);
    expect(wordsFound('leather')).toEqual(['leather']);
  });

  it('reads what shoppers type: lower-case, accents dropped, little words left out', () => {
    expect(searchWords('  Suède LOAFERS for the Men! ')).toEqual(['suede', 'loafers', 'men']);
    expect(searchWords('a')).toEqual([]);
    expect(searchWords("tote-bag's")).toEqual(['tote', 'bag']);
  });
});
