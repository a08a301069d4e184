import { randomInt } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giftReturnRequestSchema } from '@/lib/domain/gift-returns';
import { users } from '@/lib/server/accounts/tables';
import { orders, owedRefunds } from '@/lib/server/orders/tables';
import { payments } from '@/lib/server/payments/tables';
import { placePodOrder, podShopper, podVariant, type PodOrder } from '../support/pod-orders';
import { DRIVERS, servicesFor } from '../support/services';

const staff = { id: null, email: 'returns@maisonluxe.ng' };

/** A gift's return by its recipient (ADR 0045): the link, the texted code, the account, the credit; on both databases. */
for (const driver of DRIVERS) {
  describe(`gift returns on ${driver}`, () => {
    let ctx: Awaited<ReturnType<typeof servicesFor>>;
    beforeAll(async () => {
      ctx = await servicesFor(driver);
    });
    afterAll(async () => ctx?.close());

    const newPhone = () => `+23480${randomInt(10_000_000, 99_999_999)}`;

    /** A gift order of `quantity` units, paid online in full, delivered on `deliveredOn` (today by default). */
    async function deliveredGift(quantity: number, skip: number, deliveredOn?: string): Promise<PodOrder & { phone: string; line: number }> {
      const buyer = await podShopper(ctx.services);
      const { id: variantId } = await podVariant(ctx.services, 'NG', quantity + 2, skip);
      const order = await placePodOrder(ctx.services, { userId: buyer.id, email: buyer.email, variantId, quantity, depositPercent: 100 });
      const phone = newPhone();
      // The gift's columns as checkout writes them (orders.createPaid), set here on the test's order.
      await ctx.services.db.update(orders).set({ giftRecipientName: 'Ada Obi', giftRecipientPhone: phone, giftMessage: 'With love', giftHidePrices: true }).where(eq(orders.id, order.id));
      if (deliveredOn) await ctx.services.db.execute(sql`update orders set created_at = now() - interval '10 days' where id = ${order.id}`);
      await ctx.services.orders.setStatus(order.id, 'processed');
      await ctx.services.orders.setStatus(order.id, 'delivered', undefined, deliveredOn ? { deliveredOn } : {});
      const line = (await ctx.services.orders.load(order.id))!.items[0]!.id;
      return { ...order, phone, line };
    }

    const tokenOf = (orderId: string) => new URL(ctx.services.giftReturns.linkFor(orderId)).pathname.split('/').pop()!;
    const lastCode = async (phone: string) => /code is (\d{4})/.exec((await ctx.services.textOutbox.list(phone, 1))[0]!.text)![1]!;
    const ask = (body: Record<string, unknown>) => giftReturnRequestSchema.parse(body);

    /** The recipient proves the phone and gets an account: the proof and the account's id. */
    async function provenRecipient(order: { id: string; phone: string }) {
      const token = tokenOf(order.id);
      await ctx.services.giftReturns.sendCode(token, null);
      const { proof } = await ctx.services.giftReturns.verifyCode(token, await lastCode(order.phone), null);
      const email = `ada-${randomInt(1e9)}@example.com`;
      await ctx.services.giftReturns.createAccount(token, proof, { firstName: 'Ada', lastName: 'Obi', email, password: 'GiftReturn2026!' }, null);
      await confirmEmail(email);
      const holder = (await ctx.services.phoneVerification.holderOf(order.phone))!;
      return { token, proof, userId: holder.id, email };
    }

    /** The code sign-up mailed to `email`, entered. */
    async function confirmEmail(email: string) {
      const mail = (await ctx.services.outbox.list(email, 1))[0]!;
      await ctx.services.accounts.verifyEmail(email, /code is (\d{4})/.exec(mail.text)![1]!, null);
    }

    it('the link, the code, the account: a return credited to the recipient, never to the buyer', async () => {
      const order = await deliveredGift(2, 0);
      const token = tokenOf(order.id);
      const view = await ctx.services.giftReturns.view(token, undefined);
      expect(view).toMatchObject({ proven: false, account: null, maskedPhone: `+234 ••• ••• ${order.phone.slice(-4)}` });
      expect(JSON.stringify(view)).not.toContain(order.phone);
      // Nothing goes before the phone is proven.
      await expect(ctx.services.giftReturns.request(token, undefined, ask({ items: [{ orderItemId: order.line, quantity: 1 }], reason: 'too_big', method: 'drop_off' }))).rejects.toThrow(
        'Please confirm your number with the code we text you first.',
      );
      const { proof, userId, email } = await provenRecipient(order);
      expect(await ctx.services.phoneVerification.isPhoneVerified(userId)).toBe(true);
      expect((await ctx.services.giftReturns.view(token, proof)).account).toEqual({ email: `a•••@example.com`, confirmed: true });
      expect(email).toMatch(/^a/);
      const ret = await ctx.services.giftReturns.request(token, proof, ask({ items: [{ orderItemId: order.line, quantity: 2 }], reason: 'changed_mind', method: 'drop_off' }));
      expect(ret).toMatchObject({ status: 'requested', resolution: 'credit' });
      // The buyer's order page does not list it.
      expect(await ctx.services.returns.forOrder(order.id)).toEqual([]);
      expect((await ctx.services.returns.adminDetail(ret.id)).creditTo).toMatchObject({ id: userId });

      await ctx.services.returns.act(staff, ret.id, { action: 'approve' });
      await ctx.services.returns.act(staff, ret.id, { action: 'receive' });
      // "Refund" of a gift's return: all of it as the recipient's store credit, nothing to the buyer's payment.
      const refunded = await ctx.services.returns.act(staff, ret.id, { action: 'refund' });
      expect(refunded.refunded).toBe(0);
      expect(refunded.credited).toBeGreaterThan(0);
      expect(await ctx.services.storeCredit.balance(userId, 'NGN')).toBe(Math.round(refunded.credited * 100));
      expect(await ctx.services.storeCredit.balance(order.userId, 'NGN')).toBe(0);
      const [p] = await ctx.services.db.select({ refunded: payments.refundedMinor }).from(payments).where(eq(payments.reference, order.paymentReference));
      expect(p!.refunded).toBe(0);
      expect(await ctx.services.db.select().from(owedRefunds).where(eq(owedRefunds.orderId, order.id))).toEqual([]);
      expect(await ctx.services.storeCredit.mismatches()).toEqual([]);
    });

    it('the return is the recipient\'s in their data export and their account\'s deletion check, not the buyer\'s', async () => {
      const order = await deliveredGift(1, 2);
      const { token, proof, userId } = await provenRecipient(order);
      const ret = await ctx.services.giftReturns.request(token, proof, ask({ items: [{ orderItemId: order.line, quantity: 1 }], reason: 'too_big', method: 'drop_off' }));
      const references = (data: { returns: { reference: string }[] }) => data.returns.map((r) => r.reference);
      expect(references(await ctx.services.dataExport.of(userId))).toEqual([ret.reference]);
      expect(references(await ctx.services.dataExport.of(order.userId))).toEqual([]);
      expect((await ctx.services.erasure.check(userId)).blockers).toContainEqual({ kind: 'return', reference: ret.reference });
      expect((await ctx.services.erasure.check(order.userId)).blockers).not.toContainEqual({ kind: 'return', reference: ret.reference });
    });

    it('"Credit" goes to the recipient; a second request beyond the units left is refused; the account is found again by the number', async () => {
      const order = await deliveredGift(1, 1);
      const { token, proof, userId } = await provenRecipient(order);
      const ret = await ctx.services.giftReturns.request(token, proof, ask({ items: [{ orderItemId: order.line, quantity: 1 }], reason: 'too_small', method: 'collection' }));
      await expect(ctx.services.giftReturns.request(token, proof, ask({ items: [{ orderItemId: order.line, quantity: 1 }], reason: 'too_small', method: 'drop_off' }))).rejects.toThrow('This item is already being returned.');
      // Neither may the buyer return the same unit.
      await expect(ctx.services.returns.request(order.userId, order.id, giftReturnRequestSchema.parse({ items: [{ orderItemId: order.line, quantity: 1 }], reason: 'too_small', method: 'drop_off' }))).rejects.toThrow('This item is already being returned.');
      await ctx.services.returns.act(staff, ret.id, { action: 'approve' });
      await ctx.services.returns.act(staff, ret.id, { action: 'receive' });
      const credited = await ctx.services.returns.act(staff, ret.id, { action: 'credit' });
      expect(await ctx.services.storeCredit.balance(userId, 'NGN')).toBe(Math.round(credited.credited * 100));
      expect(await ctx.services.storeCredit.balance(order.userId, 'NGN')).toBe(0);
      // A creating a second account for a number that has one is refused.
      await expect(ctx.services.giftReturns.createAccount(token, proof, { firstName: 'Ada', lastName: 'Obi', email: 'other-ada@example.com', password: 'GiftReturn2026!' }, null)).rejects.toThrow(
        'This number already has an account: the store credit goes there.',
      );
    });

    it("an account made here holds no credit until its e-mail is confirmed, and a sign-up with that e-mail never takes it over", async () => {
      const order = await deliveredGift(1, 6);
      const token = tokenOf(order.id);
      await ctx.services.giftReturns.sendCode(token, null);
      const { proof } = await ctx.services.giftReturns.verifyCode(token, await lastCode(order.phone), null);
      // The recipient types an address that is someone else's.
      const typed = `someone-else-${randomInt(1e9)}@example.com`;
      await ctx.services.giftReturns.createAccount(token, proof, { firstName: 'Ada', lastName: 'Obi', email: typed, password: 'GiftReturn2026!' }, null);
      expect(await ctx.services.phoneVerification.holderOf(order.phone)).toBeNull();
      expect((await ctx.services.giftReturns.view(token, proof)).account).toEqual({ email: 's•••@example.com', confirmed: false });
      const body = ask({ items: [{ orderItemId: order.line, quantity: 1 }], reason: 'too_big', method: 'drop_off' });
      await expect(ctx.services.giftReturns.request(token, proof, body)).rejects.toThrow('Please confirm your e-mail with the code we sent you first: the store credit goes to that account.');

      // "Eve" signs up with that address and her own phone: refused, the waiting account keeps its name and number.
      const eve = { firstName: 'Eve', lastName: 'Mallory', email: typed, password: 'EveSignsUp2026!', phoneNumber: newPhone(), country: 'nigeria' as const };
      await expect(ctx.services.accounts.register(eve, null)).rejects.toThrow('An account with this email already exists');
      const [kept] = await ctx.services.db.select().from(users).where(eq(users.email, typed));
      expect(kept).toMatchObject({ firstName: 'Ada', phoneNumber: order.phone, phoneVerifiedNumber: order.phone, verifiedAt: null });

      // The recipient puts the address right: the proven number moves to the new account, the old one holds nothing.
      const right = `ada-${randomInt(1e9)}@example.com`;
      await ctx.services.giftReturns.createAccount(token, proof, { firstName: 'Ada', lastName: 'Obi', email: right, password: 'GiftReturn2026!' }, null);
      const [left] = await ctx.services.db.select().from(users).where(eq(users.email, typed));
      expect(left!.phoneVerifiedNumber).toBeNull();
      expect(await ctx.services.phoneVerification.holderOf(order.phone)).toBeNull();
      await confirmEmail(right);
      const holder = await ctx.services.phoneVerification.holderOf(order.phone);
      expect(holder).toMatchObject({ email: right });
      expect((await ctx.services.giftReturns.request(token, proof, body)).resolution).toBe('credit');
    });

    it("deleting an account that typed a gift recipient's number leaves the texts the recipient received on it", async () => {
      const order = await deliveredGift(1, 7);
      const received = await ctx.services.textOutbox.list(order.phone, 50);
      expect(received.length).toBeGreaterThan(0);
      const other = await podShopper(ctx.services);
      await ctx.services.db.update(users).set({ phoneNumber: order.phone }).where(eq(users.id, other.id));
      await ctx.services.erasure.erase(other.id, { giveUpCredit: true });
      expect((await ctx.services.textOutbox.list(order.phone, 50)).length).toBe(received.length);
      // Nor does that account's data copy list them.
      expect((await ctx.services.dataExport.of(other.id)).textsSent).toEqual([]);
    });

    it('a tampered, foreign or non-gift link is not found; a proof for another order proves nothing', async () => {
      const gift = await deliveredGift(1, 2);
      const token = tokenOf(gift.id);
      await expect(ctx.services.giftReturns.view(`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, undefined)).rejects.toMatchObject({ code: 'not_found' });
      await expect(ctx.services.giftReturns.view('nonsense', undefined)).rejects.toMatchObject({ code: 'not_found' });
      const buyer = await podShopper(ctx.services);
      const plain = await placePodOrder(ctx.services, { userId: buyer.id, email: buyer.email, variantId: gift.variantId, depositPercent: 100 });
      await expect(ctx.services.giftReturns.view(tokenOf(plain.id), undefined)).rejects.toMatchObject({ code: 'not_found' });
      const { proof } = await provenRecipient(gift);
      const other = await deliveredGift(1, 3);
      expect((await ctx.services.giftReturns.view(tokenOf(other.id), proof)).proven).toBe(false);
    });

    it('after the 3-day window, no code is sent and no request is taken', async () => {
      const fiveDaysAgo = new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10);
      const order = await deliveredGift(1, 4, fiveDaysAgo);
      const token = tokenOf(order.id);
      expect((await ctx.services.giftReturns.view(token, undefined)).options.open).toBe(false);
      await expect(ctx.services.giftReturns.sendCode(token, null)).rejects.toThrow(/^The 3-day return window for this order closed on /);
      const recipient = await podShopper(ctx.services);
      await expect(ctx.services.returns.requestForGift(order.id, recipient.id, ask({ items: [{ orderItemId: order.line, quantity: 1 }], reason: 'too_big', method: 'drop_off' }))).rejects.toThrow(
        /^The 3-day return window for this order closed on /,
      );
    });

    if (driver === 'pg') {
      it('two requests at once for the last unit: one is taken', async () => {
        const order = await deliveredGift(1, 5);
        const { token, proof } = await provenRecipient(order);
        const body = ask({ items: [{ orderItemId: order.line, quantity: 1 }], reason: 'too_big', method: 'drop_off' });
        const results = await Promise.allSettled([ctx.services.giftReturns.request(token, proof, body), ctx.services.giftReturns.request(token, proof, body)]);
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      });
    }
  });
}
