import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, PaymentFailed } from '@/lib/domain/errors';
import { returnRequestSchema } from '@/lib/domain/after-sales-input';
import { parseConfig } from '@/lib/server/infra/config';
import type { Database } from '@/lib/server/infra/db/client';
import { owedRefunds } from '@/lib/server/orders/tables';
import { payments } from '@/lib/server/payments/tables';
import { seedIfEmpty } from '@/lib/server/demo/seed';
import { createLogger } from '@/lib/server/infra/log';
import { checkMoney } from '@/lib/server/orders/money-check';
import { createOwedRefunds, REFUND_LEASE_MS, refundBackoffMs } from '@/lib/server/orders/owed-refunds';
import { paymentRecords } from '@/lib/server/payments/rows';
import { createSimulatedProvider } from '@/lib/server/payments/simulated';
import type { PaymentProvider } from '@/lib/server/payments/port';
import { createServices, type Services } from '@/lib/server/services';
import { placePodOrder, podShopper, podVariant, type PodOrder } from '../support/pod-orders';
import { DRIVERS, testClock, freshMigratedDatabase } from '../support/services';

const staff = { id: null, email: 'refunds@maisonluxe.ng' };

/**
 * The simulated provider, with a switch: it refuses, or cannot be reached, while told to; every
 * refund it makes is counted by its key (a key refunded twice would be paid twice).
 */
function flakyProvider(db: Database['db']) {
  const inner = createSimulatedProvider({ records: paymentRecords(db) });
  const state = { mode: 'ok' as 'ok' | 'refuse' | 'unreachable', made: [] as { key: string | undefined; amountMinor: number }[] };
  const provider: PaymentProvider = {
    ...inner,
    async refund(reference, amountMinor, currency, key) {
      if (state.mode === 'refuse') throw new PaymentFailed('The payment provider refused the refund: Insufficient balance');
      const refund = await inner.refund(reference, amountMinor, currency, key);
      // Made, and the answer lost on the way back.
      state.made.push({ key, amountMinor: refund.amountMinor });
      if (state.mode === 'unreachable') throw new AppError('unavailable', 'The payment provider could not be reached');
      return refund;
    },
  };
  return { provider, state };
}

