import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '@/lib/server/accounts/tables';
import { variants } from '@/lib/server/catalogue/tables';
import { payments } from '@/lib/server/payments/tables';
import { promotionCodes, promotions } from '@/lib/server/promotions/tables';
import type { Logger } from '@/lib/server/infra/log';
import type { Services } from '@/lib/server/services';
import { SAME_CHECKOUT_REUSE_MS } from '@/lib/server/payments/attempts';
import type { SessionUser } from '@/lib/server/accounts/sessions';
import { DRIVERS, servicesFor, answerSimulatedPage } from '../support/services';

/**
 * pg's pool.end() resolves before its sockets are closed, and dropping the test database
 * WITH (FORCE) then kills those backends: an uncaught 'terminating connection' error.
 * Give the sockets a moment between the two.
 */
async function settledClose(database: { close(): Promise<void> }, close: () => Promise<void>) {
  const end = database.close.bind(database);
  let ended: Promise<void> | undefined;
  database.close = () => (ended ??= end().then(() => new Promise((r) => setTimeout(r, 300))));
  await close();
}

/** A logger that keeps what it is told, to read which reason a line gave. */
function keptLogger(): Logger & { lines: { level: string; msg: string; fields: Record<string, unknown> }[] } {
  const lines: { level: string; msg: string; fields: Record<string, unknown> }[] = [];
  const at = (level: string) => (msg: string, fields: Record<string, unknown> = {}) => void lines.push({ level, msg, fields });
  const logger = { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: () => logger };
  return logger;
}

