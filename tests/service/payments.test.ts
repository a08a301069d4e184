import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '@/lib/server/accounts/tables';
import { variants } from '@/lib/server/catalogue/tables';
import { mailOutbox } from '@/lib/server/infra/tables';
import { orders } from '@/lib/server/orders/tables';
import { payments } from '@/lib/server/payments/tables';
import { createLogger } from '@/lib/server/infra/log';
import type { PaymentProvider, Refund, VerificationStatus } from '@/lib/server/payments/port';
import { paymentRecords } from '@/lib/server/payments/rows';
import { createSimulatedProvider } from '@/lib/server/payments/simulated';
import { createReconciliation, RECONCILIATION_LOCK_KEY, scheduleReconciliation } from '@/lib/server/payments/reconciliation';
import { createServices, type Services } from '@/lib/server/services';
import type { SessionUser } from '@/lib/server/accounts/sessions';
import { DRIVERS, servicesFor, testClock, answerSimulatedPage } from '../support/services';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * A provider double: the simulated provider, except where a test says what the provider
 * reports for a reference; every refund asked for is counted.
 */
function providerDouble(base: PaymentProvider) {
  const says = new Map<string, VerificationStatus>();
  const refundCalls: { reference: string; amountMinor: number | undefined }[] = [];
  let refundDelayMs = 0;
  const provider: PaymentProvider = {
    name: 'simulated',
    initialize: (input) => base.initialize(input),
    async verify(reference) {
      const v = await base.verify(reference);
      const status = says.get(reference);
      return status ? { ...v, status } : v;
    },
    async refund(reference, amountMinor): Promise<Refund> {
      refundCalls.push({ reference, amountMinor });
      if (refundDelayMs) await new Promise((r) => setTimeout(r, refundDelayMs));
      return base.refund(reference, amountMinor);
    },
  };
  return {
    provider,
    says,
    refundCalls,
    slowRefunds: (ms: number) => void (refundDelayMs = ms),
  };
}

/** See tests/service/checkout.test.ts: let pg's sockets close before the database is dropped. */
async function settledClose(database: { close(): Promise<void> }, close: () => Promise<void>) {
  const end = database.close.bind(database);
  let ended: Promise<void> | undefined;
  database.close = () => (ended ??= end().then(() => new Promise((r) => setTimeout(r, 300))));
  await close();
}