for (const driver of DRIVERS) {
  describe(`refunds owed on ${driver}`, () => {
    let services: Services;
    let database: Database;
    let drop: (() => Promise<void>) | undefined;
    let flaky: ReturnType<typeof flakyProvider>;
    const clock = testClock(new Date());

    beforeAll(async () => {
      const migrated = await freshMigratedDatabase(driver);
      const fresh = migrated.fresh;
      drop = fresh?.drop;
      const config = parseConfig({ LOG_LEVEL: 'silent', ...(fresh ? { DATABASE_URL: fresh.url } : {}) });
      database = migrated.database;
      flaky = flakyProvider(database.db);
      services = createServices({ config, db: database.db, clock, log: createLogger('silent'), paymentProvider: flaky.provider });
      await seedIfEmpty(services);
    });
    afterAll(async () => {
      await database?.close();
      await drop?.();
    });

    let skip = 0;
    async function cardOrder(opts: { depositPercent?: number; deliveryFeeMinor?: number } = {}): Promise<PodOrder> {
      const shopper = await podShopper(services);
      const v = await podVariant(services, 'NG', 3, skip++);
      return placePodOrder(services, { userId: shopper.id, email: shopper.email, variantId: v.id, depositPercent: opts.depositPercent ?? 100, deliveryFeeMinor: opts.deliveryFeeMinor, pickup: opts.deliveryFeeMinor === undefined });
    }
    const paymentOf = async (order: PodOrder) => (await services.db.select().from(payments).where(eq(payments.reference, order.paymentReference)))[0]!;
    const owedOf = (order: PodOrder) => services.owedRefunds.forOrder(order.id);
    const made = (key: string) => flaky.state.made.filter((m) => m.key === key).length;

    it("a shopper's cancel that the provider refuses stays owed, and is paid by a later attempt after its backoff", async () => {
      const order = await cardOrder();
      flaky.state.mode = 'refuse';
      await services.orders.cancelByShopper(order.userId, order.id);
      const [owed] = await owedOf(order);
      expect(owed).toMatchObject({ status: 'owed', amountMinor: order.totalMinor, destination: 'payment', attempts: 1 });
      expect(owed!.lastAnswer).toMatch(/Insufficient balance/);
      expect((await paymentOf(order)).status).toBe('fulfilled');
      // Owed and not paid: in the order's account already, and the money check adds up.
      const owedNow = await checkMoney(services.db);
      expect(owedNow.problems).toEqual([]);
      expect(owedNow.counts.refundsUnpaid).toBeGreaterThanOrEqual(1);
      flaky.state.mode = 'ok';
      // Not due yet: the backoff holds it.
      await services.owedRefunds.runDue();
      expect((await owedOf(order))[0]!.status).toBe('owed');
      clock.advance(refundBackoffMs(1) + 1);
      await services.owedRefunds.runDue();
      expect((await owedOf(order))[0]).toMatchObject({ status: 'paid', attempts: 2 });
      expect(await paymentOf(order)).toMatchObject({ status: 'refunded', refundedMinor: order.totalMinor, refundPendingMinor: null });
      expect(made(owed!.id)).toBe(1);
      expect((await checkMoney(services.db)).problems).toEqual([]);
    });

    it('a staff cancel of a card-paid order refunds the payment by default', async () => {
      const order = await cardOrder();
      await services.orders.setStatus(order.id, 'cancelled', undefined);
      expect((await owedOf(order))[0]).toMatchObject({ status: 'paid', destination: 'payment', amountMinor: order.totalMinor });
      expect(await paymentOf(order)).toMatchObject({ status: 'refunded', refundedMinor: order.totalMinor });
    });

    it('a staff cancel to store credit credits what was paid and leaves the payment alone', async () => {
      const order = await cardOrder();
      await services.orders.setStatus(order.id, 'cancelled', undefined, { refundTo: 'store_credit' });
      expect((await owedOf(order))[0]).toMatchObject({ status: 'paid', destination: 'store_credit', amountMinor: order.totalMinor });
      expect(await services.storeCredit.balance(order.userId, 'NGN')).toBe(order.totalMinor);
      expect((await paymentOf(order)).refundedMinor).toBe(0);
      expect((await checkMoney(services.db)).problems).toEqual([]);
    });

    it('refused at the door after a partial refund smaller than the fee: deposit less the fee back in all', async () => {
      const fee = 500_000;
      const order = await cardOrder({ depositPercent: 50, deliveryFeeMinor: fee });
      await services.orderRefunds.refund(order.id, 100_000, staff);
      await services.orders.setStatus(order.id, 'processed');
      await services.collection.record(staff, order.id, { outcome: 'refused' });
      expect((await paymentOf(order)).refundedMinor).toBe(order.depositMinor - fee);
    });

    it('two workers racing for the same row pay it once', async () => {
      const order = await cardOrder();
      flaky.state.mode = 'refuse';
      await services.orders.cancelByShopper(order.userId, order.id);
      flaky.state.mode = 'ok';
      clock.advance(refundBackoffMs(1) + 1);
      const [owed] = await owedOf(order);
      const a = createOwedRefunds({ db: services.db, clock, log: createLogger('silent'), payments: services.payments });
      const b = createOwedRefunds({ db: services.db, clock, log: createLogger('silent'), payments: services.payments });
      await Promise.all([a.runDue(), b.runDue(), a.runDue(), b.runDue()]);
      expect((await owedOf(order))[0]!.status).toBe('paid');
      expect(made(owed!.id)).toBe(1);
      expect((await paymentOf(order)).refundedMinor).toBe(order.totalMinor);
    });

    it('a worker that dies after its claim: the row is paid once after the lease runs out', async () => {
      const order = await cardOrder();
      flaky.state.mode = 'refuse';
      await services.orders.cancelByShopper(order.userId, order.id);
      flaky.state.mode = 'ok';
      clock.advance(refundBackoffMs(1) + 1);
      const [owed] = await owedOf(order);
      // Claimed, then the process is gone: nobody else takes it while the lease holds.
      expect((await services.owedRefunds.claim())?.id).toBe(owed!.id);
      expect(await services.owedRefunds.runDue()).toBe(0);
      clock.advance(REFUND_LEASE_MS + 1);
      expect(await services.owedRefunds.runDue()).toBe(1);
      expect(made(owed!.id)).toBe(1);
      expect(await paymentOf(order)).toMatchObject({ status: 'refunded', refundedMinor: order.totalMinor });
    });

    it('a worker that dies while the provider answers: taken again after the lease, the same key finishes it, paid once', async () => {
      const order = await cardOrder();
      flaky.state.mode = 'unreachable';
      await services.orders.cancelByShopper(order.userId, order.id);
      const [owed] = await owedOf(order);
      expect(owed!.status).toBe('owed');
      // The provider made it and the answer was lost: the payment keeps the keyed claim.
      expect(await paymentOf(order)).toMatchObject({ refundPendingMinor: order.totalMinor, refundPendingKey: owed!.id, refundedMinor: 0 });
      expect((await checkMoney(services.db)).problems).toEqual([]);
      flaky.state.mode = 'ok';
      clock.advance(Math.max(REFUND_LEASE_MS, refundBackoffMs(1)) + 1);
      await services.owedRefunds.runDue();
      expect((await owedOf(order))[0]!.status).toBe('paid');
      // Asked twice with one key: the provider's one refund (the simulated provider's only state is the store's record).
      expect(await paymentOf(order)).toMatchObject({ status: 'refunded', refundedMinor: order.totalMinor, refundPendingMinor: null });
      expect((await services.db.select().from(owedRefunds).where(eq(owedRefunds.id, owed!.id)))[0]!.lastAnswer).toBe(`Refunded (SIM-RF-${owed!.id})`);
      expect((await checkMoney(services.db)).problems).toEqual([]);
    });

    it("a return's refund is owed in the refund's transaction: refused by the provider, the return is refunded and the worker pays it once later", async () => {
      const order = await cardOrder();
      await services.orders.setStatus(order.id, 'processed');
      await services.orders.setStatus(order.id, 'delivered');
      const line = (await services.orders.load(order.id))!.items[0]!.id;
      const ret = await services.returns.request(order.userId, order.id, returnRequestSchema.parse({ items: [{ orderItemId: line, quantity: 1 }], reason: 'changed_mind', resolution: 'refund', method: 'drop_off' }));
      await services.returns.act(staff, ret.id, { action: 'approve' });
      await services.returns.act(staff, ret.id, { action: 'receive' });
      flaky.state.mode = 'refuse';
      const refunded = await services.returns.act(staff, ret.id, { action: 'refund' });
      expect(refunded).toMatchObject({ status: 'refunded', credited: 0 });
      expect(Math.round(refunded.refunded * 100)).toBe(order.totalMinor);
      const [owed] = await owedOf(order);
      expect(owed).toMatchObject({ status: 'owed', destination: 'payment', returnId: ret.id, amountMinor: order.totalMinor, attempts: 1 });
      expect((await paymentOf(order)).refundedMinor).toBe(0);
      expect((await checkMoney(services.db)).problems).toEqual([]);
      // A second refund of the return finds it refunded; nothing more is owed.
      await expect(services.returns.act(staff, ret.id, { action: 'refund' })).rejects.toThrow('This step does not apply to this return now.');
      flaky.state.mode = 'ok';
      clock.advance(refundBackoffMs(1) + 1);
      await services.owedRefunds.runDue();
      await services.owedRefunds.runDue();
      expect(await owedOf(order)).toMatchObject([{ status: 'paid', attempts: 2 }]);
      expect(made(owed!.id)).toBe(1);
      expect(await paymentOf(order)).toMatchObject({ status: 'refunded', refundedMinor: order.totalMinor, refundPendingMinor: null });
      expect((await checkMoney(services.db)).problems).toEqual([]);
    });

    it("the shopper's data download holds the refunds owed on their orders, paid or not", async () => {
      const order = await cardOrder();
      flaky.state.mode = 'refuse';
      await services.orders.cancelByShopper(order.userId, order.id);
      flaky.state.mode = 'ok';
      const [owed] = await owedOf(order);
      const data = await services.dataExport.of(order.userId);
      const mine = data.orders.find((o) => o.id === order.id)!;
      expect(mine.refundsOwed).toEqual([
        expect.objectContaining({ id: owed!.id, paymentReference: order.paymentReference, amountMinor: order.totalMinor, destination: 'payment', status: 'owed', attempts: 1 }),
      ]);
      expect(mine.refundsOwed[0]!.lastAnswer).toMatch(/Insufficient balance/);
      // Another shopper's refunds owed are not in it.
      const others = (await services.owedRefunds.list()).filter((r) => r.orderId !== order.id).map((r) => r.id);
      expect(JSON.stringify(data)).not.toMatch(new RegExp(others.join('|') || '^$'));
    });

    it('a refused refund is failed after its attempts, shown to staff, and paid once staff retry it', async () => {
      const order = await cardOrder();
      flaky.state.mode = 'refuse';
      await services.orders.cancelByShopper(order.userId, order.id);
      for (let i = 0; i < 8; i++) {
        clock.advance(refundBackoffMs(8));
        await services.owedRefunds.runDue();
      }
      const [owed] = await owedOf(order);
      expect(owed!.status).toBe('failed');
      expect((await services.owedRefunds.list({ status: 'failed' })).map((r) => r.id)).toContain(owed!.id);
      flaky.state.mode = 'ok';
      await services.owedRefunds.retry(owed!.id);
      await services.owedRefunds.runDue();
      expect((await owedOf(order))[0]!.status).toBe('paid');
      expect((await paymentOf(order)).refundedMinor).toBe(order.totalMinor);
    });
  });
}
