import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '@/lib/server/accounts/tables';
import { auditLog } from '@/lib/server/backoffice/tables';
import { variants } from '@/lib/server/catalogue/tables';
import { marketSettings } from '@/lib/server/markets/tables';
import { orderItems, orders } from '@/lib/server/orders/tables';
import { payments } from '@/lib/server/payments/tables';
import { createLogger } from '@/lib/server/infra/log';
import { createReconciliation } from '@/lib/server/payments/reconciliation';
import { DEFAULT_PAY_ON_DELIVERY_RULES } from '@/lib/domain/payment-methods';
import type { Services } from '@/lib/server/services';
import type { SessionUser } from '@/lib/server/accounts/sessions';
import { DRIVERS, servicesFor, answerSimulatedPage } from '../support/services';
import { setPhoneStanding } from '../support/phone';

/** See tests/service/checkout.test.ts: pg's sockets need a moment before the database is dropped. */
async function settledClose(database: { close(): Promise<void> }, close: () => Promise<void>) {
  const end = database.close.bind(database);
  let ended: Promise<void> | undefined;
  database.close = () => (ended ??= end().then(() => new Promise((r) => setTimeout(r, 300))));
  await close();
}

const OWNER = { id: null, email: 'owner@maisonluxe.ng' };

for (const driver of DRIVERS) {
  describe(`pay on delivery on ${driver}`, () => {
    let services: Services;
    let close: () => Promise<void>;
    let database: { close(): Promise<void> };
    let demo: SessionUser;
    let other: SessionUser;

    beforeAll(async () => {
      ({ services, close, database } = await servicesFor(driver));
      [demo] = (await services.db.select().from(users).where(eq(users.email, 'demo@maisonluxe.ng'))) as [SessionUser];
      [other] = (await services.db.select().from(users).where(eq(users.email, 'owner@maisonluxe.ng'))) as [SessionUser];
    });
    afterAll(async () => {
      if (close) await settledClose(database, close);
    });

    const stock = async (id: number) => (await services.db.select({ s: variants.stock }).from(variants).where(eq(variants.id, id)))[0]!.s;
    const payment = async (reference: string) => (await services.db.select().from(payments).where(eq(payments.reference, reference)))[0]!;

    /** A colour-only variant with at least `min` units (the n-th), alone in the shopper's cart; returns it and the cart's total (minor). */
    async function cartOf(user: SessionUser, skip: number, min = 2) {
      const rows = (await services.db.select().from(variants).orderBy(variants.id)).filter((r) => r.stock >= min && r.sizeId === null);
      const v = rows[skip]!;
      const product = await services.catalogue.getProduct(v.productId);
      const color = product.variants.find((x) => x.id === v.id)!.color ?? undefined;
      const cart = await services.cart.view(user);
      for (const i of cart.items) await services.cart.remove(user, { productId: i.productId, color: i.color ?? undefined, size: i.size ?? undefined });
      await services.cart.add(user, { productId: v.productId, color, size: undefined, quantity: 1 });
      const priced = await services.cart.price(user, 'NG');
      return { variantId: v.id, totalMinor: priced.totalMinor };
    }

    /** Rules where `totalMinor` is paid wholly at the door (cap at it), or with a deposit (cap below it). */
    // The shopper's open orders from earlier tests count with each new one (ADR 0025): these rules leave room for all of them.
    const wholeUpTo = (_totalMinor: number) => ({ enabled: true, capMinor: 100_000_000_000, ceilingMinor: 100_000_000_000, depositPercent: 30, maxOpenOrders: 100 });
    const depositFor = (_totalMinor: number) => ({ enabled: true, capMinor: 100, ceilingMinor: 100_000_000_000, depositPercent: 30, maxOpenOrders: 100 });

    it('reads the defaults until staff set a market\'s rules, which are validated and audited', async () => {
      expect(await services.onDelivery.rules('NG')).toEqual(DEFAULT_PAY_ON_DELIVERY_RULES.NG);
      await expect(services.onDelivery.setRules(OWNER, 'NG', { enabled: true, capMinor: 10, ceilingMinor: 5, depositPercent: 30 })).rejects.toMatchObject({ code: 'invalid' });
      const set = await services.onDelivery.setRules(OWNER, 'NG', { enabled: 'on', capMinor: '5000', ceilingMinor: '90000', depositPercent: '25' });
      expect(set).toEqual({ enabled: true, capMinor: 5000, ceilingMinor: 90000, depositPercent: 25, maxOpenOrders: 2 });
      expect(await services.onDelivery.rules('NG')).toEqual(set);
      expect(await services.onDelivery.rules('ZA')).toEqual(DEFAULT_PAY_ON_DELIVERY_RULES.ZA);
      const audit = await services.db.select().from(auditLog).where(eq(auditLog.action, 'market.pay-on-delivery'));
      expect(audit).toHaveLength(1);
      expect(audit[0]!.details).toMatchObject({ before: DEFAULT_PAY_ON_DELIVERY_RULES.NG, after: set });
      expect(await services.db.select().from(marketSettings)).toHaveLength(1);
    });

    it('refuses pay on delivery without a verified phone, above the ceiling, after 2 refusals, and when disabled', async () => {
      const { totalMinor } = await cartOf(demo, 0);
      await services.onDelivery.setRules(OWNER, 'NG', wholeUpTo(totalMinor));
      await setPhoneStanding(services.db, demo.email, { verified: false, refusedDeliveries: 0 });
      await expect(services.checkout.initiate(demo, { paymentMethod: 'on_delivery' })).rejects.toMatchObject({ code: 'conflict', message: 'Verify your phone to pay on delivery.' });
      await setPhoneStanding(services.db, demo.email, { verified: true, refusedDeliveries: 2 });
      await expect(services.checkout.initiate(demo, { paymentMethod: 'on_delivery' })).rejects.toMatchObject({
        message: expect.stringMatching(/^Pay on delivery is not available on this account after 2 refused deliveries/),
      });
      await setPhoneStanding(services.db, demo.email, { refusedDeliveries: 0 });
      await services.onDelivery.setRules(OWNER, 'NG', { enabled: true, capMinor: 100, ceilingMinor: totalMinor - 1, depositPercent: 30 });
      await expect(services.checkout.initiate(demo, { paymentMethod: 'on_delivery' })).rejects.toMatchObject({
        message: expect.stringMatching(/^Pay on delivery is not available for orders above ₦/),
      });
      await services.onDelivery.setRules(OWNER, 'NG', { ...wholeUpTo(totalMinor), enabled: false });
      await expect(services.checkout.initiate(demo, { paymentMethod: 'on_delivery' })).rejects.toMatchObject({ message: 'Pay on delivery is not available in Nigeria.' });
      // Nothing was started for any of these.
      expect(await services.db.select().from(payments).where(eq(payments.userId, demo.id))).toHaveLength(0);
    });

    it('places a whole pay-on-delivery order at once: a payment of 0, the stock taken, the order due at the door, the confirmation mailed', async () => {
      const { variantId, totalMinor } = await cartOf(demo, 1);
      await services.onDelivery.setRules(OWNER, 'NG', wholeUpTo(totalMinor));
      await setPhoneStanding(services.db, demo.email, { verified: true, refusedDeliveries: 0 });
      const before = await stock(variantId);
      const started = await services.checkout.initiate(demo, { paymentMethod: 'on_delivery', site: 'https://shop.example' });
      expect(started.amount).toBe(0);
      const back = new URL(started.authorization_url);
      expect(back.origin + back.pathname).toBe('https://shop.example/place-order');
      expect(back.searchParams.get('reference')).toBe(started.reference);
      expect(back.searchParams.get('trxref')).toBe(started.reference);
      expect(await payment(started.reference)).toMatchObject({ provider: 'on_delivery', amountMinor: 0, status: 'fulfilled' });
      expect(await stock(variantId)).toBe(before - 1);
      // The return page fulfils again: the same order.
      const { order, created } = await services.payments.fulfil(started.reference, { userId: demo.id });
      expect(created).toBe(false);
      expect(order).toMatchObject({ status: 'pending', paymentMethod: 'Pay on delivery', paymentMethodCode: 'on_delivery', payment: 'due', amountDue: totalMinor / 100, cancellable: true });
      expect(await stock(variantId)).toBe(before - 1);
      expect((await services.cart.view(demo)).items).toHaveLength(0);
      const mails = await services.outbox.list(demo.email);
      expect(mails.filter((m) => m.subject.includes(order.trackingNumber))).toHaveLength(1);
      expect(mails.find((m) => m.subject.includes(order.trackingNumber))!.text).toContain('Amount to pay on delivery: ₦');
      const listed = (await services.orders.listForUser(demo.id)).find((o) => o.id === order.id)!;
      expect(listed.amountDue).toBe(totalMinor / 100);
    });

    it('charges the deposit online above the cap, and the order records what is due at the door', async () => {
      const { variantId, totalMinor } = await cartOf(demo, 2);
      await services.onDelivery.setRules(OWNER, 'NG', depositFor(totalMinor));
      const deposit = Math.ceil((totalMinor * 30) / 100);
      const before = await stock(variantId);
      const started = await services.checkout.initiate(demo, { paymentMethod: 'on_delivery' });
      expect(started.amount * 100).toBe(deposit);
      expect(await payment(started.reference)).toMatchObject({ provider: 'simulated', amountMinor: deposit, status: 'initialized' });
      // Nothing is taken until the deposit is paid.
      expect(await stock(variantId)).toBe(before);
      await answerSimulatedPage(services, started.reference, 'pay');
      const { order } = await services.payments.fulfil(started.reference, { userId: demo.id });
      expect(order).toMatchObject({ paymentMethodCode: 'on_delivery', payment: 'due', amountDue: (totalMinor - deposit) / 100, total: totalMinor / 100 });
      expect(await stock(variantId)).toBe(before - 1);
      const [row] = await services.db.select().from(orders).where(eq(orders.id, order.id));
      expect(row).toMatchObject({ paymentMethod: 'on_delivery', dueOnDeliveryMinor: totalMinor - deposit });
    });

    it('an online order says so and has nothing due', async () => {
      await cartOf(demo, 3);
      const started = await services.checkout.initiate(demo, {});
      await answerSimulatedPage(services, started.reference, 'pay');
      const { order } = await services.payments.fulfil(started.reference);
      expect(order).toMatchObject({ paymentMethodCode: 'card', paymentMethod: 'Card', payment: 'paid', amountDue: 0 });
    });

    it('reconciliation places a whole pay-on-delivery order a crash left paid without an order', async () => {
      const { variantId, totalMinor } = await cartOf(demo, 4);
      await services.onDelivery.setRules(OWNER, 'NG', wholeUpTo(totalMinor));
      const priced = await services.cart.price(demo, 'NG');
      const before = await stock(variantId);
      // What initiate does up to the crash: the payment row, paid, and no order yet.
      const { reference } = await services.payments.startWithoutCharge('on_delivery', {
        userId: demo.id,
        email: demo.email,
        currency: 'NGN',
        snapshot: {
          cartId: priced.cartId,
          callbackUrl: 'http://localhost/place-order?paid=true',
          storeCreditMinor: 0,
          gift: null,
          giftWrapMinor: 0,
          locker: null,
          business: null,
          deliveryOption: priced.deliveryOption,
          deliverySpeed: null,
          shipTo: priced.pickupAddress,
          lines: priced.lines.map(({ stock: _s, active: _a, priced: _p, categoryId: _c, ...l }) => l),
          subtotalMinor: priced.subtotalMinor,
          discountMinor: 0,
          discountCode: null,
          promotionId: null,
          codeId: null,
          deliveryFeeMinor: priced.deliveryFeeMinor,
          totalMinor: priced.totalMinor,
          paymentMethod: 'on_delivery',
          dueOnDeliveryMinor: priced.totalMinor,
        },
      });
      expect(await services.payments.unsettled({ startedBefore: new Date(Date.now() + 60_000) })).toEqual(
        expect.arrayContaining([expect.objectContaining({ reference, status: 'paid' })]),
      );
      const reconciliation = createReconciliation({
        db: services.db,
        clock: () => new Date(Date.now() + 10 * 60_000),
        log: createLogger('silent'),
        payments: services.payments,
        orders: services.orders,
        useAdvisoryLock: driver === 'pg',
        afterMinutes: 5,
        abandonAfterHours: 24,
      });
      const report = await reconciliation.reconcile();
      expect(report).toMatchObject({ fulfilled: 1, errors: 0 });
      expect(await payment(reference)).toMatchObject({ status: 'fulfilled' });
      expect(await stock(variantId)).toBe(before - 1);
      expect(await reconciliation.reconcile()).toMatchObject({ fulfilled: 0 });
    });

    it('a pay-on-delivery order and an online payment racing for the last unit give one order', async () => {
      const { variantId, totalMinor } = await cartOf(demo, 5);
      await cartOf(other, 5);
      await services.onDelivery.setRules(OWNER, 'NG', wholeUpTo(totalMinor));
      await services.db.update(variants).set({ stock: 1 }).where(eq(variants.id, variantId));
      await setPhoneStanding(services.db, demo.email, { verified: true, refusedDeliveries: 0 });
      // The online shopper has paid on the provider's page; the other chooses pay on delivery at the same moment.
      const online = await services.checkout.initiate(other, {});
      await answerSimulatedPage(services, online.reference, 'pay');
      const podPayments = () => services.db.select().from(payments).where(and(eq(payments.userId, demo.id), eq(payments.provider, 'on_delivery')));
      const earlier = new Set((await podPayments()).map((p) => p.id));
      const [a, b] = await Promise.allSettled([services.checkout.initiate(demo, { paymentMethod: 'on_delivery' }), services.payments.fulfil(online.reference)]);
      const placed = await services.db.select().from(orders).where(eq(orders.paymentId, (await payment(online.reference)).id));
      const racing = (await podPayments()).filter((p) => !earlier.has(p.id));
      expect([a.status, b.status].filter((s) => s === 'fulfilled')).toHaveLength(1);
      expect(await stock(variantId)).toBe(0);
      // One order holds the last unit, whoever won.
      expect(await services.db.select().from(orderItems).where(eq(orderItems.variantId, variantId))).toHaveLength(1);
      if (a.status === 'fulfilled') {
        // Pay on delivery won: the online payment is queued for its refund.
        expect(placed).toHaveLength(0);
        expect(racing.map((p) => p.status)).toEqual(['fulfilled']);
        expect((await payment(online.reference)).status).toBe('needs_refund');
      } else {
        expect(placed).toHaveLength(1);
        expect((a.reason as Error).message).toMatch(/is out of stock/);
        // A pay-on-delivery payment started before the stock ran out failed, and charged nothing.
        for (const p of racing) expect(p).toMatchObject({ status: 'failed', amountMinor: 0 });
      }
    });

    it('the last unit taken by pay on delivery while an online shopper pays: the online payment is refunded, not a second order', async () => {
      const { variantId, totalMinor } = await cartOf(demo, 9);
      await cartOf(other, 9);
      await services.onDelivery.setRules(OWNER, 'NG', wholeUpTo(totalMinor));
      await setPhoneStanding(services.db, demo.email, { verified: true, refusedDeliveries: 0 });
      await services.db.update(variants).set({ stock: 1 }).where(eq(variants.id, variantId));
      const online = await services.checkout.initiate(other, {});
      const pod = await services.checkout.initiate(demo, { paymentMethod: 'on_delivery' });
      expect((await payment(pod.reference)).status).toBe('fulfilled');
      await answerSimulatedPage(services, online.reference, 'pay');
      await expect(services.payments.fulfil(online.reference)).rejects.toMatchObject({ code: 'payment_failed', message: expect.stringMatching(/sold out.*refunded/) });
      expect((await payment(online.reference)).status).toBe('needs_refund');
      expect(await stock(variantId)).toBe(0);
      expect(await services.db.select().from(orderItems).where(eq(orderItems.variantId, variantId))).toHaveLength(1);
    });

    it('the shopper cancels a pending order: stock back, a deposit refunded once even when cancel races itself, another\'s order is not found', async () => {
      const { variantId, totalMinor } = await cartOf(demo, 6);
      await services.onDelivery.setRules(OWNER, 'NG', depositFor(totalMinor));
      await services.db.update(variants).set({ stock: 5 }).where(eq(variants.id, variantId));
      const started = await services.checkout.initiate(demo, { paymentMethod: 'on_delivery' });
      await answerSimulatedPage(services, started.reference, 'pay');
      const { order } = await services.payments.fulfil(started.reference);
      expect(await stock(variantId)).toBe(4);
      await expect(services.orders.cancelByShopper(other.id, order.id)).rejects.toMatchObject({ code: 'not_found' });
      await expect(services.orders.cancelByShopper(demo.id, 'not-an-id')).rejects.toMatchObject({ code: 'not_found' });
      const results = await Promise.allSettled([services.orders.cancelByShopper(demo.id, order.id), services.orders.cancelByShopper(demo.id, order.id)]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'conflict', message: 'This order can no longer be cancelled.' } });
      expect(await stock(variantId)).toBe(5);
      const p = await payment(started.reference);
      expect(p).toMatchObject({ status: 'refunded', refundedMinor: p.amountMinor, refundPendingMinor: null });
      const after = await services.orders.getForUser(demo.id, order.id);
      expect(after).toMatchObject({ status: 'cancelled', cancellable: false, amountDue: 0 });
      expect((await services.outbox.list(demo.email))[0]!.subject).toBe(`Your order has been cancelled (${order.trackingNumber})`);
      await expect(services.orders.cancelByShopper(demo.id, order.id)).rejects.toMatchObject({ code: 'conflict' });
    });

    it('cancelling a whole pay-on-delivery order returns the stock and refunds nothing', async () => {
      const { variantId, totalMinor } = await cartOf(demo, 7);
      await services.onDelivery.setRules(OWNER, 'NG', wholeUpTo(totalMinor));
      const before = await stock(variantId);
      const started = await services.checkout.initiate(demo, { paymentMethod: 'on_delivery' });
      const { order } = await services.payments.fulfil(started.reference);
      expect(await stock(variantId)).toBe(before - 1);
      await services.orders.cancelByShopper(demo.id, order.id);
      expect(await stock(variantId)).toBe(before);
      expect(await payment(started.reference)).toMatchObject({ status: 'fulfilled', refundedMinor: 0 });
      // Staff moved the next one on meanwhile: too late to cancel.
      const next = await cartOf(demo, 8);
      await services.onDelivery.setRules(OWNER, 'NG', wholeUpTo(next.totalMinor));
      const second = await services.checkout.initiate(demo, { paymentMethod: 'on_delivery' });
      const { order: o2 } = await services.payments.fulfil(second.reference);
      await services.orders.setStatus(o2.id, 'processed');
      await expect(services.orders.cancelByShopper(demo.id, o2.id)).rejects.toMatchObject({ code: 'conflict' });
      expect((await services.orders.getForUser(demo.id, o2.id)).cancellable).toBe(false);
    });
  });
}