for (const driver of DRIVERS) {
  describe(`payments never lost on ${driver}`, () => {
    const clock = testClock();
    let services: Services;
    let close: () => Promise<void>;
    let database: { close(): Promise<void> };
    let demo: SessionUser;
    let double: ReturnType<typeof providerDouble>;

    beforeAll(async () => {
      const opened = await servicesFor(driver, { clock });
      ({ close, database } = opened);
      // The same database and clock, with the provider double in place of the simulated provider.
      const base = opened.services;
      double = providerDouble(createSimulatedProvider({ records: paymentRecords(base.db) }));
      services = createServices({ config: base.config, db: base.db, clock, log: createLogger('silent'), paymentProvider: double.provider });
      [demo] = (await services.db.select().from(users).where(eq(users.email, 'demo@maisonluxe.ng'))) as [SessionUser];
    });
    afterAll(async () => {
      if (close) await settledClose(database, close);
    });

    const reconciliation = (afterMinutes = 5) =>
      createReconciliation({
        db: services.db,
        clock,
        log: createLogger('silent'),
        payments: services.payments,
        orders: services.orders,
        useAdvisoryLock: driver === 'pg',
        afterMinutes,
        abandonAfterHours: 24,
      });
    const stock = async (id: number) => (await services.db.select({ s: variants.stock }).from(variants).where(eq(variants.id, id)))[0]!.s;
    const payment = async (reference: string) => (await services.db.select().from(payments).where(eq(payments.reference, reference)))[0]!;
    const ordersFor = async (reference: string) => {
      const p = await payment(reference);
      return services.db.select().from(orders).where(eq(orders.paymentId, p.id));
    };

    /** Starts a checkout of one unit of the n-th colour-only variant; `outcome` is what the shopper did on the payment page. */
    async function checkout(skip: number, outcome?: 'pay' | 'decline') {
      const rows = (await services.db.select().from(variants).orderBy(variants.id)).filter((r) => r.stock >= 2 && r.sizeId === null);
      const v = rows[skip]!;
      const product = await services.catalogue.getProduct(v.productId);
      const color = product.variants.find((x) => x.id === v.id)!.color ?? undefined;
      for (const i of (await services.cart.view(demo)).items) {
        await services.cart.remove(demo, { productId: i.productId, color: i.color ?? undefined, size: i.size ?? undefined });
      }
      await services.cart.add(demo, { productId: v.productId, color, size: undefined, quantity: 1 });
      const { reference } = await services.checkout.initiate(demo, {});
      if (outcome) await answerSimulatedPage(services, reference, outcome);
      return { reference, variantId: v.id };
    }

    it('refunds a payment in full through the provider once, however often it is asked', async () => {
      const { reference } = await checkout(0, 'pay');
      await services.payments.fulfil(reference);
      const paid = await payment(reference);
      const calls = double.refundCalls.length;
      // The provider takes long enough that all five asks arrive while the first is in progress,
      // even on a loaded 2-core machine (at 50 ms a late one found the refund already done).
      double.slowRefunds(500);
      const results = await Promise.allSettled(Array.from({ length: 5 }, () => services.payments.refund(reference)));
      double.slowRefunds(0);
      // One refund reached the provider; the others were refused while it was in progress.
      expect(double.refundCalls.length - calls).toBe(1);
      expect(double.refundCalls.at(-1)).toEqual({ reference, amountMinor: undefined });
      const done = results.filter((r) => r.status === 'fulfilled');
      expect(done).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'conflict' });

      const row = await payment(reference);
      expect(row).toMatchObject({ status: 'refunded', refundedMinor: paid.amountMinor, refundPendingMinor: null, refundedAt: clock() });
      expect(row.refundId).toMatch(/^SIM-RF-/);
      // Asked again: answered from the record, the provider is not asked.
      const again = await services.payments.refund(reference);
      expect(again).toMatchObject({ status: 'refunded', refundedMinor: paid.amountMinor, refundedNowMinor: 0, refundId: row.refundId });
      expect(double.refundCalls.length - calls).toBe(1);
      // The order placed for it is still the one order (the webhook or return answers it).
      expect((await services.payments.fulfil(reference)).created).toBe(false);
      expect(await ordersFor(reference)).toHaveLength(1);
    });

    it('refunds partially, never more than was paid', async () => {
      const { reference } = await checkout(1, 'pay');
      await services.payments.fulfil(reference);
      const { amountMinor } = await payment(reference);
      const first = await services.payments.refund(reference, 1_000);
      expect(first).toMatchObject({ status: 'partially_refunded', refundedMinor: 1_000, refundedNowMinor: 1_000 });
      expect(double.refundCalls.at(-1)).toEqual({ reference, amountMinor: 1_000 });
      await expect(services.payments.refund(reference, amountMinor)).rejects.toMatchObject({ code: 'invalid' });
      await expect(services.payments.refund(reference, 0)).rejects.toMatchObject({ code: 'invalid' });
      const rest = await services.payments.refund(reference);
      expect(rest).toMatchObject({ status: 'refunded', refundedMinor: amountMinor, refundedNowMinor: amountMinor - 1_000 });
      expect(double.refundCalls.at(-1)).toEqual({ reference, amountMinor: amountMinor - 1_000 });
      expect(await payment(reference)).toMatchObject({ status: 'refunded', refundedMinor: amountMinor });
    });

    it('refuses to refund a payment that was never paid, or an unknown one', async () => {
      const { reference } = await checkout(2);
      await expect(services.payments.refund(reference)).rejects.toMatchObject({ code: 'conflict' });
      await expect(services.payments.refund('ML-NOPE')).rejects.toMatchObject({ code: 'not_found' });
      expect((await payment(reference)).refundPendingMinor).toBeNull();
      // (given up, so the reconciliation tests below start from settled payments)
      expect(await services.payments.abandon(reference)).toBe(true);
      await expect(services.payments.refund(reference)).rejects.toMatchObject({ code: 'conflict' });
    });

    it('reconciles: a confirmed payment no one fulfilled becomes one order; declined ones fail; unpaid ones wait, then are abandoned', async () => {
      clock.advance(HOUR);
      const confirmed = await checkout(3, 'pay'); // paid, then the shopper never came back
      const before = await stock(confirmed.variantId);
      const webhookOnly = await checkout(4); // the provider confirms it; the webhook was lost
      double.says.set(webhookOnly.reference, 'success');
      const declined = await checkout(5);
      double.says.set(declined.reference, 'failed');
      const unpaid = await checkout(6);

      // Too young: nothing is looked at yet.
      clock.advance(MINUTE);
      const early = await reconciliation().reconcile();
      expect(early).toMatchObject({ ran: true, fulfilled: 0, failed: 0, abandoned: 0, waiting: 0 });
      expect(await ordersFor(confirmed.reference)).toHaveLength(0);

      clock.advance(5 * MINUTE);
      const report = await reconciliation().reconcile();
      expect(report).toMatchObject({ ran: true, fulfilled: 2, failed: 1, abandoned: 0, waiting: 1, errors: 0 });
      expect(await ordersFor(confirmed.reference)).toHaveLength(1);
      expect(await ordersFor(webhookOnly.reference)).toHaveLength(1);
      expect(await stock(confirmed.variantId)).toBe(before - 1);
      expect((await payment(confirmed.reference)).status).toBe('fulfilled');
      expect((await payment(declined.reference)).status).toBe('failed');
      expect((await payment(unpaid.reference)).status).toBe('initialized');
      const confirmations = (await services.outbox.list('demo@maisonluxe.ng')).filter((m) => m.subject.startsWith('Your Maison Luxe order'));

      // Again: nothing more happens (exactly once), the shopper's return gets the same order.
      const second = await reconciliation().reconcile();
      expect(second).toMatchObject({ fulfilled: 0, failed: 0, waiting: 1 });
      const [order] = await ordersFor(confirmed.reference);
      expect((await services.payments.fulfil(confirmed.reference, { userId: demo.id })).order.id).toBe(order!.id);
      expect(await stock(confirmed.variantId)).toBe(before - 1);
      expect((await services.outbox.list('demo@maisonluxe.ng')).filter((m) => m.subject.startsWith('Your Maison Luxe order'))).toHaveLength(
        confirmations.length,
      );

      // A day later the unpaid one is given up; a late payment would still be fulfilled by fulfil.
      clock.advance(25 * HOUR);
      expect(await reconciliation().reconcile()).toMatchObject({ abandoned: 1, waiting: 0 });
      expect((await payment(unpaid.reference)).status).toBe('abandoned');
      expect(await reconciliation().reconcile()).toMatchObject({ abandoned: 0, waiting: 0 });
    });

    it('reconciles: a payment that sold out after paying is refunded through the provider', async () => {
      clock.advance(HOUR);
      const { reference, variantId } = await checkout(7, 'pay');
      const [v] = await services.db.select().from(variants).where(eq(variants.id, variantId));
      await services.db.update(variants).set({ stock: 0 }).where(eq(variants.id, variantId));
      try {
        clock.advance(6 * MINUTE);
        const calls = double.refundCalls.length;
        const report = await reconciliation().reconcile();
        expect(report).toMatchObject({ fulfilled: 0, refunded: 1, errors: 0 });
        expect(double.refundCalls.length - calls).toBe(1);
        const row = await payment(reference);
        expect(row).toMatchObject({ status: 'refunded', refundedMinor: row.amountMinor });
        expect(await ordersFor(reference)).toHaveLength(0);
        // Refunded: it never becomes an order, even when stock is back and the webhook comes late.
        await services.db.update(variants).set({ stock: v!.stock }).where(eq(variants.id, variantId));
        await expect(services.payments.fulfil(reference)).rejects.toMatchObject({ code: 'payment_failed' });
        expect(await ordersFor(reference)).toHaveLength(0);
        expect(await reconciliation().reconcile()).toMatchObject({ refunded: 0 });
        expect(double.refundCalls.length - calls).toBe(1);
      } finally {
        await services.db.update(variants).set({ stock: v!.stock }).where(eq(variants.id, variantId));
      }
    });

    it('runs at start and then on a timer, one run at a time', async () => {
      clock.advance(HOUR);
      const { reference } = await checkout(8, 'pay');
      clock.advance(6 * MINUTE);
      const schedule = scheduleReconciliation(reconciliation(), { log: createLogger('silent'), everyMinutes: 60 });
      await schedule.running();
      schedule.stop();
      expect(await ordersFor(reference)).toHaveLength(1);
    });

    if (driver === 'pg') {
      it('skips a run while another app server holds the advisory lock', async () => {
        clock.advance(HOUR);
        const { reference } = await checkout(9, 'pay');
        clock.advance(6 * MINUTE);
        const other = new pg.Client({ connectionString: services.config.DATABASE_URL });
        await other.connect();
        try {
          await other.query('select pg_advisory_lock($1)', [RECONCILIATION_LOCK_KEY]);
          expect(await reconciliation().reconcile()).toMatchObject({ ran: false, fulfilled: 0 });
          expect(await ordersFor(reference)).toHaveLength(0);
          await other.query('select pg_advisory_unlock($1)', [RECONCILIATION_LOCK_KEY]);
          expect(await reconciliation().reconcile()).toMatchObject({ ran: true, fulfilled: 1 });
        } finally {
          await other.end();
        }
      });
    }
    it('mails an order confirmation that a crash lost, once', async () => {
      const { reference } = await checkout(9, 'pay');
      const { order } = await services.payments.fulfil(reference);
      const subject = `Your Maison Luxe order ${order.trackingNumber}`;
      const mails = async () => (await services.db.select().from(mailOutbox).where(eq(mailOutbox.subject, subject))).length;
      expect(await mails()).toBe(1);
      expect((await ordersFor(reference))[0]!.confirmationMailedAt).not.toBeNull();
      // As if the server had died between placing the order and mailing it.
      await services.db.delete(mailOutbox).where(eq(mailOutbox.subject, subject));
      await services.db.update(orders).set({ confirmationMailedAt: null }).where(eq(orders.id, order.id));
      expect(await reconciliation().reconcile()).toMatchObject({ mailed: 0 });
      clock.advance(6 * MINUTE);
      expect(await reconciliation().reconcile()).toMatchObject({ mailed: 1, errors: 0 });
      expect(await mails()).toBe(1);
      expect(await reconciliation().reconcile()).toMatchObject({ mailed: 0 });
      expect(await mails()).toBe(1);
    });
  });
}
