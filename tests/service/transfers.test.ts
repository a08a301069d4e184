import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '@/lib/server/accounts/tables';
import { variants } from '@/lib/server/catalogue/tables';
import { orders } from '@/lib/server/orders/tables';
import { payments } from '@/lib/server/payments/tables';
import { createLogger } from '@/lib/server/infra/log';
import { createPaystackProvider } from '@/lib/server/payments/paystack';
import { createReconciliation } from '@/lib/server/payments/reconciliation';
import { paymentRecords } from '@/lib/server/payments/rows';
import { createSimulatedProvider, simulatedTransferConfirmations } from '@/lib/server/payments/simulated';
import { createServices, type Services } from '@/lib/server/services';
import type { SessionUser } from '@/lib/server/accounts/sessions';
import { startFakePaystack, type FakePaystack } from '../support/fake-paystack';
import { DRIVERS, servicesFor, testClock } from '../support/services';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const DELAY = 5 * SECOND;

/** Bank transfers: pending until the provider confirms them, then one order; expired ones settle without an order. */
for (const driver of DRIVERS) {
  describe(`bank transfers on ${driver}`, () => {
    const clock = testClock();
    let services: Services;
    let paystack: Services;
    let fake: FakePaystack;
    let close: () => Promise<void>;
    let demo: SessionUser;

    beforeAll(async () => {
      const opened = await servicesFor(driver, { clock });
      close = opened.close;
      const base = opened.services;
      const log = createLogger('silent');
      const provider = createSimulatedProvider({ records: paymentRecords(base.db), clock, transferDelayMs: DELAY });
      services = createServices({ config: base.config, db: base.db, clock, log, paymentProvider: provider });
      fake = await startFakePaystack();
      paystack = createServices({ config: base.config, db: base.db, clock, log, paymentProvider: createPaystackProvider({ secretKey: fake.secretKey, baseUrl: fake.baseUrl }) });
      [demo] = (await services.db.select().from(users).where(eq(users.email, 'demo@maisonluxe.ng'))) as [SessionUser];
    });
    afterAll(async () => {
      await fake?.close();
      await close?.();
    });

    const webhook = () =>
      simulatedTransferConfirmations({ db: services.db, clock, log: createLogger('silent'), payments: services.payments, transferDelayMs: DELAY, useAdvisoryLock: driver === 'pg' });
    const reconciliation = (s: Services) =>
      createReconciliation({ db: s.db, clock, log: createLogger('silent'), payments: s.payments, orders: s.orders, useAdvisoryLock: driver === 'pg', afterMinutes: 5, abandonAfterHours: 24 });
    const payment = async (reference: string) => (await services.db.select().from(payments).where(eq(payments.reference, reference)))[0]!;
    const ordersFor = async (reference: string) => services.db.select().from(orders).where(eq(orders.paymentId, (await payment(reference)).id));
    const stock = async (id: number) => (await services.db.select({ s: variants.stock }).from(variants).where(eq(variants.id, id)))[0]!.s;
    const confirmations = async () => (await services.outbox.list('demo@maisonluxe.ng')).filter((m) => m.subject.startsWith('Your Maison Luxe order')).length;

    /** A cart of one unit of the n-th colour-only variant, and a payment started for it with `s`'s provider. */
    async function checkout(s: Services, skip: number) {
      const rows = (await s.db.select().from(variants).orderBy(variants.id)).filter((r) => r.stock >= 2 && r.sizeId === null);
      const v = rows[skip]!;
      const product = await s.catalogue.getProduct(v.productId);
      const color = product.variants.find((x) => x.id === v.id)!.color ?? undefined;
      for (const i of (await s.cart.view(demo)).items) await s.cart.remove(demo, { productId: i.productId, color: i.color ?? undefined, size: i.size ?? undefined });
      await s.cart.add(demo, { productId: v.productId, color, size: undefined, quantity: 1 });
      const { reference } = await s.checkout.initiate(demo, {});
      return { reference, variantId: v.id };
    }

    it('offers the market\'s channels, and records the one paid through on the payment and the order', async () => {
      const { reference } = await checkout(services, 0);
      expect((await services.payments.simulatedPayment(reference)).channels).toEqual(['card', 'bank_transfer', 'ussd', 'bank']);
      // EFT is South Africa's, not offered for a naira payment; a transfer is not paid by "Pay".
      await expect(services.payments.answerSimulated(reference, 'pay', 'eft')).rejects.toMatchObject({ code: 'invalid' });
      await expect(services.payments.answerSimulated(reference, 'pay', 'bank_transfer')).rejects.toMatchObject({ code: 'invalid' });
      await services.payments.answerSimulated(reference, 'pay', 'ussd');
      const { order, created } = await services.payments.fulfil(reference);
      expect(created).toBe(true);
      expect((await payment(reference)).channel).toBe('ussd');
      expect((await ordersFor(reference))[0]!.paymentMethod).toBe('ussd');
      expect(order.id).toBe((await ordersFor(reference))[0]!.id);
    });

    it('keeps a transfer pending (no order, no stock, no mail) until the simulated provider confirms it, then places one order', async () => {
      const { reference, variantId } = await checkout(services, 1);
      const before = await stock(variantId);
      const mailed = await confirmations();
      const back = await services.payments.answerSimulated(reference, 'sent');
      expect(back).toContain(`reference=${reference}`);
      expect(await payment(reference)).toMatchObject({ status: 'pending', channel: 'bank_transfer' });
      // The shopper's return: waiting, not an error that is final.
      const err = await services.payments.fulfil(reference, { userId: demo.id }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'payment_failed', details: { paymentStatus: 'pending' } });
      expect(await services.payments.waiting(reference, demo.id)).toMatchObject({ currency: 'NGN', channel: 'bank_transfer' });
      expect((await services.payments.waitingFor(demo.id)).map((w) => w.reference)).toEqual([reference]);
      expect(await webhook().confirmDue()).toBe(0);
      expect(await ordersFor(reference)).toHaveLength(0);
      expect(await stock(variantId)).toBe(before);

      clock.advance(DELAY);
      // Two servers' confirmations at once: one order, one mail.
      const confirmed = await Promise.all([webhook().confirmDue(), webhook().confirmDue()]);
      expect(confirmed[0]! + confirmed[1]!).toBe(1);
      const [order] = await ordersFor(reference);
      expect(order).toMatchObject({ paymentMethod: 'bank_transfer' });
      expect(await payment(reference)).toMatchObject({ status: 'fulfilled', channel: 'bank_transfer' });
      expect(await stock(variantId)).toBe(before - 1);
      expect(await confirmations()).toBe(mailed + 1);
      expect(await services.payments.waiting(reference, demo.id)).toBeNull();
      expect(await services.payments.waitingFor(demo.id)).toEqual([]);
      expect(await webhook().confirmDue()).toBe(0);
      expect((await services.payments.fulfil(reference, { userId: demo.id })).order.id).toBe(order!.id);
    });

    it('refunds a pending transfer confirmed after the last unit sold, like any sold-out payment', async () => {
      const { reference: transfer, variantId } = await checkout(services, 2);
      await services.payments.answerSimulated(transfer, 'sent');
      // Another payment for the same last unit is paid by card meanwhile and becomes the order.
      await services.db.update(variants).set({ stock: 1 }).where(eq(variants.id, variantId));
      const { reference: card } = await services.checkout.initiate(demo, {});
      await services.payments.answerSimulated(card, 'pay');
      expect((await services.payments.fulfil(card)).created).toBe(true);
      expect(await stock(variantId)).toBe(0);

      clock.advance(DELAY);
      expect(await webhook().confirmDue()).toBe(0);
      expect(await ordersFor(transfer)).toHaveLength(0);
      expect((await payment(transfer)).status).toBe('needs_refund');
      await expect(services.payments.fulfil(transfer)).rejects.toMatchObject({ code: 'payment_failed', message: expect.stringMatching(/refunded/) });
      clock.advance(10 * MINUTE);
      const report = await reconciliation(services).reconcile();
      expect(report.refunded).toBeGreaterThanOrEqual(1);
      expect(await payment(transfer)).toMatchObject({ status: 'refunded' });
      expect(await stock(variantId)).toBe(0);
    });

    it('Paystack: a transfer pending then confirmed by the webhook, and one whose window expired, through reconciliation', async () => {
      const late = await checkout(paystack, 3);
      expect(fake.transactions.get(late.reference)!.channels).toEqual(['card', 'bank_transfer', 'ussd', 'bank']);
      fake.sendTransfer(late.reference);
      await expect(paystack.payments.fulfil(late.reference, { userId: demo.id })).rejects.toMatchObject({ details: { paymentStatus: 'pending' } });
      expect(await payment(late.reference)).toMatchObject({ status: 'pending', channel: 'bank_transfer' });

      const expired = await checkout(paystack, 4);
      fake.sendTransfer(expired.reference);
      await expect(paystack.payments.fulfil(expired.reference)).rejects.toMatchObject({ details: { paymentStatus: 'pending' } });

      clock.advance(10 * MINUTE);
      // Still pending at the provider: reconciliation waits.
      const waiting = await reconciliation(paystack).reconcile();
      expect(waiting).toMatchObject({ fulfilled: 0, abandoned: 0 });
      expect(waiting.waiting).toBeGreaterThanOrEqual(2);

      await fake.confirmTransfer(late.reference);
      fake.expireTransfer(expired.reference);
      const report = await reconciliation(paystack).reconcile();
      expect(report).toMatchObject({ fulfilled: 1, abandoned: 1, errors: 0 });
      expect((await ordersFor(late.reference))[0]).toMatchObject({ paymentMethod: 'bank_transfer' });
      expect(await payment(expired.reference)).toMatchObject({ status: 'abandoned' });
      expect(await ordersFor(expired.reference)).toHaveLength(0);
    });
  });
}
