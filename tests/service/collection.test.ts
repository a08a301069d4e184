import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionSchema } from '@/lib/domain/collection';
import { users } from '@/lib/server/accounts/tables';
import { auditLog } from '@/lib/server/backoffice/tables';
import { stockLedger, variants } from '@/lib/server/catalogue/tables';
import { orders } from '@/lib/server/orders/tables';
import { payments } from '@/lib/server/payments/tables';
import type { Services } from '@/lib/server/services';
import { DRIVERS, servicesFor } from '../support/services';
import { placePodOrder, podShopper, podVariant } from '../support/pod-orders';
import type { PageAt } from '@/lib/domain/paging';
import type { Page } from '@/lib/server/infra/db/paging';

for (const driver of DRIVERS) {
  describe(`collecting pay-on-delivery orders on ${driver}`, () => {
    let services: Services;
    let close: () => Promise<void>;
    let owner: { id: string; email: string };

    beforeAll(async () => {
      ({ services, close } = await servicesFor(driver));
      [owner] = await services.db.select({ id: users.id, email: users.email }).from(users).where(eq(users.email, 'owner@maisonluxe.ng')) as [{ id: string; email: string }];
    }, 120_000);
    afterAll(async () => {
      await close?.();
    });

    const stock = async (id: number) => (await services.db.select({ s: variants.stock }).from(variants).where(eq(variants.id, id)))[0]!.s;
    const order = async (id: string) => (await services.db.select().from(orders).where(eq(orders.id, id)))[0]!;
    const refusals = async (id: string) => (await services.db.select({ n: users.refusedDeliveries }).from(users).where(eq(users.id, id)))[0]!.n;

    it("pages a shopper's order history and the list to collect by key, on, back and from the end, ties to the microsecond included", async () => {
      const shopper = await podShopper(services);
      for (let i = 0; i < 12; i++) await placePodOrder(services, { ...shopper, userId: shopper.id, variantId: (await podVariant(services, 'NG', 1, i)).id });
      // Five placed in the same instant, to the microsecond: then by id.
      await services.db.execute(sql`update orders set created_at = '2026-11-20 09:00:00.314159+00' where id in (select id from orders where user_id = ${shopper.id} order by id limit 5)`);
      const walk = async <T extends { id: string }>(read: (at: PageAt) => Promise<Page<T>>) => {
        const first = await read({ page: 1 });
        const pages = Math.ceil(first.total / first.pageSize);
        const byNumber: string[] = [];
        for (let p = 1; p <= pages; p++) byNumber.push(...(await read({ page: p })).rows.map((r) => r.id));
        const onwards = first.rows.map((r) => r.id);
        for (let at = first; at.cursors.after; ) {
          at = await read({ page: at.page + 1, after: at.cursors.after });
          onwards.push(...at.rows.map((r) => r.id));
        }
        let at = await read({ page: pages, before: 'end' });
        const back = [at.rows.map((r) => r.id)];
        while (at.cursors.before) {
          at = await read({ page: at.page - 1, before: at.cursors.before });
          back.unshift(at.rows.map((r) => r.id));
        }
        return { total: first.total, byNumber, onwards, back: back.flat() };
      };
      const history = await walk((at) => services.orders.pageForUser(shopper.id, { ...at, pageSize: 5 }));
      expect(history.total).toBe(12);
      expect(history.byNumber).toEqual((await services.orders.listForUser(shopper.id)).map((o) => o.id));
      expect(history.onwards).toEqual(history.byNumber);
      expect(history.back).toEqual(history.byNumber);
      expect((await services.orders.pageForUser(shopper.id, { status: 'delivered' })).total).toBe(0);
      expect((await services.orders.pageForUser(shopper.id, { status: 'pending' })).total).toBe(12);

      // Oldest first: the keys run the other way.
      const due = await walk((at) => services.collection.toCollect({ ...at, pageSize: 5 }));
      expect(due.total).toBeGreaterThanOrEqual(12);
      expect(new Set(due.byNumber).size).toBe(due.total);
      expect(due.onwards).toEqual(due.byNumber);
      expect(due.back).toEqual(due.byNumber);
    });

    it('lists it to collect, refuses a wrong amount, then records delivered and paid once', async () => {
      const shopper = await podShopper(services);
      const v = await podVariant(services);
      const o = await placePodOrder(services, { ...shopper, userId: shopper.id, variantId: v.id });
      const list = await services.collection.toCollect({ market: 'NG' });
      expect(list.rows.find((r) => r.id === o.id)).toMatchObject({ trackingNumber: o.trackingNumber, dueMinor: o.dueMinor, totalMinor: o.totalMinor, market: 'NG' });
      expect((await services.collection.toCollect({ market: 'ZA' })).rows.find((r) => r.id === o.id)).toBeUndefined();

      const wrong = services.collection.record(owner, o.id, { outcome: 'paid', method: 'cash', amount: o.dueMinor / 100 - 1 });
      await expect(wrong).rejects.toMatchObject({ code: 'invalid', message: expect.stringMatching(/^The amount must equal what is due: ₦[\d,.]+\.$/) });
      expect((await order(o.id)).collectionOutcome).toBeNull();

      const r = await services.collection.record(owner, o.id, { outcome: 'paid', method: 'card', amount: o.dueMinor / 100 });
      expect(r).toMatchObject({ outcome: 'paid', status: 'delivered', collectedMinor: o.dueMinor, method: 'card' });
      expect(await order(o.id)).toMatchObject({ status: 'delivered', collectionOutcome: 'paid', collectionMethod: 'card', collectedMinor: o.dueMinor });
      await expect(services.collection.record(owner, o.id, { outcome: 'refused' })).rejects.toMatchObject({ code: 'conflict', message: 'This order has already been settled.' });
      await expect(services.collection.record(owner, o.id, { outcome: 'paid', method: 'cash', amount: o.dueMinor / 100 })).rejects.toMatchObject({ code: 'conflict' });
      expect((await services.collection.toCollect()).rows.find((row) => row.id === o.id)).toBeUndefined();
      const audits = await services.db.select().from(auditLog).where(and(eq(auditLog.entityId, o.id), eq(auditLog.action, 'order.collection')));
      expect(audits).toHaveLength(1);
      expect(audits[0]!.details).toMatchObject({ outcome: 'paid', method: 'card', collectedMinor: o.dueMinor });
      expect((await services.adminReports.dashboard()).cashCollected).toEqual(expect.arrayContaining([expect.objectContaining({ currency: 'NGN', method: 'card' })]));
    });

    it('refused at the door: stock back through the ledger, refusal counted, deposit refunded less the delivery fee, audited', async () => {
      const shopper = await podShopper(services);
      const v = await podVariant(services, 'NG', 3, 1);
      const before = await stock(v.id);
      const o = await placePodOrder(services, { ...shopper, userId: shopper.id, variantId: v.id, quantity: 2, depositPercent: 30 });
      expect(await stock(v.id)).toBe(before - 2);
      const r = await services.collection.record(owner, o.id, { outcome: 'refused' });
      expect(r).toMatchObject({ outcome: 'refused', status: 'cancelled', refundedMinor: o.depositMinor - o.deliveryFeeMinor });
      expect(await stock(v.id)).toBe(before);
      const back = await services.db.select().from(stockLedger).where(and(eq(stockLedger.orderId, o.id), eq(stockLedger.kind, 'cancellation')));
      expect(back.map((l) => l.delta)).toEqual([2]);
      expect(await refusals(shopper.id)).toBe(1);
      const [p] = await services.db.select().from(payments).where(eq(payments.reference, o.paymentReference));
      expect(p).toMatchObject({ refundedMinor: o.depositMinor - o.deliveryFeeMinor, status: 'partially_refunded' });
      expect(await order(o.id)).toMatchObject({ collectionOutcome: 'refused', status: 'cancelled' });
      const actions = (await services.db.select().from(auditLog).where(eq(auditLog.entityId, o.id))).map((a) => `${a.action}:${(a.details as { outcome?: string }).outcome}`);
      expect(actions).toEqual(['order.collection:refused']);
      // The deposit's refund is owed in the refusal's transaction, then paid (its row is its record).
      expect(await services.owedRefunds.forOrder(o.id)).toMatchObject([{ status: 'paid', destination: 'payment', amountMinor: o.depositMinor - o.deliveryFeeMinor }]);
      // Refused twice is still one refusal, one stock return, one refund.
      await expect(services.collection.record(owner, o.id, { outcome: 'refused' })).rejects.toMatchObject({ code: 'conflict' });
      expect(await stock(v.id)).toBe(before);
      expect(await refusals(shopper.id)).toBe(1);

      // A whole order paid at the door: nothing to refund. A second refusal; staff lift the block.
      const whole = await placePodOrder(services, { ...shopper, userId: shopper.id, variantId: v.id });
      expect(await services.collection.record(owner, whole.id, { outcome: 'refused' })).toMatchObject({ refundedMinor: 0 });
      expect(await refusals(shopper.id)).toBe(2);
      expect(await services.collection.liftRefusals(owner, shopper.id)).toEqual({ before: 2 });
      expect(await refusals(shopper.id)).toBe(0);
      const lifted = await services.db.select().from(auditLog).where(and(eq(auditLog.entityId, shopper.id), eq(auditLog.action, 'customer.lift-pay-on-delivery-block')));
      expect(lifted).toHaveLength(1);
    });

    it('refused at the door after a partial refund smaller than the fee: deposit less the fee back in all, no more', async () => {
      const shopper = await podShopper(services);
      const v = await podVariant(services, 'NG', 3, 2);
      const o = await placePodOrder(services, { ...shopper, userId: shopper.id, variantId: v.id, depositPercent: 30 });
      expect(o.deliveryFeeMinor).toBeGreaterThan(100_000);
      await services.orderRefunds.refund(o.id, 100_000, owner);
      const r = await services.collection.record(owner, o.id, { outcome: 'refused' });
      expect(r.refundedMinor).toBe(o.depositMinor - o.deliveryFeeMinor - 100_000);
      const [p] = await services.db.select().from(payments).where(eq(payments.reference, o.paymentReference));
      expect(p!.refundedMinor).toBe(o.depositMinor - o.deliveryFeeMinor);
    });

    it('an order cancelled meanwhile, or not paid on delivery, cannot be settled; unknown ids are 404', async () => {
      const shopper = await podShopper(services);
      const v = await podVariant(services);
      const o = await placePodOrder(services, { ...shopper, userId: shopper.id, variantId: v.id });
      await services.orders.setStatus(o.id, 'cancelled', owner);
      await expect(services.collection.record(owner, o.id, { outcome: 'paid', method: 'cash', amount: o.dueMinor / 100 })).rejects.toMatchObject({ code: 'conflict' });
      await expect(services.collection.record(owner, o.id, { outcome: 'refused' })).rejects.toMatchObject({ code: 'conflict' });
      expect(await refusals(shopper.id)).toBe(0);
      await expect(services.collection.record(owner, '00000000-0000-4000-8000-000000000000', { outcome: 'refused' })).rejects.toMatchObject({ code: 'not_found' });
      await expect(services.collection.record(owner, 'nope', { outcome: 'refused' })).rejects.toMatchObject({ code: 'not_found' });
    });

    it('dashboard: cash to collect and collected, per method and currency', async () => {
      const shopper = await podShopper(services, 'ZA');
      const v = await podVariant(services, 'ZA');
      const before = await services.adminReports.dashboard();
      const due = (d: typeof before, c: string) => d.cashToCollect.find((r) => r.currency === c)?.minor ?? 0;
      const got = (d: typeof before, c: string, m: string) => d.cashCollected.find((r) => r.currency === c && r.method === m)?.minor ?? 0;
      const a = await placePodOrder(services, { ...shopper, userId: shopper.id, variantId: v.id, market: 'ZA' });
      const b = await placePodOrder(services, { ...shopper, userId: shopper.id, variantId: v.id, market: 'ZA', depositPercent: 30 });
      const mid = await services.adminReports.dashboard();
      expect(due(mid, 'ZAR') - due(before, 'ZAR')).toBe(a.dueMinor + b.dueMinor);
      await services.collection.record(owner, a.id, { outcome: 'paid', method: 'transfer', amount: a.dueMinor / 100 });
      await services.collection.record(owner, b.id, { outcome: 'refused' });
      const after = await services.adminReports.dashboard();
      expect(due(after, 'ZAR')).toBe(due(before, 'ZAR'));
      expect(got(after, 'ZAR', 'transfer') - got(before, 'ZAR', 'transfer')).toBe(a.dueMinor);
      expect(got(after, 'ZAR', 'cash')).toBe(got(before, 'ZAR', 'cash'));
    });

    it('market rules: defaults, then what staff set (audited)', async () => {
      expect(await services.onDelivery.rules('ZA')).toMatchObject({ enabled: true, depositPercent: 30 });
      await services.onDelivery.setRules(owner, 'ZA', { enabled: false, capMinor: 100_000, ceilingMinor: 200_000, depositPercent: 50 });
      expect(await services.onDelivery.rules('ZA')).toEqual({ enabled: false, capMinor: 100_000, ceilingMinor: 200_000, depositPercent: 50, maxOpenOrders: 2 });
      expect((await services.db.select().from(auditLog).where(eq(auditLog.action, 'market.pay-on-delivery'))).length).toBeGreaterThan(0);
    });

    it('reads its input: method and amount for paid, major units', () => {
      expect(collectionSchema.parse({ outcome: 'paid', method: 'cash', amount: '1500.50' })).toEqual({ outcome: 'paid', method: 'cash', amount: 1500.5 });
      expect(collectionSchema.parse({ outcome: 'refused', method: '', amount: '' })).toEqual({ outcome: 'refused' });
      expect(collectionSchema.safeParse({ outcome: 'paid', amount: 10 }).success).toBe(false);
      expect(collectionSchema.safeParse({ outcome: 'paid', method: 'cheque', amount: 10 }).success).toBe(false);
      expect(collectionSchema.safeParse({ outcome: 'lost' }).success).toBe(false);
      expect(collectionSchema.safeParse({ outcome: 'paid', method: 'cash', amount: 'ten' }).success).toBe(false);
    });
  });
}
