import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { returnRequestSchema } from '@/lib/domain/after-sales-input';
import { orderMoney, payments } from '@/lib/server/infra/db/schema';
import { checkMoney } from '@/lib/server/orders/money-check';
import { placePodOrder, podShopper, podVariant, type PodOrder } from '../support/pod-orders';
import { DRIVERS, servicesFor } from '../support/services';

const staff = { id: null, email: 'money@maisonluxe.ng' };

/** One account of the money per order: a return, a line refund and an amount refund never give back more than was taken. */
for (const driver of DRIVERS) {
  describe(`the money of an order on ${driver}`, () => {
    let ctx: Awaited<ReturnType<typeof servicesFor>>;
    beforeAll(async () => {
      ctx = await servicesFor(driver);
    });
    afterAll(async () => ctx?.close());

    /** A card order of one unit, picked up (no delivery fee), paid online in full and delivered. */
    async function deliveredCardOrder(skip: number, quantity = 1): Promise<PodOrder> {
      const shopper = await podShopper(ctx.services);
      const v = await podVariant(ctx.services, 'NG', 3, skip);
      const order = await placePodOrder(ctx.services, { userId: shopper.id, email: shopper.email, variantId: v.id, quantity, depositPercent: 100, pickup: true });
      await ctx.services.orders.setStatus(order.id, 'processed');
      await ctx.services.orders.setStatus(order.id, 'delivered');
      return order;
    }

    async function returnedForRefund(order: PodOrder, resolution: 'refund' | 'credit' = 'refund') {
      const line = (await ctx.services.orders.load(order.id))!.items[0]!.id;
      const ret = await ctx.services.returns.request(order.userId, order.id, returnRequestSchema.parse({ items: [{ orderItemId: line, quantity: order.quantity }], reason: 'changed_mind', resolution, method: 'drop_off' }));
      await ctx.services.returns.act(staff, ret.id, { action: 'approve' });
      await ctx.services.returns.act(staff, ret.id, { action: 'receive' });
      return ret;
    }

    const refundedOf = async (order: PodOrder) => (await ctx.services.db.select({ r: payments.refundedMinor }).from(payments).where(eq(payments.reference, order.paymentReference)))[0]!.r;

    it('an order refunded in full by amount, then returned for a refund, gives nothing more back', async () => {
      const order = await deliveredCardOrder(0);
      const refund = await ctx.services.orderRefunds.refund(order.id, undefined, staff);
      expect(refund.refundedMinor).toBe(order.totalMinor);
      const ret = await returnedForRefund(order);
      const settled = await ctx.services.returns.act(staff, ret.id, { action: 'refund' });
      expect(settled).toMatchObject({ refunded: 0, credited: 0, transferred: 0 });
      expect(await ctx.services.storeCredit.balance(order.userId, 'NGN')).toBe(0);
      expect(await refundedOf(order)).toBe(order.totalMinor);
      expect(await ctx.services.orderMoney.totals(order.id)).toEqual({ takenMinor: order.totalMinor, givenBackMinor: order.totalMinor, leftMinor: 0 });
    });

    it('a partial refund by amount, then a return: the return gives back only what is left', async () => {
      const order = await deliveredCardOrder(1);
      const part = Math.floor(order.totalMinor / 3);
      await ctx.services.orderRefunds.refund(order.id, part, staff);
      const ret = await returnedForRefund(order);
      const settled = await ctx.services.returns.act(staff, ret.id, { action: 'refund' });
      expect(Math.round(settled.refunded * 100) + Math.round(settled.credited * 100)).toBe(order.totalMinor - part);
      expect(await ctx.services.storeCredit.balance(order.userId, 'NGN')).toBe(0);
      expect(await refundedOf(order)).toBe(order.totalMinor);
    });

    it('a return credited first: a later refund by amount is refused, the card keeps what it paid', async () => {
      const order = await deliveredCardOrder(2);
      const ret = await returnedForRefund(order, 'credit');
      const credited = await ctx.services.returns.act(staff, ret.id, { action: 'credit' });
      expect(Math.round(credited.credited * 100)).toBe(order.totalMinor);
      await expect(ctx.services.orderRefunds.refund(order.id, undefined, staff)).rejects.toThrow('Everything paid for this order has already been given back.');
      await expect(ctx.services.orderRefunds.refund(order.id, 100, staff)).rejects.toThrow('Everything paid for this order has already been given back.');
      expect(await refundedOf(order)).toBe(0);
    });

    it('a return credited after part was refunded by amount credits only the rest', async () => {
      const order = await deliveredCardOrder(3);
      await ctx.services.orderRefunds.refund(order.id, 100_000, staff);
      const ret = await returnedForRefund(order, 'credit');
      const credited = await ctx.services.returns.act(staff, ret.id, { action: 'credit' });
      expect(Math.round(credited.credited * 100)).toBe(order.totalMinor - 100_000);
      expect(await ctx.services.storeCredit.balance(order.userId, 'NGN')).toBe(order.totalMinor - 100_000);
    });

    it('a refund by amount is a row of the order\'s account, beside what was charged', async () => {
      const order = await deliveredCardOrder(4);
      await ctx.services.orderRefunds.refund(order.id, 50_000, staff);
      const kinds = await ctx.services.db.select({ kind: orderMoney.kind, amount: orderMoney.amountMinor }).from(orderMoney).where(eq(orderMoney.orderId, order.id));
      expect(kinds).toEqual(expect.arrayContaining([{ kind: 'charged', amount: order.totalMinor }, { kind: 'refunded', amount: -50_000 }]));
    });

    it('the money check passes on everything above, and names an order whose account does not add up', async () => {
      const clean = await checkMoney(ctx.services.db);
      expect(clean.problems).toEqual([]);
      expect(clean.counts.orders).toBeGreaterThan(0);
      const order = await deliveredCardOrder(5);
      // Planted: store credit given back for an order with no row of it in the order's account.
      await ctx.services.db.execute(sql`insert into order_money (order_id, kind, amount_minor, currency) values (${order.id}, 'credited', ${-(order.totalMinor + 1)}, 'NGN')`);
      const found = await checkMoney(ctx.services.db);
      expect(found.ok).toBe(false);
      expect(found.problems.join('\n')).toContain(`order ${order.trackingNumber}`);
      expect(found.problems.join('\n')).toMatch(/gave back \d+, took \d+/);
      await ctx.services.db.execute(sql`delete from order_money where order_id = ${order.id} and kind = 'credited'`);
      expect((await checkMoney(ctx.services.db)).ok).toBe(true);
    });
  });
}
