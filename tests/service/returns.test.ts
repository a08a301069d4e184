import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { returnRequestSchema } from '@/lib/domain/after-sales-input';
import { paidForUnits } from '@/lib/domain/promotions';
import { stockLedger, variantPrices, variants } from '@/lib/server/catalogue/tables';
import { payments } from '@/lib/server/payments/tables';
import { placePodOrder, podShopper, podVariant, type PodOrder } from '../support/pod-orders';
import { DRIVERS, servicesFor } from '../support/services';

const staff = { id: null, email: 'returns@maisonluxe.ng' };

/** Returns and exchanges on the stock ledger, the payment port and store credit, on both databases. */
for (const driver of DRIVERS) {
  describe(`returns and exchanges on ${driver}`, () => {
    let ctx: Awaited<ReturnType<typeof servicesFor>>;
    /** A fixed time for the tests that set one; the real time otherwise. */
    let fixedNow: Date | null = null;
    beforeAll(async () => {
      ctx = await servicesFor(driver, { clock: () => fixedNow ?? new Date() });
    });
    afterAll(async () => ctx?.close());

    const stockOf = async (variantId: number) => (await ctx.services.db.select({ stock: variants.stock }).from(variants).where(eq(variants.id, variantId)))[0]!.stock;

    /** Two variants of one product at one Nigerian price, both with stock: a piece and its exchange. */
    async function pieceAndSibling(skip: number) {
      const res = await ctx.services.db.execute(sql`
        select a.id as a, b.id as b from variants a
        join variants b on b.product_id = a.product_id and b.id <> a.id
        join variant_prices pa on pa.variant_id = a.id and pa.market = 'NG'
        join variant_prices pb on pb.variant_id = b.id and pb.market = 'NG'
        where a.stock >= 6 and b.stock >= 6 and pa.price_minor = pb.price_minor
        order by a.id offset ${skip} limit 1`);
      const row = (((res as any).rows ?? res) as { a: number; b: number }[])[0]!;
      return { piece: Number(row.a), sibling: Number(row.b) };
    }

    /** A delivered order of `quantity` units of `variantId`, paid online in full (a simulated payment). */
    async function deliveredOrder(variantId: number, quantity: number, deliveredOn?: string): Promise<PodOrder> {
      const shopper = await podShopper(ctx.services);
      const order = await placePodOrder(ctx.services, { userId: shopper.id, email: shopper.email, variantId, quantity, depositPercent: 100 });
      await ctx.services.orders.setStatus(order.id, 'processed');
      await ctx.services.orders.setStatus(order.id, 'delivered', undefined, deliveredOn ? { deliveredOn } : {});
      return order;
    }

    const ask = (order: PodOrder, body: Record<string, unknown>) => ctx.services.returns.request(order.userId, order.id, returnRequestSchema.parse(body));
    const lineOf = async (order: PodOrder) => (await ctx.services.orders.load(order.id))!.items[0]!.id;

    it('an exchange holds the new size at once; staff approve, receive (the unit back on sale) and ship it', async () => {
      const { piece, sibling } = await pieceAndSibling(0);
      const order = await deliveredOrder(piece, 2);
      const line = await lineOf(order);
      const before = { piece: await stockOf(piece), sibling: await stockOf(sibling) };
      const ret = await ask(order, { items: [{ orderItemId: line, quantity: 1, exchangeVariantId: sibling }], reason: 'too_small', resolution: 'exchange', method: 'drop_off' });
      expect(ret).toMatchObject({ status: 'requested', resolution: 'exchange', reasonLabel: 'Too small', difference: 0 });
      expect(ret.items[0]!.exchange?.variantId).toBe(sibling);
      expect(await stockOf(sibling)).toBe(before.sibling - 1);
      // The order's returns, as the API lists them.
      expect((await ctx.services.returns.forOrder(order.id)).map((r) => r.id)).toEqual([ret.id]);

      await ctx.services.returns.act(staff, ret.id, { action: 'approve' });
      await ctx.services.returns.act(staff, ret.id, { action: 'receive' });
      expect(await stockOf(piece)).toBe(before.piece + 1);
      const shipped = await ctx.services.returns.act(staff, ret.id, { action: 'ship' });
      expect(shipped).toMatchObject({ status: 'exchanged', shipmentTracking: null });
      await expect(ctx.services.returns.act(staff, ret.id, { action: 'ship' })).rejects.toThrow('This step does not apply to this return now.');
      const kinds = await ctx.services.db.select({ kind: stockLedger.kind, delta: stockLedger.delta }).from(stockLedger).where(eq(stockLedger.orderId, order.id));
      expect(kinds).toEqual(expect.arrayContaining([{ kind: 'exchange', delta: -1 }, { kind: 'return', delta: 1 }]));
    });

    it('never returns more than was bought, less what is already being returned', async () => {
      const { piece } = await pieceAndSibling(1);
      const order = await deliveredOrder(piece, 2);
      const line = await lineOf(order);
      await ask(order, { items: [{ orderItemId: line, quantity: 1 }], reason: 'changed_mind', resolution: 'credit', method: 'collection' });
      await expect(ask(order, { items: [{ orderItemId: line, quantity: 2 }], reason: 'too_big', resolution: 'refund', method: 'drop_off' })).rejects.toThrow('You can return at most 1 of this item.');
      await ask(order, { items: [{ orderItemId: line, quantity: 1 }], reason: 'too_big', resolution: 'refund', method: 'drop_off' });
      await expect(ask(order, { items: [{ orderItemId: line, quantity: 1 }], reason: 'too_big', resolution: 'refund', method: 'drop_off' })).rejects.toThrow('This item is already being returned.');
      // Someone else's order reads as not found.
      await expect(ctx.services.returns.request((await podShopper(ctx.services)).id, order.id, returnRequestSchema.parse({ items: [{ orderItemId: line, quantity: 1 }], reason: 'too_big', resolution: 'refund', method: 'drop_off' }))).rejects.toThrow('Order not found');
    });

    it('a refund goes back to the payment once: what was paid for the received units', async () => {
      const { piece } = await pieceAndSibling(2);
      const order = await deliveredOrder(piece, 2);
      const line = await lineOf(order);
      const stock = await stockOf(piece);
      const ret = await ask(order, { items: [{ orderItemId: line, quantity: 2 }], reason: 'damaged', resolution: 'refund', method: 'collection' });
      await ctx.services.returns.act(staff, ret.id, { action: 'approve' });
      // Two came back, one damaged: only the undamaged one goes back on sale.
      const item = ret.items[0]!.id;
      await ctx.services.returns.act(staff, ret.id, { action: 'receive', items: [{ id: item, received: 2, damaged: 1 }] });
      expect(await stockOf(piece)).toBe(stock + 1);
      const refunded = await ctx.services.returns.act(staff, ret.id, { action: 'refund' });
      const unit = (await ctx.services.db.select({ p: variantPrices.priceMinor }).from(variantPrices).where(and(eq(variantPrices.variantId, piece), eq(variantPrices.market, 'NG'))))[0]!.p;
      expect(refunded).toMatchObject({ status: 'refunded', credited: 0 });
      expect(refunded.refunded * 100).toBe(paidForUnits(unit * 2, 0, 2, 2));
      await expect(ctx.services.returns.act(staff, ret.id, { action: 'refund' })).rejects.toThrow('This step does not apply to this return now.');
      const [p] = await ctx.services.db.select({ refunded: payments.refundedMinor }).from(payments).where(eq(payments.reference, order.paymentReference));
      expect(p!.refunded).toBe(unit * 2);
    });

    it('store credit: a return credited adds what was paid to the shopper\'s balance, and the ledger adds up', async () => {
      const { piece } = await pieceAndSibling(3);
      const order = await deliveredOrder(piece, 1);
      const line = await lineOf(order);
      const ret = await ask(order, { items: [{ orderItemId: line, quantity: 1 }], reason: 'changed_mind', resolution: 'credit', method: 'drop_off' });
      await ctx.services.returns.act(staff, ret.id, { action: 'approve' });
      await ctx.services.returns.act(staff, ret.id, { action: 'receive' });
      const credited = await ctx.services.returns.act(staff, ret.id, { action: 'credit' });
      expect(credited.status).toBe('credited');
      expect(await ctx.services.storeCredit.balance(order.userId, 'NGN')).toBe(Math.round(credited.credited * 100));
      expect(await ctx.services.storeCredit.mismatches()).toEqual([]);
      expect(await ctx.services.stock.mismatches()).toEqual([]);
    });

    it("the dashboard shows the return rate and the top reasons per product", async () => {
      const d = await ctx.services.adminReports.dashboard();
      expect(d.returnRate).toBeGreaterThan(0);
      expect(d.returnRate).toBeLessThanOrEqual(1);
      expect(d.topReturnReasons.map((r) => r.reasonLabel)).toEqual(expect.arrayContaining(['Too small', 'Damaged or faulty']));
    });

    it('a rejection gives the held exchange unit back, with the reason', async () => {
      const { piece, sibling } = await pieceAndSibling(4);
      const order = await deliveredOrder(piece, 1);
      const before = await stockOf(sibling);
      const ret = await ask(order, { items: [{ orderItemId: await lineOf(order), quantity: 1, exchangeVariantId: sibling }], reason: 'too_big', resolution: 'exchange', method: 'drop_off' });
      expect(await stockOf(sibling)).toBe(before - 1);
      const rejected = await ctx.services.returns.act(staff, ret.id, { action: 'reject', reason: 'Worn outside' });
      expect(rejected).toMatchObject({ status: 'rejected', rejectionReason: 'Worn outside' });
      expect(await stockOf(sibling)).toBe(before);
    });

    it('a dearer exchange is approved only once its difference is paid online, once; a rejection pays it back', async () => {
      const { piece, sibling } = await pieceAndSibling(6);
      // The new size costs ₦25,000 more in this test.
      await ctx.services.db.execute(sql`update variant_prices set price_minor = price_minor + 2500000 where variant_id = ${sibling} and market = 'NG'`);
      const order = await deliveredOrder(piece, 1);
      const line = await lineOf(order);
      const options = await ctx.services.returns.optionsFor(order.userId, order.id);
      expect(options.lines[0]!.exchanges.find((e) => e.variantId === sibling)?.difference).toBe(25_000);
      const ret = await ask(order, { items: [{ orderItemId: line, quantity: 1, exchangeVariantId: sibling }], reason: 'too_small', resolution: 'exchange', method: 'drop_off' });
      expect(ret).toMatchObject({ difference: 25_000, differencePaid: false });
      await expect(ctx.services.returns.act(staff, ret.id, { action: 'approve' })).rejects.toThrow('The shopper has not paid the difference yet.');
      // Someone else cannot start it; the shopper's first try is abandoned, the second is paid.
      await expect(ctx.services.returns.payDifference((await podShopper(ctx.services)).id, order.id, ret.id, 'http://store.test')).rejects.toThrow('Return not found');
      const first = await ctx.services.returns.payDifference(order.userId, order.id, ret.id, 'http://store.test');
      const second = await ctx.services.returns.payDifference(order.userId, order.id, ret.id, 'http://store.test');
      expect(second.amount).toBe(25_000);
      const back = await ctx.services.payments.answerSimulated(second.reference, 'pay');
      expect(back).toBe(`http://store.test/order-details/${order.id}?trxref=${second.reference}&reference=${second.reference}`);
      const [a, b] = await Promise.all([ctx.services.payments.fulfil(second.reference, { userId: order.userId }), ctx.services.payments.fulfil(second.reference)]);
      expect(a.order.id).toBe(order.id);
      expect([a.created, b.created].filter(Boolean)).toHaveLength(1);
      expect((await ctx.services.returns.get(ret.id)).differencePaid).toBe(true);
      // The first payment, paid late, is not needed any more: it goes to refund.
      await ctx.services.payments.answerSimulated(first.reference, 'pay');
      await expect(ctx.services.payments.fulfil(first.reference)).rejects.toThrow('This exchange no longer needs the difference. Your payment will be refunded.');
      const statusOf = async (reference: string) => (await ctx.services.db.select().from(payments).where(eq(payments.reference, reference)))[0]!;
      expect((await statusOf(first.reference)).status).toBe('needs_refund');
      // Paid: the exchange may be approved. A rejection instead gives the difference back to the payment.
      const rejected = await ctx.services.returns.act(staff, ret.id, { action: 'reject', reason: 'Worn outside' });
      expect(rejected.status).toBe('rejected');
      expect(await statusOf(second.reference)).toMatchObject({ status: 'refunded', refundedMinor: 2_500_000, purpose: 'exchange_difference', returnId: ret.id });
      // Owed in the rejection's transaction (a row that outlives a refusing provider or a crash), then paid.
      expect(await ctx.services.owedRefunds.forOrder(order.id)).toMatchObject([{ status: 'paid', destination: 'payment', returnId: ret.id, amountMinor: 2_500_000 }]);
      // The order's own payment is untouched.
      expect((await statusOf(order.paymentReference)).refundedMinor).toBe(0);
    });

    it('a paid dearer exchange is approved, received and shipped', async () => {
      const { piece, sibling } = await pieceAndSibling(7);
      await ctx.services.db.execute(sql`update variant_prices set price_minor = price_minor + 1000000 where variant_id = ${sibling} and market = 'NG'`);
      const order = await deliveredOrder(piece, 1);
      const ret = await ask(order, { items: [{ orderItemId: await lineOf(order), quantity: 1, exchangeVariantId: sibling }], reason: 'too_big', resolution: 'exchange', method: 'collection' });
      const pay = await ctx.services.returns.payDifference(order.userId, order.id, ret.id, 'http://store.test');
      await ctx.services.payments.answerSimulated(pay.reference, 'pay');
      await ctx.services.payments.fulfil(pay.reference, { userId: order.userId });
      await expect(ctx.services.returns.payDifference(order.userId, order.id, ret.id, 'http://store.test')).rejects.toThrow('This step does not apply to this return now.');
      await ctx.services.returns.act(staff, ret.id, { action: 'approve' });
      await ctx.services.returns.act(staff, ret.id, { action: 'receive' });
      const shipped = await ctx.services.returns.act(staff, ret.id, { action: 'ship' });
      expect(shipped).toMatchObject({ status: 'exchanged', credited: 0, differencePaid: true });
    });

    it('units refunded from the order page are not returned for money again, and units being returned are not refunded there', async () => {
      const { piece } = await pieceAndSibling(8);
      const order = await deliveredOrder(piece, 2);
      const line = await lineOf(order);
      // Staff refund one unit of the line from the back office.
      await ctx.services.orderRefunds.refund(order.id, undefined, staff, { line: { position: 1, quantity: 1 } });
      expect((await ctx.services.returns.optionsFor(order.userId, order.id)).lines[0]!.returnable).toBe(1);
      await expect(ask(order, { items: [{ orderItemId: line, quantity: 2 }], reason: 'too_big', resolution: 'refund', method: 'drop_off' })).rejects.toThrow('You can return at most 1 of this item.');
      await ask(order, { items: [{ orderItemId: line, quantity: 1 }], reason: 'too_big', resolution: 'refund', method: 'drop_off' });
      // The other unit is now being returned: the order page cannot refund it too.
      await expect(ctx.services.orderRefunds.refund(order.id, undefined, staff, { line: { position: 1, quantity: 1 } })).rejects.toThrow('You can refund at most 0 of this line');
      const [p] = await ctx.services.db.select({ refunded: payments.refundedMinor }).from(payments).where(eq(payments.reference, order.paymentReference));
      const unit = (await ctx.services.db.select({ p: variantPrices.priceMinor }).from(variantPrices).where(and(eq(variantPrices.variantId, piece), eq(variantPrices.market, 'NG'))))[0]!.p;
      expect(p!.refunded).toBe(unit);
    });

    it('after the 3-day window, the request is refused with the day it closed', async () => {
      const { piece } = await pieceAndSibling(5);
      const fiveDaysAgo = new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10);
      const shopper = await podShopper(ctx.services);
      const order = await placePodOrder(ctx.services, { userId: shopper.id, email: shopper.email, variantId: piece, depositPercent: 100 });
      // An order placed before the delivery day recorded (back-dated in the test).
      await ctx.services.db.execute(sql`update orders set created_at = now() - interval '10 days' where id = ${order.id}`);
      await ctx.services.orders.setStatus(order.id, 'delivered', undefined, { deliveredOn: fiveDaysAgo }).catch(async () => {
        await ctx.services.orders.setStatus(order.id, 'processed');
        await ctx.services.orders.setStatus(order.id, 'delivered', undefined, { deliveredOn: fiveDaysAgo });
      });
      const dto = (await ctx.services.orders.load(order.id))!;
      expect(dto.returnable).toBe(false);
      await expect(ask(order, { items: [{ orderItemId: dto.items[0]!.id, quantity: 1 }], reason: 'too_big', resolution: 'refund', method: 'drop_off' })).rejects.toThrow(
        /^The 3-day return window for this order closed on \d{1,2} [A-Z][a-z]+ \d{4}\.$/,
      );
    });

    for (const [market, morning, zone] of [
      ['NG', '2027-01-15T06:00:00.000Z', 'Lagos'],
      ['ZA', '2027-01-15T05:00:00.000Z', 'Johannesburg'],
    ] as const) {
      it(`"Delivered on" today at 07:00 in ${zone} is accepted at that moment; tomorrow is refused; the window is 3 whole days from it`, async () => {
        const shopper = await podShopper(ctx.services, market);
        const { id: variantId } = await podVariant(ctx.services, market, 3, 8);
        const order = await placePodOrder(ctx.services, { userId: shopper.id, email: shopper.email, variantId, market, depositPercent: 100 });
        await ctx.services.db.execute(sql`update orders set created_at = '2027-01-14T09:00:00Z' where id = ${order.id}`);
        fixedNow = new Date(morning);
        try {
          await ctx.services.orders.setStatus(order.id, 'processed');
          await expect(ctx.services.orders.setStatus(order.id, 'delivered', undefined, { deliveredOn: '2027-01-16' })).rejects.toThrow(
            'The delivery day must be between the order day and today.',
          );
          await expect(ctx.services.orders.setStatus(order.id, 'delivered', undefined, { deliveredOn: 'not-a-day' })).rejects.toMatchObject({ code: 'invalid' });
          const { order: delivered } = await ctx.services.orders.setStatus(order.id, 'delivered', undefined, { deliveredOn: '2027-01-15' });
          expect(delivered.deliveredAt).toBe(morning);
          expect(delivered.returnWindowClosesAt).toBe(new Date(Date.parse(morning) + 3 * 86_400_000).toISOString());
          fixedNow = new Date(Date.parse(morning) + 3 * 86_400_000 - 60_000);
          expect((await ctx.services.orders.load(order.id))!.returnable).toBe(true);
          fixedNow = new Date(Date.parse(morning) + 3 * 86_400_000);
          expect((await ctx.services.orders.load(order.id))!.returnable).toBe(false);
        } finally {
          fixedNow = null;
        }
      });
    }

    if (driver === 'pg') {
      it('50 requests at once for one line never return more than was bought', async () => {
        const { piece } = await pieceAndSibling(6);
        const order = await deliveredOrder(piece, 2);
        const line = await lineOf(order);
        const results = await Promise.allSettled(
          Array.from({ length: 50 }, () => ask(order, { items: [{ orderItemId: line, quantity: 1 }], reason: 'too_big', resolution: 'refund', method: 'drop_off' })),
        );
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
      });

      it('50 refunds of one return at once refund once', async () => {
        const { piece } = await pieceAndSibling(7);
        const order = await deliveredOrder(piece, 1);
        const ret = await ask(order, { items: [{ orderItemId: await lineOf(order), quantity: 1 }], reason: 'not_as_described', resolution: 'refund', method: 'drop_off' });
        await ctx.services.returns.act(staff, ret.id, { action: 'approve' });
        await ctx.services.returns.act(staff, ret.id, { action: 'receive' });
        const results = await Promise.allSettled(Array.from({ length: 50 }, () => ctx.services.returns.act(staff, ret.id, { action: 'refund' })));
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        const [p] = await ctx.services.db.select({ refunded: payments.refundedMinor, amount: payments.amountMinor }).from(payments).where(eq(payments.reference, order.paymentReference));
        expect(p!.refunded).toBeLessThanOrEqual(p!.amount);
        expect(p!.refunded).toBe(Math.round((await ctx.services.returns.get(ret.id)).refunded * 100));
      });
    }
  });
}
