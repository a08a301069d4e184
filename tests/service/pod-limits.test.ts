import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '@/lib/server/accounts/tables';
import { auditLog } from '@/lib/server/backoffice/tables';
import { variants } from '@/lib/server/catalogue/tables';
import { orders } from '@/lib/server/orders/tables';
import { payments } from '@/lib/server/payments/tables';
import type { Services } from '@/lib/server/services';
import type { SessionUser } from '@/lib/server/accounts/sessions';
import { DRIVERS, answerSimulatedPage, servicesFor } from '../support/services';
import { setPhoneStanding } from '../support/phone';
import { placePodOrder, podVariant } from '../support/pod-orders';

/**
 * Pay on delivery counted per shopper and per phone: the open-orders limit and the ceiling over a
 * shopper's open pay-on-delivery orders together (also when two starts race), a cancelled order
 * freeing its place, and a verified number held by one account, its refusals following it.
 */
async function settledClose(database: { close(): Promise<void> }, close: () => Promise<void>) {
  const end = database.close.bind(database);
  let ended: Promise<void> | undefined;
  database.close = () => (ended ??= end().then(() => new Promise((r) => setTimeout(r, 300))));
  await close();
}

const OWNER = { id: null, email: 'owner@maisonluxe.ng' };

for (const driver of DRIVERS) {
  describe(`pay on delivery per shopper and per phone on ${driver}`, () => {
    let services: Services;
    let close: () => Promise<void>;
    let database: { close(): Promise<void> };

    beforeAll(async () => {
      ({ services, close, database } = await servicesFor(driver));
    }, 180_000);
    afterAll(async () => {
      if (close) await settledClose(database, close);
    });

    /** A shopper with a verified phone of their own (set straight in the database). */
    async function shopper(phone = `+23480${String(randomBytes(4).readUInt32BE() % 1e8).padStart(8, '0')}`): Promise<SessionUser> {
      const email = `limits-${randomBytes(5).toString('hex')}@example.com`;
      const [u] = await services.db
        .insert(users)
        .values({ firstName: 'Ada', lastName: 'Limit', email, passwordHash: 'x', phoneNumber: phone, country: 'nigeria', verifiedAt: new Date() })
        .returning();
      await setPhoneStanding(services.db, email, { verified: true });
      return (await services.db.select().from(users).where(eq(users.id, u!.id)))[0] as SessionUser;
    }

    /** The n-th colour-only variant with stock, alone in the shopper's cart; the cart's total (minor). */
    async function cartOf(user: SessionUser, skip: number): Promise<number> {
      const rows = (await services.db.select().from(variants).orderBy(variants.id)).filter((r) => r.stock >= 5 && r.sizeId === null);
      const v = rows[skip % rows.length]!;
      const product = await services.catalogue.getProduct(v.productId);
      const color = product.variants.find((x) => x.id === v.id)!.color ?? undefined;
      await services.cart.add(user, { productId: v.productId, color, size: undefined, quantity: 1 });
      return (await services.cart.price(user, 'NG')).totalMinor;
    }

    /** One item, one checkout on delivery: the outcome, or the refusal's text. */
    async function orderOne(user: SessionUser, skip: number): Promise<{ amount: number } | { refused: string }> {
      await cartOf(user, skip);
      try {
        return { amount: (await services.checkout.initiate(user, { paymentMethod: 'on_delivery' })).amount };
      } catch (err) {
        const cart = await services.cart.view(user);
        for (const i of cart.items) await services.cart.remove(user, { productId: i.productId, color: i.color ?? undefined, size: i.size ?? undefined });
        return { refused: (err as Error).message };
      }
    }

    const openOrders = async (userId: string) =>
      services.db.select().from(orders).where(and(eq(orders.userId, userId), eq(orders.paymentMethod, 'on_delivery'), eq(orders.status, 'pending')));

    it('20 items as 20 separate orders: only as many as the market allows are open at once, whole at the door', async () => {
      await services.onDelivery.setRules(OWNER, 'NG', { enabled: true, capMinor: 900_000_000, ceilingMinor: 900_000_000, depositPercent: 30 });
      expect((await services.onDelivery.rules('NG')).maxOpenOrders).toBe(2);
      const me = await shopper();
      const outcomes = [];
      for (let i = 0; i < 20; i++) outcomes.push(await orderOne(me, i));
      expect(outcomes.filter((o) => 'amount' in o)).toEqual([{ amount: 0 }, { amount: 0 }]);
      const refusals = new Set(outcomes.flatMap((o) => ('refused' in o ? [o.refused] : [])));
      expect([...refusals]).toEqual([
        'You have 2 orders to pay on delivery that are not yet delivered. Pay online now, or pay on delivery again once one of them is delivered or cancelled.',
      ]);
      expect(await openOrders(me.id)).toHaveLength(2);
      // Staff allow more: the setting is the market's.
      await services.onDelivery.setRules(OWNER, 'NG', { enabled: true, capMinor: 900_000_000, ceilingMinor: 900_000_000, depositPercent: 30, maxOpenOrders: 3 });
      expect(await orderOne(me, 20)).toEqual({ amount: 0 });
      expect(await orderOne(me, 21)).toMatchObject({ refused: expect.stringMatching(/^You have 3 orders to pay on delivery/) });
    }, 120_000);

    it('the cap and the ceiling apply to the open orders together: a deposit once past the cap, none past the ceiling', async () => {
      const me = await shopper();
      const price = await cartOf(me, 0);
      for (const i of (await services.cart.view(me)).items) await services.cart.remove(me, { productId: i.productId, color: i.color ?? undefined, size: i.size ?? undefined });
      // Each order alone is within the cap; two together are not; three together pass the ceiling.
      await services.onDelivery.setRules(OWNER, 'NG', { enabled: true, capMinor: price * 1.5, ceilingMinor: price * 2.5, depositPercent: 30, maxOpenOrders: 10 });
      expect(await orderOne(me, 0)).toEqual({ amount: 0 });
      const second = await orderOne(me, 0);
      expect(second).toEqual({ amount: Math.ceil((price * 30) / 100) / 100 });
      expect(await orderOne(me, 0)).toMatchObject({ refused: expect.stringMatching(/^Pay on delivery is available for up to ₦[\d,.]+ in orders not yet delivered/) });
    }, 120_000);

    it('a cancelled order frees its place', async () => {
      await services.onDelivery.setRules(OWNER, 'NG', { enabled: true, capMinor: 900_000_000, ceilingMinor: 900_000_000, depositPercent: 30, maxOpenOrders: 2 });
      const me = await shopper();
      expect(await orderOne(me, 3)).toEqual({ amount: 0 });
      expect(await orderOne(me, 4)).toEqual({ amount: 0 });
      expect(await orderOne(me, 5)).toHaveProperty('refused');
      const [first] = await openOrders(me.id);
      await services.orders.cancelByShopper(me.id, first!.id);
      expect(await orderOne(me, 5)).toEqual({ amount: 0 });
      expect(await openOrders(me.id)).toHaveLength(2);
    }, 120_000);

    it('two starts of one shopper at once (two carts) cannot both pass the open-orders limit: the shopper row is taken first', async () => {
      await services.onDelivery.setRules(OWNER, 'NG', { enabled: true, capMinor: 900_000_000, ceilingMinor: 900_000_000, depositPercent: 30, maxOpenOrders: 2 });
      for (let round = 0; round < 5; round++) {
        const me = await shopper();
        expect(await orderOne(me, 6)).toEqual({ amount: 0 });
        const totalMinor = 100_000;
        // What a checkout start does in its transaction, for two carts of one shopper: the shopper's lock, the terms, the payment row.
        const start = () =>
          services.db.transaction(async (tx) => {
            await services.onDelivery.lockShopper(tx, me.id);
            const cartId = randomUUID();
            await services.onDelivery.confirmTerms(tx, { userId: me.id, market: 'NG', totalMinor, cartId, dueMinor: totalMinor });
            await tx.insert(payments).values({
              reference: `RACE-${randomBytes(6).toString('hex')}`,
              userId: me.id,
              cartId,
              provider: 'on_delivery',
              amountMinor: 0,
              currency: 'NGN',
              email: me.email,
              snapshot: { paymentMethod: 'on_delivery', totalMinor, storeCreditMinor: 0 },
              status: 'paid',
            });
          });
        const results = await Promise.allSettled([start(), start()]);
        expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
        const refused = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')!;
        expect((refused.reason as Error).message).toMatch(/^You have 2 orders to pay on delivery/);
      }
    }, 120_000);

    it('a paid deposit that would pass the limit when placed is refunded, not a third open order', async () => {
      await services.onDelivery.setRules(OWNER, 'NG', { enabled: true, capMinor: 100, ceilingMinor: 900_000_000, depositPercent: 30, maxOpenOrders: 2 });
      const me = await shopper();
      const variant = await podVariant(services, 'NG', 5, 7);
      await placePodOrder(services, { userId: me.id, email: me.email, variantId: variant.id });
      // Two deposit pages started one after the other from one cart (the second replaced the first), both paid.
      await cartOf(me, 8);
      const a = await services.checkout.initiate(me, { paymentMethod: 'on_delivery' });
      await services.cart.add(me, { productId: variant.productId, color: variant.color ?? undefined, size: variant.size ?? undefined, quantity: 1 });
      const b = await services.checkout.initiate(me, { paymentMethod: 'on_delivery' });
      expect(a.reference).not.toBe(b.reference);
      expect(a.amount).toBeGreaterThan(0);
      for (const p of [a, b]) await answerSimulatedPage(services, p.reference, 'pay');
      await services.payments.fulfil(a.reference, { userId: me.id });
      await expect(services.payments.fulfil(b.reference, { userId: me.id })).rejects.toMatchObject({ code: expect.any(String) });
      expect(await openOrders(me.id)).toHaveLength(2);
      const states = (await services.db.select({ status: payments.status }).from(payments).where(eq(payments.userId, me.id))).map((p) => p.status);
      expect(states.filter((s) => s === 'needs_refund' || s === 'refunded' || s === 'partially_refunded')).toHaveLength(1);
    }, 120_000);

    it('a number verified on one account cannot be verified on another until staff release it; its refusals follow it', async () => {
      await services.onDelivery.setRules(OWNER, 'NG', { enabled: true, capMinor: 900_000_000, ceilingMinor: 900_000_000, depositPercent: 30, maxOpenOrders: 2 });
      const phone = '+2348059990001';
      const codeFor = async (to: string) => /your code is (\d{4})\./.exec((await services.textOutbox.list(to))[0]!.text)![1]!;
      const first = await shopper(phone);
      await setPhoneStanding(services.db, first.email, { verified: false });
      await services.phoneVerification.sendCode(first, null);
      await services.phoneVerification.verify(first, await codeFor(phone), null);
      // Two deliveries refused at the door: the account is blocked.
      const variant = await podVariant(services, 'NG', 5, 9);
      for (let i = 0; i < 2; i++) {
        const o = await placePodOrder(services, { userId: first.id, email: first.email, variantId: variant.id });
        await services.collection.record(OWNER, o.id, { outcome: 'refused' });
      }
      expect(await orderOne(first, 10)).toMatchObject({ refused: expect.stringMatching(/after 2 refused deliveries/) });

      // A second account with the same number: no code is sent, and a code cannot verify it.
      const second = await shopper(phone);
      await setPhoneStanding(services.db, second.email, { verified: false });
      const elsewhere = 'This number is already verified on another account. Please contact us to use it on this account.';
      await expect(services.phoneVerification.sendCode(second, null)).rejects.toMatchObject({ code: 'conflict', message: elsewhere });
      expect(await services.phoneVerification.isPhoneVerified(second.id)).toBe(false);
      expect(await orderOne(second, 10)).toEqual({ refused: 'Verify your phone to pay on delivery.' });

      // Staff release it from the first account (audited): the second may verify it, but the refusals came with it.
      expect(await services.phoneVerification.heldBy(first.id)).toMatchObject([{ phone, refusedDeliveries: 2 }]);
      await services.phoneVerification.release(OWNER, first.id, phone);
      expect(await services.phoneVerification.isPhoneVerified(first.id)).toBe(false);
      const [audit] = await services.db.select().from(auditLog).where(and(eq(auditLog.action, 'customer.release-phone'), eq(auditLog.entityId, first.id)));
      expect(audit!.details).toMatchObject({ phone, refusedDeliveries: 2 });
      await services.phoneVerification.sendCode(second, null);
      const texts = await services.textOutbox.list(phone);
      await services.phoneVerification.verify(second, /your code is (\d{4})\./.exec(texts[0]!.text)![1]!, null);
      expect(await services.phoneVerification.isPhoneVerified(second.id)).toBe(true);
      expect(await orderOne(second, 10)).toMatchObject({ refused: expect.stringMatching(/after 2 refused deliveries/) });
      expect(await services.collection.refusals(second.id)).toBe(2);
      // Staff lift the block on the second account: the number counts from 0 again.
      await services.collection.liftRefusals(OWNER, second.id, 2);
      expect(await orderOne(second, 10)).toEqual({ amount: 0 });
      // A number the account does not hold cannot be released.
      await expect(services.phoneVerification.release(OWNER, first.id, phone)).rejects.toMatchObject({ code: 'not_found' });
    }, 120_000);
  });
}
