import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { growStore } from '@/lib/server/demo/seed-scale';
import { DRIVERS, servicesFor } from '../support/services';

const rowsOf = <T>(res: unknown): T[] => ((res as { rows?: T[] }).rows ?? (res as T[]));

/** The large store (`npm run db:seed -- --reset --products N`), grown small here, keeps every invariant. */
for (const driver of DRIVERS) {
  describe(`the large store's seed on ${driver}`, () => {
    let ctx: Awaited<ReturnType<typeof servicesFor>>;
    beforeAll(async () => {
      ctx = await servicesFor(driver);
      await growStore(ctx.services.db, { products: 400, customers: 300, orders: 3000 });
    }, 120_000);
    afterAll(async () => ctx?.close());

    it('has the products, customers and orders asked for, each order with its payment, and unique names', async () => {
      const [row] = rowsOf<Record<string, number>>(
        await ctx.services.db.execute(sql`select
          (select count(*)::int from products) as products,
          (select count(distinct name)::int from products) as names,
          (select count(*)::int from users where email like '%@scale.maisonluxe.test') as customers,
          (select count(*)::int from orders where tracking_number like 'ML-S%') as orders,
          (select count(*)::int from orders o join payments p on p.id = o.payment_id and p.amount_minor = o.total_minor) as paid,
          (select count(*)::int from orders where confirmation_mailed_at is null) as unmailed,
          (select count(*)::int from products where search_document is null) as unsearchable,
          (select count(*)::int from variants v where not exists (select 1 from variant_prices vp where vp.variant_id = v.id)) as unpriced`),
      );
      expect(row).toMatchObject({ products: 400, names: 400, customers: 300, orders: 3000, unmailed: 0, unsearchable: 0, unpriced: 0 });
      expect(Number(row!.paid)).toBe(Number(row!.orders) + (await ctx.services.db.execute(sql`select 1 from orders where tracking_number not like 'ML-S%'`).then((r) => rowsOf(r).length)));
    });

    it('keeps the stock ledger adding up, and grown products are found by search', async () => {
      expect(await ctx.services.stock.mismatches()).toEqual([]);
      const found = await ctx.services.search.plan('riviera');
      expect(found?.corrected).toBeNull();
      const list = await ctx.services.catalogue.listProducts({ q: 'riviera', sort: 'relevant', page: 1, limit: 5 }, 'NG');
      expect(list.totalDocs).toBeGreaterThan(0);
      expect(list.docs[0]!.name).toMatch(/Riviera \d{6}$/);
    });
  });
}
