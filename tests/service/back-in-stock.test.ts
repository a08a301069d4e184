import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backInStockRequests, variants } from '@/lib/server/catalogue/tables';
import type { Services } from '@/lib/server/services';
import { placePodOrder, podShopper, podVariant } from '../support/pod-orders';
import { DRIVERS, servicesFor } from '../support/services';

const staff = { id: null, email: 'stock@maisonluxe.ng' };
let n = 0;
const newEmail = () => `waiting-${Date.now().toString(36)}-${n++}@example.com`;

for (const driver of DRIVERS) {
  describe(`back in stock on ${driver}`, () => {
    let services: Services;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ services, close } = await servicesFor(driver));
    });
    afterAll(async () => close?.());

    const mails = async (to: string) => services.outbox.list(to);
    const backMails = async (to: string) => (await mails(to)).filter((m) => m.subject.endsWith('is back in stock'));
    const stockOf = async (variantId: number) => (await services.db.select({ stock: variants.stock }).from(variants).where(eq(variants.id, variantId)))[0]!.stock;

    /** A variant taken to 0 by staff. */
    async function soldOut(skip: number) {
      const v = await podVariant(services, 'NG', 1, skip);
      await services.stock.adjust(staff, { variantId: v.id, delta: -(await stockOf(v.id)), reason: 'Counted: none left' });
      return v;
    }

    /** Asks as `email` and follows the link in the confirm mail. */
    async function askAndConfirm(v: { id: number; productId: number }, email: string) {
      await services.backInStock.request({ productId: v.productId, variantId: v.id }, email, { market: 'NG' });
      const [confirm] = await mails(email);
      expect(confirm?.subject).toMatch(/^Confirm: e-mail me when .+ is back$/);
      const link = /https?:\/\/\S+\/back-in-stock\/confirm\?token=\S+/.exec(confirm!.text)![0];
      expect(await services.backInStock.confirm(new URL(link).searchParams.get('token'))).toBe(true);
    }

    it('a staff restock mails a confirmed request once; the request is then done', async () => {
      const v = await soldOut(0);
      const email = newEmail();
      await askAndConfirm(v, email);
      expect(await services.backInStock.waitingFor(v.id)).toBe(1);
      expect(await services.backInStock.sendDue()).toBe(0);

      await services.stock.adjust(staff, { variantId: v.id, delta: 3, reason: 'Delivery from the workshop' });
      expect(await services.backInStock.sendDue()).toBeGreaterThanOrEqual(1);
      const [back] = await backMails(email);
      expect(back?.text).toContain(`/product/${v.productId}`);

      // Sold out and back again: the request was done with its one mail.
      await services.stock.adjust(staff, { variantId: v.id, delta: -3, reason: 'Counted again' });
      await services.stock.adjust(staff, { variantId: v.id, delta: 2, reason: 'Another delivery' });
      await services.backInStock.sendDue();
      await services.backInStock.sendDue();
      expect(await backMails(email)).toHaveLength(1);
      const [row] = await services.db.select().from(backInStockRequests).where(eq(backInStockRequests.email, email));
      expect(row?.status).toBe('notified');
    });

    it('a request never confirmed gets no mail when the piece is back', async () => {
      const v = await soldOut(5);
      const email = newEmail();
      await services.backInStock.request({ productId: v.productId, variantId: v.id }, email, { market: 'NG' });
      await services.stock.adjust(staff, { variantId: v.id, delta: 1, reason: 'Found one' });
      await services.backInStock.sendDue();
      expect(await backMails(email)).toHaveLength(0);
      const [row] = await services.db.select().from(backInStockRequests).where(eq(backInStockRequests.email, email));
      expect(row?.status).toBe('pending');
    });

    it('a cancelled order that puts the last units back mails the confirmed requests', async () => {
      const v = await podVariant(services, 'NG', 1, 10);
      const shopper = await podShopper(services);
      const units = await stockOf(v.id);
      const order = await placePodOrder(services, { userId: shopper.id, email: shopper.email, variantId: v.id, quantity: units });
      expect(await stockOf(v.id)).toBe(0);
      const email = newEmail();
      await askAndConfirm(v, email);

      await services.orders.setStatus(order.id, 'cancelled', staff);
      expect(await stockOf(v.id)).toBe(units);
      await services.backInStock.sendDue();
      expect(await backMails(email)).toHaveLength(1);
    });

    it('asking for a choice in stock is refused; a bad link confirms nothing', async () => {
      const v = await podVariant(services, 'NG', 2, 20);
      await expect(services.backInStock.request({ productId: v.productId, variantId: v.id }, newEmail(), { market: 'NG' })).rejects.toMatchObject({ code: 'invalid' });
      expect(await services.backInStock.confirm('bm90LWEtdG9rZW4.AAAA')).toBe(false);
      expect(await services.backInStock.confirm(null)).toBe(false);
    });
  });
}
