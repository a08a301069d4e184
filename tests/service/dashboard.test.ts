import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '@/lib/server/accounts/tables';
import { variants } from '@/lib/server/catalogue/tables';
import { orders } from '@/lib/server/orders/tables';
import type { Services } from '@/lib/server/services';
import type { SessionUser } from '@/lib/server/accounts/sessions';
import { answerSimulatedPage, DRIVERS, servicesFor } from '../support/services';

/** The back-office dashboard's figures against a known set of orders, placed and then dated. */
for (const driver of DRIVERS) {
  describe(`dashboard figures on ${driver}`, () => {
    let services: Services;
    let close: () => Promise<void>;
    let demo: SessionUser;
    beforeAll(async () => {
      ({ services, close } = await servicesFor(driver));
      [demo] = (await services.db.select().from(users).where(eq(users.email, 'demo@maisonluxe.ng'))) as [SessionUser];
    }, 120_000);
    afterAll(async () => close?.());

    /** One paid order of `quantity` units of a colour-only variant of the n-th product; returns its id, total and product. */
    async function placeOrder(n: number, quantity: number) {
      const candidates = (await services.db.select().from(variants).orderBy(variants.id)).filter((r) => r.stock >= 5 && r.sizeId === null);
      const v = candidates.filter((r, i) => candidates.findIndex((c) => c.productId === r.productId) === i)[n]!;
      const product = await services.catalogue.getProduct(v.productId);
      const color = product.variants.find((x) => x.id === v.id)!.color ?? undefined;
      for (const i of (await services.cart.view(demo)).items) await services.cart.remove(demo, { productId: i.productId, color: i.color ?? undefined, size: i.size ?? undefined });
      await services.cart.add(demo, { productId: v.productId, color, size: undefined, quantity });
      const { reference } = await services.checkout.initiate(demo, {});
      await answerSimulatedPage(services, reference, 'pay');
      const { order } = await services.payments.fulfil(reference);
      const [row] = await services.db.select({ totalMinor: orders.totalMinor, currency: orders.currency }).from(orders).where(eq(orders.id, order.id));
      return { id: order.id, totalMinor: row!.totalMinor, currency: row!.currency, productId: v.productId };
    }

    it('counts orders and revenue for today, 7 and 30 days, by status, and the top products', async () => {
      const today = await placeOrder(0, 3);
      const threeDaysAgo = await placeOrder(1, 1);
      const tenDaysAgo = await placeOrder(2, 2);
      const fortyDaysAgo = await placeOrder(3, 1);
      const cancelledToday = await placeOrder(4, 1);
      const setAge = (id: string, days: number) => services.db.update(orders).set({ createdAt: sql`now() - make_interval(days => ${days})` }).where(eq(orders.id, id));
      await setAge(threeDaysAgo.id, 3);
      await setAge(tenDaysAgo.id, 10);
      await setAge(fortyDaysAgo.id, 40);
      await services.orders.setStatus(cancelledToday.id, 'cancelled');
      // Only these orders exist in the database.
      const ids = [today, threeDaysAgo, tenDaysAgo, fortyDaysAgo, cancelledToday].map((o) => o.id);
      expect((await services.db.select({ id: orders.id }).from(orders)).map((o) => o.id).sort()).toEqual([...ids].sort());

      const d = await services.adminReports.dashboard();
      const period = (label: string) => d.figures.find((f) => f.label === label)!;
      const cur = today.currency;
      expect(period('Today')).toMatchObject({ orders: 1, revenue: [{ currency: cur, minor: today.totalMinor }] });
      expect(period('7 days')).toMatchObject({ orders: 2, revenue: [{ currency: cur, minor: today.totalMinor + threeDaysAgo.totalMinor }] });
      expect(period('30 days')).toMatchObject({
        orders: 3,
        revenue: [{ currency: cur, minor: today.totalMinor + threeDaysAgo.totalMinor + tenDaysAgo.totalMinor }],
      });
      expect(Object.fromEntries(d.byStatus.map((s) => [s.status, s.n]))).toEqual({ pending: 4, cancelled: 1 });
      // Top products over 30 days by units: 3, 2, 1 (the cancelled and the 40-day-old orders do not count).
      expect(d.topProducts.map((p) => [p.productId, p.units])).toEqual([
        [today.productId, 3],
        [tenDaysAgo.productId, 2],
        [threeDaysAgo.productId, 1],
      ]);
    });

    it('keeps the daily rollup equal to the orders themselves after placing, re-dating, cancelling and deleting', async () => {
      const rows = (res: unknown) => ((res as { rows?: Record<string, unknown>[] }).rows ?? (res as Record<string, unknown>[]));
      const rollup = async () =>
        rows(await services.db.execute(sql`select day::text as day, currency, status, orders, total_minor::text as minor from order_daily_totals where orders <> 0 or total_minor <> 0 order by 1, 2, 3`));
      const live = async () =>
        rows(
          await services.db.execute(
            sql`select (created_at at time zone 'UTC')::date::text as day, currency, status, count(*)::int as orders, sum(total_minor)::text as minor from orders group by 1, 2, 3 order by 1, 2, 3`,
          ),
        );
      // Units sold per day, status and product (product_daily_sales), against the order lines themselves.
      const salesRollup = async () =>
        rows(await services.db.execute(sql`select day::text as day, status, product_id, product_name, units from product_daily_sales where units <> 0 order by 1, 2, 3, 4`));
      const salesLive = async () =>
        rows(
          await services.db.execute(
            sql`select (o.created_at at time zone 'UTC')::date::text as day, o.status, i.product_id, i.product_name, sum(i.quantity)::int as units
                from order_items i join orders o on o.id = i.order_id group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
          ),
        );
      const bothAgree = async () => {
        expect(await rollup()).toEqual(await live());
        expect(await salesRollup()).toEqual(await salesLive());
      };
      await bothAgree();
      const placed = await placeOrder(5, 1);
      await bothAgree();
      expect((await salesRollup()).length).toBeGreaterThan(0);
      // Moved back a year in one statement with every other order of today: rows leave one day for another.
      await services.db.execute(sql`update orders set created_at = created_at - interval '1 year' where created_at > now() - interval '1 hour'`);
      await services.db.update(orders).set({ status: 'cancelled' }).where(eq(orders.id, placed.id));
      await bothAgree();
      // A line changed by hand (its quantity), then one deleted on its own.
      await services.db.execute(sql`update order_items set quantity = quantity + 2 where order_id = ${placed.id}`);
      await bothAgree();
      const second = await placeOrder(5, 1);
      await services.db.execute(sql`delete from order_items where id = (select min(id) from order_items where order_id = ${second.id})`);
      await bothAgree();
      // Deleting orders takes their lines (by cascade) out of the rollup too.
      await services.db.delete(orders).where(eq(orders.id, placed.id));
      await services.db.delete(orders).where(eq(orders.id, second.id));
      await bothAgree();
    });
  });
}
