import { gunzipSync } from 'node:zlib';
import { eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productQuerySchema } from '@/lib/domain/catalogue';
import { designerSlug } from '@/lib/domain/designers';
import { auditLog } from '@/lib/server/backoffice/tables';
import { createFeedService } from '@/lib/server/catalogue/feeds';
import { designers, products } from '@/lib/server/catalogue/tables';
import { SEED_DESIGNERS } from '@/lib/server/demo/seed';
import { DRIVERS, servicesFor } from '../support/services';

const SITE = 'https://shop.example';

/** Designers in the services: the seed's dozen, the filter and facet, search by a misspelt name, the feeds' brand, a rename. */
for (const driver of DRIVERS) {
  describe(`designers on ${driver}`, () => {
    let ctx: Awaited<ReturnType<typeof servicesFor>>;
    beforeAll(async () => {
      ctx = await servicesFor(driver);
    }, 120_000);
    afterAll(async () => ctx?.close());

    const list = (query: Record<string, unknown>, market: 'NG' | 'ZA' = 'NG') => ctx.services.catalogue.listProducts(productQuerySchema.parse({ limit: 100, ...query }), market);

    it('the seed gives every product one of a dozen invented designers, spread over them all', async () => {
      const { db } = ctx.database;
      expect((await db.select().from(designers)).map((d) => d.slug).sort()).toEqual(SEED_DESIGNERS.map((d) => designerSlug(d.name)).sort());
      expect(await db.select({ id: products.id }).from(products).where(isNull(products.designerId))).toEqual([]);
      const spread = await db.select({ designerId: products.designerId, n: sql<number>`count(*)::int` }).from(products).groupBy(products.designerId);
      expect(spread).toHaveLength(12);
      expect(Math.min(...spread.map((s) => s.n))).toBeGreaterThan(5);
      // Every designer with a piece on the storefront (the A–Z page orders them itself: byInitial).
      expect((await ctx.services.catalogue.designers()).map((d) => d.name).sort()).toEqual(SEED_DESIGNERS.map((d) => d.name).sort());
    });

    it('a designer filter lists only their pieces; the facet names the designers of the category’s pieces', async () => {
      const slug = designerSlug(SEED_DESIGNERS[3]!.name);
      const theirs = await list({ designer: slug });
      expect(theirs.totalDocs).toBeGreaterThan(0);
      expect(theirs.docs.every((p) => p.designer?.slug === slug)).toBe(true);
      const bags = theirs.docs[0]!.categoryId;
      const inCategory = await list({ categoryId: bags });
      expect(new Set(inCategory.designers.map((d) => d.slug))).toEqual(new Set(inCategory.docs.map((p) => p.designer!.slug)));
      const both = await list({ designer: slug, categoryId: bags });
      expect(both.docs.every((p) => p.designer?.slug === slug && p.categoryId === bags)).toBe(true);
    });

    it('search finds a designer by name, misspelt', async () => {
      const found = await list({ q: 'adebayo ateleir' });
      expect(found.search?.corrected).toBe('adebayo atelier');
      expect(found.totalDocs).toBeGreaterThan(0);
      expect(found.docs.slice(0, 5).every((p) => p.designer?.name === 'Adébáyọ̀ Atelier')).toBe(true);
    });

    it('the feeds name the designer as the brand; a rename reaches search, the product and the feed', async () => {
      // A feed's first answer streams its read as it goes; a kept copy answers gzipped.
      const textOf = async (feeds: ReturnType<typeof createFeedService>) => {
        const res = await feeds.respond(new Request(`${SITE}/feeds/google-NG.xml`, { headers: { 'accept-encoding': 'gzip' } }), 'google', 'NG');
        const body = Buffer.from(await res.arrayBuffer());
        return res.headers.get('content-encoding') === 'gzip' ? gunzipSync(body).toString() : body.toString();
      };
      const feeds = createFeedService({ db: ctx.database.db, site: SITE });
      const first = await textOf(feeds);
      expect(first).toContain('<g:brand>Kloof &amp; Kin</g:brand>');
      expect(first).not.toContain('<g:brand>Maison Luxe</g:brand>');
      await feeds.settled();

      const [kloof] = await ctx.database.db.select().from(designers).where(eq(designers.slug, 'kloof-kin'));
      const owner = { id: null, email: 'staff command' };
      await ctx.services.catalogueAdmin.saveDesigner(owner, kloof!.id, { name: 'Kloof Linen House', slug: 'kloof-linen-house', about: kloof!.about });
      const [audit] = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'designer.update'));
      expect(audit?.details).toMatchObject({ before: { name: 'Kloof & Kin' }, after: { name: 'Kloof Linen House', slug: 'kloof-linen-house' } });
      const renamed = await list({ q: 'linen house' });
      expect(renamed.docs.some((p) => p.designer?.name === 'Kloof Linen House')).toBe(true);
      const one = (await list({ designer: 'kloof-linen-house' })).docs[0]!;
      expect((await ctx.services.catalogue.getProduct(one.id)).designer).toMatchObject({ name: 'Kloof Linen House' });
      // An app server starting on the kept copy finds the renamed designer's segment changed and reads it again.
      const fresh = createFeedService({ db: ctx.database.db, site: SITE });
      await textOf(fresh);
      await fresh.settled();
      const after = await textOf(fresh);
      expect(after).toContain('<g:brand>Kloof Linen House</g:brand>');
      await Promise.all([feeds.settled(), fresh.settled()]);
    }, 120_000);
  });
}