for (const driver of DRIVERS) {
  describe(`checkout service on ${driver}`, () => {
    const log = keptLogger();
    let services: Services;
    let close: () => Promise<void>;
    let database: { close(): Promise<void> };
    let demo: SessionUser;

    beforeAll(async () => {
      ({ services, close, database } = await servicesFor(driver, { log }));
      [demo] = (await services.db.select().from(users).where(eq(users.email, 'demo@maisonluxe.ng'))) as [SessionUser];
    });
    afterAll(async () => {
      if (close) await settledClose(database, close);
    });

    /** A colour-only variant (no sizes) with at least `min` units, and its stock. */
    async function variantWithStock(min: number, skip = 0) {
      const rows = await services.db.select().from(variants).orderBy(variants.id);
      const v = rows.filter((r) => r.stock >= min && r.sizeId === null).slice(skip)[0]!;
      const product = await services.catalogue.getProduct(v.productId);
      const detail = product.variants.find((x) => x.id === v.id)!;
      return { id: v.id, productId: v.productId, color: detail.color ?? undefined, stock: v.stock };
    }
    const stock = async (id: number) => (await services.db.select({ s: variants.stock }).from(variants).where(eq(variants.id, id)))[0]!.s;

    async function paidCheckout(quantity: number, skip = 0) {
      const v = await variantWithStock(quantity, skip);
      const cart = await services.cart.view(demo);
      for (const i of cart.items) await services.cart.remove(demo, { productId: i.productId, color: i.color ?? undefined, size: i.size ?? undefined });
      await services.cart.add(demo, { productId: v.productId, color: v.color, size: undefined, quantity });
      const { reference } = await services.checkout.initiate(demo, {});
      await answerSimulatedPage(services, reference, 'pay');
      return { v, reference };
    }

    it('fulfils a payment exactly once under many concurrent calls', async () => {
      const { v, reference } = await paidCheckout(2);
      const before = await stock(v.id);
      const results = await Promise.allSettled(Array.from({ length: 25 }, () => services.payments.fulfil(reference)));
      const ok = results.filter((r): r is PromiseFulfilledResult<Awaited<ReturnType<Services['payments']['fulfil']>>> => r.status === 'fulfilled');
      expect(ok).toHaveLength(25);
      expect(new Set(ok.map((r) => r.value.order.id)).size).toBe(1);
      expect(ok.filter((r) => r.value.created)).toHaveLength(1);
      expect(await stock(v.id)).toBe(before - 2);
      const list = await services.orders.listForUser(demo.id);
      expect(list.filter((o) => o.id === ok[0]!.value.order.id)).toHaveLength(1);
      const [payment] = await services.db.select().from(payments).where(eq(payments.reference, reference));
      expect(payment!.status).toBe('fulfilled');
    });

    it('never takes stock below zero: a sold-out payment is marked for refund', async () => {
      const { v, reference } = await paidCheckout(1, 5);
      // someone else bought the last units after this shopper started paying
      await services.db.update(variants).set({ stock: 0 }).where(eq(variants.id, v.id));
      await expect(services.payments.fulfil(reference)).rejects.toMatchObject({ code: 'payment_failed', message: expect.stringMatching(/sold out.*refunded/) });
      expect(await stock(v.id)).toBe(0);
      const [payment] = await services.db.select().from(payments).where(eq(payments.reference, reference));
      expect(payment!.status).toBe('needs_refund');
      await expect(services.payments.fulfil(reference)).rejects.toMatchObject({ code: 'payment_failed' });
      // the cart keeps the line so the shopper can see what happened
      expect((await services.cart.view(demo)).items).toHaveLength(1);
      expect(log.lines.filter((l) => l.fields.reference === reference).map((l) => [l.msg, l.fields.reason])).toEqual([
        ['paid checkout ran out of stock; payment needs a refund', 'out_of_stock'],
      ]);
    });

    it("logs the real reason when a paid checkout's code place went to a newer payment (not 'ran out of stock')", async () => {
      const [promotion] = await services.db.insert(promotions).values({ description: 'One use', kind: 'percent', percentOff: 10, usageLimit: 1 }).returning();
      const code = `ONCE${Date.now().toString(36).toUpperCase()}`;
      await services.db.insert(promotionCodes).values({ promotionId: promotion!.id, code });
      const v = await variantWithStock(2, 7);
      for (const i of (await services.cart.view(demo)).items) await services.cart.remove(demo, { productId: i.productId, color: i.color ?? undefined, size: i.size ?? undefined });
      await services.cart.add(demo, { productId: v.productId, color: v.color, size: undefined, quantity: 1 });
      await services.cart.applyCode(demo, code);
      const first = await services.checkout.initiate(demo, {});
      // Past the window in which the same start answers the same payment, the shopper starts paying
      // again: the newer payment takes the code's one place.
      await services.db
        .update(payments)
        .set({ createdAt: new Date(Date.now() - SAME_CHECKOUT_REUSE_MS - 60_000) })
        .where(eq(payments.reference, first.reference));
      const second = await services.checkout.initiate(demo, {});
      expect(second.reference).not.toBe(first.reference);
      // The first page is paid after all: its order cannot have the code, so it is refunded.
      await answerSimulatedPage(services, first.reference, 'pay');
      await expect(services.payments.fulfil(first.reference)).rejects.toMatchObject({ code: 'payment_failed' });
      const said = log.lines.filter((l) => l.fields.reference === first.reference);
      expect(said.map((l) => [l.level, l.fields.reason])).toEqual([['warn', 'code_taken']]);
      expect(said[0]!.msg).not.toMatch(/stock/);
      expect(said[0]!.msg).toMatch(/discount code/);
    });

    it('builds the order from what was paid for, not from later cart changes', async () => {
      const { v, reference } = await paidCheckout(1, 2);
      await services.cart.changeQuantity(demo, { productId: v.productId, color: v.color, size: undefined, quantity: 2 }, 'increase').catch(() => undefined);
      const { order } = await services.payments.fulfil(reference);
      expect(order.itemCount).toBe(1);
      const [payment] = await services.db.select().from(payments).where(eq(payments.reference, reference));
      expect(order.total * 100).toBe(payment!.amountMinor);
    });

    it('moves order status only along allowed transitions and mails the shopper each time', async () => {
      const { reference } = await paidCheckout(1, 3);
      const { order } = await services.payments.fulfil(reference);
      await expect(services.orders.setStatus(order.trackingNumber, 'delivered')).rejects.toMatchObject({ code: 'conflict' });
      const processed = await services.orders.setStatus(order.trackingNumber.toLowerCase(), 'Processed');
      expect(processed).toMatchObject({ from: 'pending', order: { status: 'processed' } });
      const mails = await services.outbox.list('demo@maisonluxe.ng');
      expect(mails[0]!.subject).toBe(`Your order is being prepared (${order.trackingNumber})`);
      await services.orders.setStatus(order.id, 'cancelled');
      expect((await services.outbox.list('demo@maisonluxe.ng'))[0]!.subject).toBe(`Your order has been cancelled (${order.trackingNumber})`);
      await expect(services.orders.setStatus(order.id, 'processed')).rejects.toMatchObject({ code: 'conflict' });
      await expect(services.orders.setStatus('ML-ZZZZZZZZ', 'processed')).rejects.toMatchObject({ code: 'not_found' });
      await expect(services.orders.setStatus(order.id, 'lost')).rejects.toMatchObject({ code: 'invalid' });
    });
  });
}
