import { randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '@/lib/domain/money';
import { paidForUnits, spreadDiscount } from '@/lib/domain/promotions';
import { users } from '@/lib/server/accounts/tables';
import { carts } from '@/lib/server/cart/tables';
import { variantPrices, variants } from '@/lib/server/catalogue/tables';
import { orderItems, orders } from '@/lib/server/orders/tables';
import { payments } from '@/lib/server/payments/tables';
import { promotionCodes, promotions } from '@/lib/server/promotions/tables';
import type { SessionUser } from '@/lib/server/accounts/sessions';
import type { Services } from '@/lib/server/services';
import { answerSimulatedPage, DRIVERS, servicesFor } from '../support/services';

/**
 * Discount codes on the shopper's side, on both databases: applying a
 * code to the cart (each refusal's text), the totals, the re-check on a market switch or a smaller
 * cart, the payment and the order keeping the discount, the mail, the CSV export and line refunds.
 */

async function settledClose(database: { close(): Promise<void> }, close: () => Promise<void>) {
  const end = database.close.bind(database);
  let ended: Promise<void> | undefined;
  database.close = () => (ended ??= end().then(() => new Promise((r) => setTimeout(r, 300))));
  await close();
}

const uid = () => randomBytes(4).toString('hex');
const STAFF = { id: null, email: 'staff@example.com' };

for (const driver of DRIVERS) {
  describe(`discount codes in the cart and orders on ${driver}`, () => {
    let services: Services;
    let close: () => Promise<void>;
    let database: { close(): Promise<void> };

    beforeAll(async () => {
      ({ services, close, database } = await servicesFor(driver));
    });
    afterAll(async () => {
      if (close) await settledClose(database, close);
    });

    async function shopper(): Promise<SessionUser> {
      const [u] = await services.db
        .insert(users)
        .values({ firstName: 'Ada', lastName: 'Obi', email: `promo-${uid()}@example.com`, passwordHash: 'x', phoneNumber: '08000000000', country: 'nigeria' })
        .returning();
      return u!;
    }

    async function promo(values: Partial<typeof promotions.$inferInsert> & { code?: string; expiresAt?: Date; codeLimit?: number }) {
      const { code: c, expiresAt, codeLimit, ...p } = values;
      const [row] = await services.db.insert(promotions).values({ kind: 'percent', percentOff: 10, ...p }).returning();
      const code = c ?? `SAVE${uid().toUpperCase()}`;
      await services.db.insert(promotionCodes).values({ promotionId: row!.id, code, expiresAt: expiresAt ?? null, usageLimit: codeLimit ?? null });
      return { promotion: row!, code };
    }

    /** Colour-only variants (no sizes) with stock and a price in both markets. */
    async function sellable(count: number, skip = 0) {
      const rows = await services.db.select().from(variants).orderBy(variants.id);
      const prices = await services.db.select().from(variantPrices);
      const both = rows.filter((r) => r.stock >= 3 && r.sizeId === null && ['NG', 'ZA'].every((m) => prices.some((p) => p.variantId === r.id && p.market === m && p.priceMinor !== null)));
      const byProduct = [...new Map(both.map((r) => [r.productId, r])).values()].slice(skip, skip + count);
      expect(byProduct).toHaveLength(count);
      return Promise.all(
        byProduct.map(async (v) => {
          const product = await services.catalogue.getProduct(v.productId);
          return { id: v.id, productId: v.productId, color: product.variants.find((x) => x.id === v.id)!.color ?? undefined };
        }),
      );
    }

    async function fill(user: SessionUser, quantities: number[], skip = 0) {
      const vs = await sellable(quantities.length, skip);
      for (const [i, v] of vs.entries()) await services.cart.add(user, { productId: v.productId, color: v.color, size: undefined, quantity: quantities[i]! });
      return vs;
    }

    it('applies a code (case-insensitive): a Discount off the subtotal, never delivery; Remove takes it off', async () => {
      const user = await shopper();
      await fill(user, [1, 2]);
      const { code } = await promo({ percentOff: 15 });
      const cart = await services.cart.applyCode(user, `  ${code.toLowerCase()} `);
      expect(cart.discountCode).toBe(code);
      const subtotalMinor = Math.round(cart.subtotal * 100);
      expect(Math.round(cart.discount * 100)).toBe(Math.floor((subtotalMinor * 15) / 100));
      expect(Math.round(cart.total * 100)).toBe(subtotalMinor - Math.round(cart.discount * 100) + Math.round(cart.deliveryFee * 100));
      // Priced again on every read, with the line shares adding up to the discount.
      const priced = await services.cart.price(user);
      expect(priced.discount?.code).toBe(code);
      expect(priced.lines.reduce((s, l) => s + l.discountMinor, 0)).toBe(priced.discountMinor);
      expect(priced.lines.map((l) => l.discountMinor)).toEqual(spreadDiscount(priced.lines.map((l) => l.lineTotalMinor), priced.discountMinor));

      const removed = await services.cart.removeCode(user);
      expect(removed).toMatchObject({ discount: 0, discountCode: null, total: removed.subtotal + removed.deliveryFee });
      expect((await services.cart.view(user)).discountCode).toBeNull();
    });

    it("refuses codes with the spec's texts, and keeps none of them", async () => {
      const user = await shopper();
      await fill(user, [1]);
      const subtotal = (await services.cart.view(user)).subtotal;
      await expect(services.cart.applyCode(user, 'NO-SUCH-CODE')).rejects.toMatchObject({ code: 'invalid', message: 'This code is not valid.' });
      const paused = await promo({ status: 'paused' });
      await expect(services.cart.applyCode(user, paused.code)).rejects.toMatchObject({ message: 'This code is not valid.' });
      const expired = await promo({ expiresAt: new Date(Date.now() - 60_000) });
      await expect(services.cart.applyCode(user, expired.code)).rejects.toMatchObject({ message: 'This code has expired.' });
      const used = await promo({ usageLimit: 1 });
      await services.db.update(promotions).set({ redemptions: 1 }).where(eq(promotions.id, used.promotion.id));
      await expect(services.cart.applyCode(user, used.code)).rejects.toMatchObject({ message: 'This code has already been used.' });
      const minMinor = Math.round(subtotal * 100) + 100_00;
      const min = await promo({ minSubtotal: { NG: minMinor } });
      await expect(services.cart.applyCode(user, min.code)).rejects.toMatchObject({ message: `Spend at least ${formatMoney(minMinor / 100, 'NGN')} to use this code.` });
      const cart = await services.cart.view(user);
      expect(cart).toMatchObject({ discount: 0, discountCode: null });
    });

    it('re-checks the code when the market changes: a code with no rand amount comes off in South Africa, and the shopper is told', async () => {
      const user = await shopper();
      await fill(user, [1]);
      const fixed = await promo({ kind: 'fixed', percentOff: null, amountOff: { NG: 5_000_00 } });
      const ng = await services.cart.applyCode(user, fixed.code, 'NG');
      expect(ng.discount).toBe(5_000);
      const za = await services.cart.view(user, 'ZA');
      expect(za).toMatchObject({ market: 'ZA', discount: 0, discountCode: null });
      expect(za.notice).toContain('Your cart is now priced for');
      expect(za.notice).toContain('Your discount code no longer applies in');
      expect(Math.round(za.total * 100)).toBe(Math.round(za.subtotal * 100) + Math.round(za.deliveryFee * 100));
      // Gone for good: back in Nigeria the shopper applies it again if they want it.
      expect((await services.cart.view(user, 'NG')).discountCode).toBeNull();
    });

    it('takes the code off when the cart no longer reaches its minimum, saying why', async () => {
      const user = await shopper();
      const [v] = await fill(user, [2]);
      const cart = await services.cart.view(user);
      const unitMinor = Math.round(cart.items[0]!.unitPrice * 100);
      const min = await promo({ minSubtotal: { NG: unitMinor * 2 } });
      expect((await services.cart.applyCode(user, min.code)).discountCode).toBe(min.code);
      const smaller = await services.cart.changeQuantity(user, { productId: v!.productId, color: v!.color, size: undefined, quantity: 1 }, 'decrease');
      expect(smaller).toMatchObject({ discount: 0, discountCode: null, notice: `Spend at least ${formatMoney((unitMinor * 2) / 100, 'NGN')} to use this code.` });
      expect((await services.cart.view(user)).notice).toBeUndefined();
    });

    it('charges the discounted total; the order keeps the code, the discount and each line share; mail and CSV show them', async () => {
      const user = await shopper();
      await fill(user, [1, 3], 2);
      const { code, promotion } = await promo({ percentOff: 20 });
      const cart = await services.cart.applyCode(user, code);
      const { reference, amount } = await services.checkout.initiate(user, {});
      expect(amount).toBe(cart.total);
      const [payment] = await services.db.select().from(payments).where(eq(payments.reference, reference));
      expect(payment!.amountMinor).toBe(Math.round(cart.total * 100));
      expect(payment!.snapshot).toMatchObject({ discountMinor: Math.round(cart.discount * 100), discountCode: code, promotionId: promotion.id });
      await answerSimulatedPage(services, reference, 'pay');
      const { order } = await services.payments.fulfil(reference);

      expect(order).toMatchObject({ discount: cart.discount, discountCode: code, subtotal: cart.subtotal, total: cart.total });
      const [row] = await services.db.select().from(orders).where(eq(orders.id, order.id));
      expect(row).toMatchObject({ discountMinor: Math.round(cart.discount * 100), discountCode: code, promotionId: promotion.id });
      const items = await services.db.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(orderItems.id);
      expect(items.reduce((s, i) => s + i.discountMinor, 0)).toBe(row!.discountMinor);
      expect(items.map((i) => i.discountMinor)).toEqual(spreadDiscount(items.map((i) => i.lineTotalMinor), row!.discountMinor));
      expect(row!.totalMinor).toBe(row!.subtotalMinor - row!.discountMinor + row!.deliveryFeeMinor);

      // One code per order: the cart lets go of it with the lines it bought.
      const [cartRow] = await services.db.select().from(carts).where(and(eq(carts.userId, user.id), isNull(carts.discountCode)));
      expect(cartRow).toBeDefined();

      const mail = (await services.outbox.list(user.email)).find((m) => m.subject.includes(order.trackingNumber))!;
      expect(mail.text).toContain(`Discount (${code}): -${formatMoney(order.discount, 'NGN')}`);

      const csv = (await Array.fromAsync(services.orders.exportCsv({ q: order.trackingNumber }))).join('');
      const [header, line] = csv.trim().split('\r\n');
      expect(header).toBe('tracking_number,created_at,email,status,delivery_option,subtotal,delivery_fee,total,currency,discount,discount_code');
      expect(line!.endsWith(`,NGN,${order.discount},${code}`)).toBe(true);

      // A line refund returns what was paid for those units, its discount share taken off.
      const second = items[1]!;
      const one = await services.orderRefunds.refund(order.id, undefined, STAFF, { line: { position: 2, quantity: 1 } });
      expect(one.refundedNowMinor).toBe(paidForUnits(second.lineTotalMinor, second.discountMinor, second.quantity, 1));
      expect(one.refundedNowMinor).toBeLessThan(second.unitPriceMinor);
      const rest = await services.orderRefunds.refund(order.id, undefined, STAFF, { line: { position: 1, quantity: 1 } });
      expect(rest.refundedNowMinor).toBe(items[0]!.lineTotalMinor - items[0]!.discountMinor);
      await expect(services.orderRefunds.refund(order.id, undefined, STAFF, { line: { position: 3, quantity: 1 } })).rejects.toMatchObject({ message: 'This order has no such line' });
      await expect(services.orderRefunds.refund(order.id, undefined, STAFF, { line: { position: 2, quantity: 4 } })).rejects.toMatchObject({ message: 'You can refund at most 3 of this line' });
      // The full refund still returns all that is left, never more than was paid.
      const all = await services.orderRefunds.refund(order.id, undefined, STAFF);
      expect(all).toMatchObject({ status: 'refunded', refundedMinor: payment!.amountMinor });
    });

    it('a line refunded one unit at a time gives back exactly what the line cost', async () => {
      const user = await shopper();
      await fill(user, [3], 3);
      // ₦1 off three units: what was paid for the line does not divide by three.
      const { code } = await promo({ kind: 'fixed', percentOff: null, amountOff: { NG: 100, ZA: 100 } });
      await services.cart.applyCode(user, code);
      const { reference } = await services.checkout.initiate(user, {});
      await answerSimulatedPage(services, reference, 'pay');
      const { order } = await services.payments.fulfil(reference);
      const [line] = await services.db.select().from(orderItems).where(eq(orderItems.orderId, order.id));
      const paid = line!.lineTotalMinor - line!.discountMinor;
      expect(paid % 3).not.toBe(0);
      const back: number[] = [];
      for (let unit = 0; unit < 3; unit++) back.push((await services.orderRefunds.refund(order.id, undefined, STAFF, { line: { position: 1, quantity: 1 } })).refundedNowMinor);
      expect(back.reduce((a, b) => a + b, 0)).toBe(paid);
      for (const one of back) expect(Math.abs(one * 3 - paid)).toBeLessThan(3);
    });

    it('an order without a code has no discount, in the DTO and the CSV', async () => {
      const user = await shopper();
      await fill(user, [1], 4);
      const { reference } = await services.checkout.initiate(user, {});
      await answerSimulatedPage(services, reference, 'pay');
      const { order } = await services.payments.fulfil(reference);
      expect(order).toMatchObject({ discount: 0, discountCode: null });
      expect(order.items.every((i) => i.discount === 0)).toBe(true);
      const csv = (await Array.fromAsync(services.orders.exportCsv({ q: order.trackingNumber }))).join('');
      expect(csv.trim().split('\r\n')[1]!.endsWith(',NGN,0,')).toBe(true);
    });
  });
}
