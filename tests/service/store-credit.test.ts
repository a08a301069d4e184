import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '@/lib/server/accounts/tables';
import { storeCreditEntries } from '@/lib/server/aftersales/tables';
import { variants } from '@/lib/server/catalogue/tables';
import type { SessionUser } from '@/lib/server/accounts/sessions';
import { DRIVERS, answerSimulatedPage, servicesFor } from '../support/services';

const staff = { id: null, email: 'credit@maisonluxe.ng' };

/** Store credit, a ledger per shopper per currency, granted by staff and spent at checkout exactly once. */
for (const driver of DRIVERS) {
  describe(`store credit on ${driver}`, () => {
    let ctx: Awaited<ReturnType<typeof servicesFor>>;
    beforeAll(async () => {
      ctx = await servicesFor(driver);
    });
    afterAll(async () => ctx?.close());

    let n = 0;
    /** A new shopper (Nigeria) with one colour-only item in their cart, and that item's price. */
    async function shopperWithCart(skip = 0): Promise<{ user: SessionUser; totalMinor: number }> {
      const [u] = await ctx.services.db
        .insert(users)
        .values({ firstName: 'Ngozi', lastName: 'Credit', email: `credit-${driver}-${n++}-${Date.now()}@example.com`, passwordHash: 'x', phoneNumber: '+2348031234567', country: 'nigeria', verifiedAt: new Date() })
        .returning();
      const user = u as unknown as SessionUser;
      const rows = await ctx.services.db.select().from(variants).orderBy(variants.id);
      const v = rows.filter((r) => r.stock >= 5 && r.sizeId === null).slice(skip)[0]!;
      const product = await ctx.services.catalogue.getProduct(v.productId);
      const color = product.variants.find((x) => x.id === v.id)!.color ?? undefined;
      await ctx.services.cart.add(user, { productId: v.productId, color, size: undefined, quantity: 1 });
      await ctx.services.cart.setDeliveryOption(user, (await ctx.services.cart.view(user)).id, 'collect');
      const priced = await ctx.services.cart.price(user, 'NG');
      return { user, totalMinor: priced.totalMinor };
    }

    it('staff grant and remove credit with a reason; it never goes below zero and the rows add up', async () => {
      const { user } = await shopperWithCart(0);
      expect((await ctx.services.storeCredit.grant(staff, user.id, { amountMinor: 5_000_000, currency: 'NGN', reason: 'Goodwill' })).balanceMinor).toBe(5_000_000);
      expect((await ctx.services.storeCredit.grant(staff, user.id, { amountMinor: -1_000_000, currency: 'NGN', reason: 'Mistake' })).balanceMinor).toBe(4_000_000);
      await expect(ctx.services.storeCredit.grant(staff, user.id, { amountMinor: -9_000_000, currency: 'NGN', reason: 'Too much' })).rejects.toThrow('The credit cannot go below zero.');
      await expect(ctx.services.storeCredit.grant(staff, user.id, { amountMinor: 100, currency: 'NGN', reason: ' ' })).rejects.toThrow('Please give a reason.');
      // Currencies never mix.
      expect(await ctx.services.storeCredit.summary(user.id, 'ZAR')).toMatchObject({ storeCredit: 0, storeCredits: [{ currency: 'NGN', amount: 40_000 }] });
      expect(await ctx.services.storeCredit.mismatches()).toEqual([]);
      const [mail] = await ctx.services.outbox.list(user.email, 1);
      expect(mail?.subject).toContain('Your store credit');
    });

    it('credit that covers the order pays for it: no payment page, the order placed at once, the credit spent', async () => {
      const { user, totalMinor } = await shopperWithCart(1);
      await ctx.services.storeCredit.grant(staff, user.id, { amountMinor: totalMinor + 100_000, currency: 'NGN', reason: 'Return credited' });
      const started = await ctx.services.checkout.initiate(user, { useStoreCredit: true, market: 'NG' });
      expect(started.amount).toBe(0);
      const [order] = await ctx.services.orders.listForUser(user.id);
      expect(order).toMatchObject({ storeCredit: totalMinor / 100, paymentMethodCode: 'store_credit', total: totalMinor / 100 });
      expect(await ctx.services.storeCredit.balance(user.id, 'NGN')).toBe(100_000);
      // Cancelling it gives the credit back, once.
      await ctx.services.orders.cancelByShopper(user.id, order!.id);
      expect(await ctx.services.storeCredit.balance(user.id, 'NGN')).toBe(totalMinor + 100_000);
      expect(await ctx.services.storeCredit.mismatches()).toEqual([]);
    });

    it('credit that covers part: the payment charges the rest, and a declined payment gives the credit back', async () => {
      const { user, totalMinor } = await shopperWithCart(2);
      await ctx.services.storeCredit.grant(staff, user.id, { amountMinor: 1_000_000, currency: 'NGN', reason: 'Goodwill' });
      const declined = await ctx.services.checkout.initiate(user, { useStoreCredit: true, market: 'NG' });
      expect(declined.amount * 100).toBe(totalMinor - 1_000_000);
      expect(await ctx.services.storeCredit.balance(user.id, 'NGN')).toBe(0);
      await answerSimulatedPage(ctx.services, declined.reference, 'decline');
      expect(await ctx.services.storeCredit.balance(user.id, 'NGN')).toBe(1_000_000);

      const paid = await ctx.services.checkout.initiate(user, { useStoreCredit: true, market: 'NG' });
      await answerSimulatedPage(ctx.services, paid.reference, 'pay');
      const { order } = await ctx.services.payments.fulfil(paid.reference, { userId: user.id });
      expect(order.storeCredit * 100).toBe(1_000_000);
      expect(await ctx.services.storeCredit.balance(user.id, 'NGN')).toBe(0);
      const kinds = (await ctx.services.db.select({ kind: storeCreditEntries.kind }).from(storeCreditEntries).where(eq(storeCreditEntries.userId, user.id))).map((r) => r.kind);
      expect(kinds.sort()).toEqual(['grant', 'release', 'spend', 'spend']);
      expect(await ctx.services.storeCredit.mismatches()).toEqual([]);
    });

    it('a checkout in South Africa cannot use naira credit', async () => {
      const { user } = await shopperWithCart(3);
      await ctx.services.storeCredit.grant(staff, user.id, { amountMinor: 50_000_000, currency: 'NGN', reason: 'Goodwill' });
      const za = await ctx.services.cart.price(user, 'ZA');
      expect(za.lines.every((l) => l.priced)).toBe(true);
      const started = await ctx.services.checkout.initiate(user, { useStoreCredit: true, market: 'ZA' });
      expect(started).toMatchObject({ currency: 'ZAR', amount: za.totalMinor / 100 });
      expect(await ctx.services.storeCredit.balance(user.id, 'NGN')).toBe(50_000_000);
    });

    if (driver === 'pg') {
      it('50 checkouts at once spend the credit once', async () => {
        const { user, totalMinor } = await shopperWithCart(4);
        await ctx.services.storeCredit.grant(staff, user.id, { amountMinor: totalMinor, currency: 'NGN', reason: 'Goodwill' });
        const results = await Promise.allSettled(Array.from({ length: 50 }, () => ctx.services.checkout.initiate(user, { useStoreCredit: true, market: 'NG' })));
        const spent = (await ctx.services.db.select({ kind: storeCreditEntries.kind }).from(storeCreditEntries).where(eq(storeCreditEntries.userId, user.id))).filter((r) => r.kind === 'spend');
        expect(spent).toHaveLength(1);
        expect(await ctx.services.storeCredit.balance(user.id, 'NGN')).toBe(0);
        expect(results.some((r) => r.status === 'fulfilled')).toBe(true);
        expect(await ctx.services.storeCredit.mismatches()).toEqual([]);
      });
    }
  });
}
