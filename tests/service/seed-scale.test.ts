import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { growStore } from '@/lib/server/demo/seed-scale';
import { checkBooks } from '@/lib/server/books/books-check';
import { createVatReport } from '@/lib/server/books/report';
import { vatLines } from '@/lib/domain/vat';
import { DRIVERS, servicesFor } from '../support/services';

const rowsOf = <T>(res: unknown): T[] => ((res as { rows?: T[] }).rows ?? (res as T[]));

/** The large store (`npm run db:seed -- --reset --products N`), grown small here, keeps every invariant. */
for (const driver of DRIVERS) {
  describe(`the large store's seed on ${driver}`, () => {
    let ctx: Awaited<ReturnType<typeof servicesFor>>;
    beforeAll(async () => {
      ctx = await servicesFor(driver);
      // Nigeria without VAT on delivery, South Africa with: both ways of sharing an order's VAT.
      await ctx.services.db.execute(sql`update tax_settings set delivery_taxed = false where market = 'NG'`);
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

    it('gives every grown order its VAT lines and its invoice as placing it would, numbered on without a gap, and the VAT report adds them up', async () => {
      const db = ctx.services.db;
      expect(await checkBooks(db, 20)).toEqual([]);
      const [counts] = rowsOf<Record<string, number>>(
        await db.execute(sql`select
          (select count(*)::int from orders o where tracking_number like 'ML-S%' and not exists (select 1 from tax_documents d where d.order_id = o.id and d.source = 'order')) as uninvoiced,
          (select count(*)::int from tax_documents where e_invoicing_status <> 'handed') as waiting`),
      );
      expect(counts).toMatchObject({ uninvoiced: 0, waiting: 0 });

      // The lines are what the domain's rule gives for the same gross amounts.
      const lines = rowsOf<{ order_id: string; gross_minor: number; vat_minor: number; rate_basis_points: number }>(
        await db.execute(sql`select l.order_id, l.gross_minor::int, l.vat_minor::int, l.rate_basis_points from order_vat_lines l
          join orders o on o.id = l.order_id where o.tracking_number like 'ML-S%' order by l.order_id, l.id limit 3000`),
      );
      const byOrder = Map.groupBy(lines, (l) => l.order_id);
      for (const [, own] of byOrder) {
        const expected = vatLines(own.map((l) => ({ kind: 'item' as const, grossMinor: Number(l.gross_minor), basisPoints: Number(l.rate_basis_points) })));
        expect(own.map((l) => Number(l.vat_minor))).toEqual(expected.map((l) => l.vatMinor));
      }

      // Each market's invoices of a year run 1..N with the counter at N.
      const series = rowsOf<{ market: string; year: number; documents: number; highest: number; last: number }>(
        await db.execute(sql`select d.market, c.year, count(*)::int as documents, max(substring(d.number from '([0-9]+)$')::int) as highest, c.last
          from tax_documents d join tax_document_counters c on c.market = d.market and c.kind = d.kind and d.number like d.market || '-' || c.year || '-%'
          where d.kind = 'invoice' group by d.market, c.year, c.last`),
      );
      expect(series.length).toBeGreaterThan(1);
      for (const s of series) expect([s.documents, s.highest]).toEqual([s.last, s.last]);

      // A month's report is the sum of its documents.
      const report = await createVatReport({ db }).totals({ market: 'ZA', from: '2026-01-01', to: '2026-01-31' });
      const [month] = rowsOf<{ n: number; vat: number }>(
        await db.execute(sql`select count(*)::int as n, coalesce(sum(vat_minor), 0)::int as vat from tax_documents
          where market = 'ZA' and kind = 'invoice' and issued_at >= '2025-12-31T22:00:00Z' and issued_at < '2026-01-31T22:00:00Z'`),
      );
      expect(report.sales.documents).toBe(month!.n);
      expect(Math.round(report.sales.vat * 100)).toBe(month!.vat);
    });
  });
}
