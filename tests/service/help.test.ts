import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placePodOrder, podShopper, podVariant } from '../support/pod-orders';
import { DRIVERS, servicesFor } from '../support/services';

const staff = { id: null, email: 'care@maisonluxe.ng' };

/** "Get help with this order", answered from the back office and mailed. */
for (const driver of DRIVERS) {
  describe(`help with an order on ${driver}`, () => {
    let ctx: Awaited<ReturnType<typeof servicesFor>>;
    beforeAll(async () => {
      ctx = await servicesFor(driver);
    });
    afterAll(async () => ctx?.close());

    it('a shopper asks, staff answer, the answer is mailed and the thread reads in order', async () => {
      const shopper = await podShopper(ctx.services);
      const v = await podVariant(ctx.services);
      const order = await placePodOrder(ctx.services, { userId: shopper.id, email: shopper.email, variantId: v.id });
      const asked = await ctx.services.help.ask(shopper.id, order.id, { topic: 'where', message: 'When will it arrive?' });
      expect(asked).toMatchObject({ status: 'open', topicLabel: 'Where is my order?' });
      const list = await ctx.services.help.adminList({ status: 'open' });
      expect(list.rows.some((r) => r.id === asked.id && r.trackingNumber === order.trackingNumber)).toBe(true);
      await ctx.services.help.answer(staff, asked.id, 'It leaves our Lagos atelier today.');
      const [thread] = await ctx.services.help.forOrder(shopper.id, order.id);
      expect(thread).toMatchObject({ status: 'answered' });
      expect(thread!.messages.map((m) => [m.fromStaff, m.body])).toEqual([
        [false, 'When will it arrive?'],
        [true, 'It leaves our Lagos atelier today.'],
      ]);
      const [mail] = await ctx.services.outbox.list(shopper.email, 1);
      expect(mail?.subject).toBe(`Your question about order ${order.trackingNumber}`);
      expect(mail?.text).toContain('It leaves our Lagos atelier today.');
    });

    it('a new request is acknowledged by mail with its reference', async () => {
      const shopper = await podShopper(ctx.services);
      const v = await podVariant(ctx.services, 'NG', 3, 2);
      const order = await placePodOrder(ctx.services, { userId: shopper.id, email: shopper.email, variantId: v.id });
      const asked = await ctx.services.help.ask(shopper.id, order.id, { topic: 'item', message: 'The clasp is loose.\nCan you help?' });
      expect(asked.reference).toMatch(/^HL-[0-9A-F]{8}$/);
      expect(asked.reference).toBe(`HL-${asked.id.replace(/-/g, '').slice(0, 8).toUpperCase()}`);
      const [mail] = await ctx.services.outbox.list(shopper.email, 1);
      expect(mail?.subject).toBe(`We have your question about order ${order.trackingNumber} (${asked.reference})`);
      expect(mail?.text).toContain(`Your reference is ${asked.reference}`);
      expect(mail?.text).toContain('A problem with an item:\nThe clasp is loose.\nCan you help?');
      expect(mail?.text).toContain(`/order-details/${order.id}#help`);
      expect(mail?.html).toContain('The clasp is loose.<br />Can you help?');
    });

    it("someone else's order reads as not found, and a few open requests at a time", async () => {
      const shopper = await podShopper(ctx.services);
      const other = await podShopper(ctx.services);
      const v = await podVariant(ctx.services, 'NG', 3, 1);
      const order = await placePodOrder(ctx.services, { userId: shopper.id, email: shopper.email, variantId: v.id });
      await expect(ctx.services.help.ask(other.id, order.id, { topic: 'other', message: 'Hi' })).rejects.toThrow('Order not found');
      for (let i = 0; i < 3; i++) await ctx.services.help.ask(shopper.id, order.id, { topic: 'other', message: `Question ${i}` });
      await expect(ctx.services.help.ask(shopper.id, order.id, { topic: 'other', message: 'One more' })).rejects.toThrow('You already have open requests about this order.');
    });
  });
}
