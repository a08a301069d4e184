import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '@/lib/server/accounts/tables';
import { orders } from '@/lib/server/orders/tables';
import { payments } from '@/lib/server/payments/tables';
import { promotionCodes, promotions } from '@/lib/server/promotions/tables';
import type { AppliedDiscount, CartForDiscount } from '@/lib/server/promotions/promotions';
import type { Services } from '@/lib/server/services';
import { DRIVERS, servicesFor, testClock, type Driver } from '../support/services';

/** Promotions on both databases: each rule's text, the counters of hold/use/release, welcome codes, and (PostgreSQL) a 50-way race. */

async function settledClose(database: { close(): Promise<void> }, close: () => Promise<void>) {
  const end = database.close.bind(database);
  let ended: Promise<void> | undefined;
  database.close = () => (ended ??= end().then(() => new Promise((r) => setTimeout(r, 300))));
  await close();
}

const uid = () => randomBytes(4).toString('hex');

for (const driver of DRIVERS as Driver[]) {
  describe(`promotions service on ${driver}`, () => {
    let services: Services;
    let close: () => Promise<void>;
    let database: { close(): Promise<void> };
    const clock = testClock();

    beforeAll(async () => {
      ({ services, close, database } = await servicesFor(driver, { clock, seed: false }));
    });
    afterAll(async () => {
      if (close) await settledClose(database, close);
    });

    async function user(email = `shopper-${uid()}@example.com`) {
      const [u] = await services.db
        .insert(users)
        .values({ firstName: 'A', lastName: 'B', email, passwordHash: 'x', phoneNumber: '08000000000', country: 'nigeria' })
        .returning();
      return u!;
    }
    async function payment(userId: string, status: 'initialized' | 'paid' = 'initialized') {
      const [p] = await services.db
        .insert(payments)
        .values({
          reference: `T-${uid()}${uid()}`,
          userId,
          cartId: '00000000-0000-0000-0000-000000000000',
          provider: 'simulated',
          amountMinor: 1000,
          currency: 'NGN',
          email: 'x@example.com',
          snapshot: {},
          status,
          createdAt: clock(),
          updatedAt: clock(),
        })
        .returning();
      return p!;
    }
    async function promo(values: Partial<typeof promotions.$inferInsert> & { code?: string; codeLimit?: number | null; email?: string; expiresAt?: Date }) {
      const { code: c, codeLimit, email, expiresAt, ...p } = values;
      const [row] = await services.db
        .insert(promotions)
        .values({ kind: 'percent', percentOff: 10, ...p })
        .returning();
      const code = c ?? `TEST${uid().toUpperCase()}`;
      const [codeRow] = await services.db
        .insert(promotionCodes)
        .values({ promotionId: row!.id, code, usageLimit: codeLimit ?? null, email: email ?? null, expiresAt: expiresAt ?? null })
        .returning();
      return { promotion: row!, code: codeRow! };
    }
    const cart = (u: { id: string; email: string }, lines: [number, number | null][] = [[10_000_00, null]], market: 'NG' | 'ZA' = 'NG'): CartForDiscount => ({
      userId: u.id,
      email: u.email,
      market,
      currency: market === 'NG' ? 'NGN' : 'ZAR',
      lines: lines.map(([lineTotalMinor, categoryId], i) => ({ variantId: i + 1, categoryId, lineTotalMinor })),
    });
    const counters = async (promotionId: number, codeId: number) => {
      const [p] = await services.db.select().from(promotions).where(eq(promotions.id, promotionId));
      const [c] = await services.db.select().from(promotionCodes).where(eq(promotionCodes.id, codeId));
      return [p!.redemptions, c!.redemptions];
    };
    async function hold(applied: AppliedDiscount, userId: string, paymentId: string) {
      await services.db.transaction((tx) => services.promotions.hold(tx, { applied, userId, paymentId, currency: 'NGN' }));
    }

    it('evaluates a percentage code case-insensitively, rounding down, and spreads it over the lines', async () => {
      const u = await user();
      const { code } = await promo({ percentOff: 15 });
      const applied = await services.promotions.evaluate(`  ${code.code.toLowerCase()} `, cart(u, [[333, null], [667, null]]));
      expect(applied.code).toBe(code.code);
      expect(applied.discountMinor).toBe(150);
      expect(applied.lineDiscountsMinor).toEqual([50, 100]);
      expect(applied.lineDiscountsMinor.reduce((a, b) => a + b, 0)).toBe(150);
    });

    it('says which rule refuses a code, with the spec texts', async () => {
      const u = await user();
      const ev = (code: string, c = cart(u)) => services.promotions.evaluate(code, c);
      await expect(ev('NO-SUCH-CODE')).rejects.toMatchObject({ code: 'invalid', message: 'This code is not valid.' });
      await expect(ev('')).rejects.toMatchObject({ message: 'This code is not valid.' });
      const paused = await promo({ status: 'paused' });
      await expect(ev(paused.code.code)).rejects.toMatchObject({ message: 'This code is not valid.' });
      const later = await promo({ startsAt: new Date(clock().getTime() + 3600_000) });
      await expect(ev(later.code.code)).rejects.toMatchObject({ message: 'This code is not valid.' });
      const ended = await promo({ endsAt: new Date(clock().getTime() - 1000) });
      await expect(ev(ended.code.code)).rejects.toMatchObject({ message: 'This code has expired.' });
      const codeExpired = await promo({ expiresAt: new Date(clock().getTime() - 1000) });
      await expect(ev(codeExpired.code.code)).rejects.toMatchObject({ message: 'This code has expired.' });
      const someoneElse = await promo({ email: 'someone@example.com' });
      await expect(ev(someoneElse.code.code)).rejects.toMatchObject({ message: 'This code is not valid.' });
      // a fixed code without a rand amount is not valid in South Africa
      const fixed = await promo({ kind: 'fixed', percentOff: null, amountOff: { NG: 500_00 } });
      expect((await ev(fixed.code.code)).discountMinor).toBe(500_00);
      await expect(ev(fixed.code.code, cart(u, [[10_000_00, null]], 'ZA'))).rejects.toMatchObject({ message: 'This code is not valid.' });
      // a fixed amount never takes the subtotal below zero
      expect((await ev(fixed.code.code, cart(u, [[300_00, null]]))).discountMinor).toBe(300_00);
      const minSpend = await promo({ minSubtotal: { NG: 20_000_00, ZA: 1_000_00 } });
      await expect(ev(minSpend.code.code)).rejects.toMatchObject({ message: 'Spend at least ₦20,000 to use this code.' });
      await expect(ev(minSpend.code.code, cart(u, [[500_00, null]], 'ZA'))).rejects.toMatchObject({ message: expect.stringMatching(/^Spend at least R.?1.?000 to use this code\.$/) });
      expect((await ev(minSpend.code.code, cart(u, [[20_000_00, null]]))).discountMinor).toBe(2_000_00);
      // only some categories: other lines are not discounted; none eligible -> not valid
      const onlyCat = await promo({ categoryIds: [999_001] });
      await expect(ev(onlyCat.code.code, cart(u, [[1000, 5]]))).rejects.toMatchObject({ message: 'This code is not valid.' });
      const cat = await promo({ percentOff: 50, categoryIds: [7] });
      const mixed = await ev(cat.code.code, cart(u, [[1000, 7], [3000, 8]]));
      expect(mixed.discountMinor).toBe(500);
      expect(mixed.lineDiscountsMinor).toEqual([500, 0]);
    });

    it('holds, uses and releases with the counters, idempotently', async () => {
      const u = await user();
      const { promotion, code } = await promo({ usageLimit: 2, codeLimit: 1 });
      const applied = await services.promotions.evaluate(code.code, cart(u));
      const pay = await payment(u.id);
      await hold(applied, u.id, pay.id);
      expect(await counters(promotion.id, code.id)).toEqual([1, 1]);
      // the limit counts held ones: another shopper is told before paying
      const other = await user();
      await expect(services.promotions.evaluate(code.code, cart(other))).rejects.toMatchObject({ message: 'This code has already been used.' });
      await expect(hold(applied, other.id, (await payment(other.id)).id)).rejects.toMatchObject({ code: 'conflict', message: 'This code has already been used.' });
      expect(await counters(promotion.id, code.id)).toEqual([1, 1]);
      // released (declined): usable again; twice is harmless
      await services.promotions.release(services.db, pay.id);
      await services.promotions.release(services.db, pay.id);
      expect(await counters(promotion.id, code.id)).toEqual([0, 0]);
      expect((await services.promotions.redemptionOf(pay.id))!.state).toBe('released');
      await services.promotions.evaluate(code.code, cart(other));
      const pay2 = await payment(other.id);
      await hold(applied, other.id, pay2.id);
      const [order] = await services.db
        .insert(orders)
        .values({ trackingNumber: `TN${uid()}`, userId: other.id, paymentId: pay2.id, deliveryOption: 'collect', subtotalMinor: 1, deliveryFeeMinor: 0, totalMinor: 1, currency: 'NGN', deliveryAddress: {} } as typeof orders.$inferInsert)
        .returning();
      await services.db.transaction((tx) => services.promotions.use(tx, pay2.id, order!.id));
      await services.db.transaction((tx) => services.promotions.use(tx, pay2.id, order!.id));
      // a use is not given back by a release
      await services.promotions.release(services.db, pay2.id);
      expect(await counters(promotion.id, code.id)).toEqual([1, 1]);
      const r = await services.promotions.redemptionOf(pay2.id);
      expect(r).toMatchObject({ state: 'used', orderId: order!.id });
      // no redemption: no-ops
      const plain = await payment(u.id);
      await services.promotions.release(services.db, plain.id);
      await services.db.transaction((tx) => services.promotions.use(tx, plain.id, order!.id));
    });

    it('once per customer and first order only', async () => {
      const u = await user();
      const { code } = await promo({ oncePerCustomer: true });
      const applied = await services.promotions.evaluate(code.code, cart(u));
      const p1 = await payment(u.id, 'paid');
      await hold(applied, u.id, p1.id);
      await expect(services.promotions.evaluate(code.code, cart(u))).rejects.toMatchObject({ message: 'This code has already been used.' });
      await expect(hold(applied, u.id, (await payment(u.id, 'paid')).id)).rejects.toMatchObject({ code: 'conflict', message: 'This code has already been used.' });
      // another shopper may
      const v = await user();
      await hold(await services.promotions.evaluate(code.code, cart(v)), v.id, (await payment(v.id)).id);

      const first = await promo({ firstOrderOnly: true });
      const w = await user();
      await services.promotions.evaluate(first.code.code, cart(w));
      const pw = await payment(w.id);
      await services.db
        .insert(orders)
        .values({ trackingNumber: `TN${uid()}`, userId: w.id, paymentId: pw.id, deliveryOption: 'collect', subtotalMinor: 1, deliveryFeeMinor: 0, totalMinor: 1, currency: 'NGN', deliveryAddress: {} } as typeof orders.$inferInsert);
      await expect(services.promotions.evaluate(first.code.code, cart(w))).rejects.toMatchObject({ message: 'This code has already been used.' });
    });

    it("a shopper's new payment replaces their unpaid one; a late payment of it takes its place again or is refused", async () => {
      const u = await user();
      const { promotion, code } = await promo({ usageLimit: 1 });
      const applied = await services.promotions.evaluate(code.code, cart(u));
      const p1 = await payment(u.id);
      await hold(applied, u.id, p1.id);
      // back in the cart: the code still applies for this shopper, and paying again holds it again
      await services.promotions.evaluate(code.code, cart(u));
      const p2 = await payment(u.id);
      await hold(applied, u.id, p2.id);
      expect(await counters(promotion.id, code.id)).toEqual([1, 1]);
      expect((await services.promotions.redemptionOf(p1.id))!.state).toBe('released');
      // the old page is paid after all: its place is gone
      const tn = async (paymentId: string) =>
        (
          await services.db
            .insert(orders)
            .values({ trackingNumber: `TN${uid()}`, userId: u.id, paymentId, deliveryOption: 'collect', subtotalMinor: 1, deliveryFeeMinor: 0, totalMinor: 1, currency: 'NGN', deliveryAddress: {} } as typeof orders.$inferInsert)
            .returning()
        )[0]!;
      const o1 = await tn(p1.id);
      await expect(services.db.transaction((tx) => services.promotions.use(tx, p1.id, o1.id))).rejects.toMatchObject({ code: 'conflict' });
      // the newer one is abandoned: the late one can take the place now
      await services.promotions.release(services.db, p2.id);
      await services.db.transaction((tx) => services.promotions.use(tx, p1.id, o1.id));
      expect(await counters(promotion.id, code.id)).toEqual([1, 1]);
      expect((await services.promotions.redemptionOf(p1.id))!.state).toBe('used');
    });

    it('an unpaid payment holds a place of a "first N" code for 30 minutes at most', async () => {
      const { promotion, code } = await promo({ usageLimit: 1 });
      const squatter = await user();
      const unpaid = await payment(squatter.id);
      await hold(await services.promotions.evaluate(code.code, cart(squatter)), squatter.id, unpaid.id);
      const late = await user();
      clock.advance(29 * 60_000);
      await expect(services.promotions.evaluate(code.code, cart(late))).rejects.toMatchObject({ message: 'This code has already been used.' });
      // A transfer the shopper says is on its way is not a squatter: it keeps its place.
      const sent = await promo({ usageLimit: 1 });
      const sender = await user();
      const pending = await payment(sender.id);
      await hold(await services.promotions.evaluate(sent.code.code, cart(sender)), sender.id, pending.id);
      await services.db.update(payments).set({ status: 'pending' }).where(eq(payments.id, pending.id));
      clock.advance(2 * 60_000);
      const applied = await services.promotions.evaluate(code.code, cart(late));
      await hold(applied, late.id, (await payment(late.id)).id);
      expect((await services.promotions.redemptionOf(unpaid.id))!.state).toBe('released');
      expect(await counters(promotion.id, code.id)).toEqual([1, 1]);
      await expect(services.promotions.evaluate(sent.code.code, cart(late))).rejects.toMatchObject({ message: 'This code has already been used.' });
      // The squatter pays after all: the place is gone, so the payment cannot become an order with it.
      await services.db.update(payments).set({ status: 'paid' }).where(eq(payments.id, unpaid.id));
      const [o] = await services.db
        .insert(orders)
        .values({ trackingNumber: `TN${uid()}`, userId: squatter.id, paymentId: unpaid.id, deliveryOption: 'collect', subtotalMinor: 1, deliveryFeeMinor: 0, totalMinor: 1, currency: 'NGN', deliveryAddress: {} } as typeof orders.$inferInsert)
        .returning();
      await expect(services.db.transaction((tx) => services.promotions.use(tx, unpaid.id, o!.id))).rejects.toMatchObject({ code: 'conflict' });
    });

    it('a cancelled order gives its code back: the welcome code can be used again, and it was no first order', async () => {
      const u = await user();
      const { code } = await services.promotions.issueWelcomeCode(u.email);
      const first = await promo({ firstOrderOnly: true });
      const pay = await payment(u.id, 'paid');
      await hold(await services.promotions.evaluate(code, cart(u)), u.id, pay.id);
      const [o] = await services.db
        .insert(orders)
        .values({ trackingNumber: `TN${uid()}`, userId: u.id, paymentId: pay.id, deliveryOption: 'collect', subtotalMinor: 1, deliveryFeeMinor: 0, totalMinor: 1, currency: 'NGN', deliveryAddress: {} } as typeof orders.$inferInsert)
        .returning();
      await services.db.transaction((tx) => services.promotions.use(tx, pay.id, o!.id));
      await expect(services.promotions.evaluate(code, cart(u))).rejects.toMatchObject({ message: 'This code has already been used.' });
      await expect(services.promotions.evaluate(first.code.code, cart(u))).rejects.toMatchObject({ message: 'This code has already been used.' });
      await services.orders.setStatus(o!.id, 'cancelled');
      expect((await services.promotions.redemptionOf(pay.id))!.state).toBe('released');
      expect((await services.promotions.findCode(code))!.redemptions).toBe(0);
      const again = await services.promotions.evaluate(code, cart(u));
      await hold(again, u.id, (await payment(u.id)).id);
      expect((await services.promotions.findCode(code))!.redemptions).toBe(1);
      await services.promotions.evaluate(first.code.code, cart(u));
    });

    it('issues unique welcome codes bound to the e-mail, valid 30 days, usable once', async () => {
      const u = await user();
      const a = await services.promotions.issueWelcomeCode(u.email.toUpperCase());
      const b = await services.promotions.issueWelcomeCode('other@example.com');
      expect(a.code).toMatch(/^WELCOME-[A-HJ-NP-Z2-9]{8}$/);
      expect(a.code).not.toBe(b.code);
      expect(a.percentOff).toBe(20);
      expect(a.expiresAt.getTime()).toBe(clock().getTime() + 30 * 86_400_000);
      const applied = await services.promotions.evaluate(a.code.toLowerCase(), cart(u, [[12_345_67, null]]));
      expect(applied.discountMinor).toBe(Math.floor(12_345_67 * 0.2));
      // another account may not use it
      const other = await user();
      await expect(services.promotions.evaluate(a.code, cart(other))).rejects.toMatchObject({ message: 'This code is not valid.' });
      await hold(applied, u.id, (await payment(u.id, 'paid')).id);
      await expect(services.promotions.evaluate(a.code, cart(u))).rejects.toMatchObject({ message: 'This code has already been used.' });
      clock.advance(31 * 86_400_000);
      await expect(services.promotions.evaluate(b.code, cart({ id: other.id, email: 'other@example.com' }))).rejects.toMatchObject({ message: 'This code has expired.' });
    });

    it("a new welcome percentage applies to codes issued from now on; issued codes keep the mail's", async () => {
      const u = await user();
      const before = await services.promotions.issueWelcomeCode(u.email);
      const welcome = (await services.promotions.list()).find((p) => p.systemKey === 'newsletter-welcome')!;
      const owner = { id: null, email: 'owner@example.com' };
      const changed = await services.promotions.update(owner, welcome.id, { percentOff: 30, codeValidDays: 10 });
      expect(changed).toMatchObject({ percentOff: 30, codeValidDays: 10, uses: 0 });
      const after = await services.promotions.issueWelcomeCode(u.email);
      expect(after.percentOff).toBe(30);
      expect(after.expiresAt.getTime()).toBe(clock().getTime() + 10 * 86_400_000);
      expect((await services.promotions.evaluate(before.code, cart(u, [[1000, null]]))).discountMinor).toBe(200);
      expect((await services.promotions.evaluate(after.code, cart(u, [[1000, null]]))).discountMinor).toBe(300);
      const kept = (await services.promotions.list()).find((p) => p.description.startsWith('Newsletter welcome, 20%'));
      expect(kept).toMatchObject({ percentOff: 20, code: null, systemKey: null });
      expect(kept!.issuedCodes).toBeGreaterThanOrEqual(1);
      // the kept terms can still be edited (paused) without a shared code
      expect((await services.promotions.update(owner, kept!.id, { status: 'paused' })).status).toBe('paused');
      await expect(services.promotions.evaluate(before.code, cart(u))).rejects.toMatchObject({ message: 'This code is not valid.' });
    });

    if (driver === 'pg') {
      it('50 concurrent holds of a code limited to 1: exactly one held, 49 refused', async () => {
        const { promotion, code } = await promo({ codeLimit: 1 });
        const shoppers = await Promise.all(Array.from({ length: 50 }, () => user()));
        const applied = await services.promotions.evaluate(code.code, cart(shoppers[0]!));
        const pays = await Promise.all(shoppers.map((s) => payment(s.id)));
        const results = await Promise.allSettled(shoppers.map((s, i) => hold(applied, s.id, pays[i]!.id)));
        const ok = results.filter((r) => r.status === 'fulfilled');
        const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
        expect(ok).toHaveLength(1);
        expect(refused).toHaveLength(49);
        for (const r of refused) expect(r.reason).toMatchObject({ code: 'conflict', message: 'This code has already been used.' });
        expect(await counters(promotion.id, code.id)).toEqual([1, 1]);
      });
    }
  });
}
