import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../support/pdf-text';
import { startServer, type RunningServer } from '../support/server';
import { buyingClient, type Variant } from './buying-client';

for (const driver of ['pglite', 'pg'] as const) {
  describe(`checkout with the simulated provider on ${driver}`, () => {
    let server: RunningServer;
    let api: ReturnType<typeof buyingClient>;
    let demo: { token: string; id: string };
    let other: { token: string; id: string; email: string };
    let bag: Variant;
    let shoe: Variant;

    beforeAll(async () => {
      server = await startServer(driver);
      api = buyingClient(server.baseUrl);
      demo = await api.login();
      other = await api.verifiedUser('checkout');
      bag = await api.variant({ minStock: 3, sized: false });
      shoe = await api.variant({ minStock: 2, sized: true, skip: 2 });
    });
    afterAll(async () => {
      await server?.stop();
    });

    const initiate = (token: string, body: Record<string, unknown> = {}) => api.call('POST', '/orders/initiate', { token, body });

    it('needs a session and a non-empty cart', async () => {
      expect((await api.call('POST', '/orders/initiate', { body: {} })).status).toBe(401);
      expect((await api.call('POST', '/orders/place-order', { body: { paymentReference: 'x' } })).status).toBe(401);
      const empty = await initiate(other.token);
      expect(empty.status).toBe(400);
      expect(empty.body.message).toBe('Your cart is empty');
    });

    it('computes the amount on the server (client amount ignored) and only allows same-site callbacks', async () => {
      await api.add(demo.token, bag, 2);
      await api.add(demo.token, shoe, 1);
      const cart = await api.cart(demo.token, demo.id);
      const res = await initiate(demo.token, { amount: 1, email: 'attacker@example.com' });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('success');
      expect(res.body.data.reference).toMatch(/^ML-/);
      expect(res.body.data.authorization_url).toBe(`${server.baseUrl}/pay/simulated/${res.body.data.reference}`);
      expect(res.body.data.amount).toBeCloseTo(cart.total, 2);
      expect(cart.total).toBeCloseTo(bag.price * 2 + shoe.price + 10000, 2);
      // the payment page shows the server's amount
      const page = await (await fetch(res.body.data.authorization_url)).text();
      expect(page).toContain('Decline');
      expect(page).toContain(new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN', currencyDisplay: 'narrowSymbol', minimumFractionDigits: 0 }).format(cart.total));
      const evil = await initiate(demo.token, { callbackUrl: 'https://evil.example/steal' });
      expect(evil.status).toBe(400);
      const relative = await initiate(demo.token, { callbackUrl: '/place-order?paid=true' });
      expect(relative.status).toBe(200);
    });

    it('does not place an order before payment, after a decline, or for someone else', async () => {
      const { body } = await initiate(demo.token);
      const reference = body.data.reference;
      const early = await api.call('POST', '/orders/place-order', { token: demo.token, body: { paymentReference: reference } });
      expect(early.status).toBe(402);
      const notMine = await api.call('POST', '/orders/place-order', { token: other.token, body: { paymentReference: reference } });
      expect(notMine.status).toBe(403);
      const back = await api.answerSimulated(reference, 'decline');
      expect(back).toBe(`${server.baseUrl}/place-order?paid=true&trxref=${reference}&reference=${reference}`);
      const declined = await api.call('POST', '/orders/place-order', { token: demo.token, body: { paymentReference: reference } });
      expect(declined.status).toBe(402);
      expect(declined.body.message).toBe('The payment was declined.');
      // a declined payment cannot be answered again on the page
      const again = await fetch(`${server.baseUrl}/pay/simulated/${reference}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.baseUrl },
        body: 'outcome=pay',
        redirect: 'manual',
      });
      expect(again.status).toBe(200);
      expect((await api.call('POST', '/orders/place-order', { token: demo.token, body: { paymentReference: reference } })).status).toBe(402);
      const unknown = await api.call('POST', '/orders/place-order', { token: demo.token, body: { paymentReference: 'ML-NOPE' } });
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe('Payment reference not found.');
      expect((await api.call('GET', '/orders/get-orders', { token: demo.token })).body.data.data).toHaveLength(0);
    });

    it('places the order once after payment: stock taken, cart emptied, confirmation mailed', async () => {
      const bagStock = await api.stockOf(bag);
      const shoeStock = await api.stockOf(shoe);
      const cart = await api.cart(demo.token, demo.id);
      const { body } = await initiate(demo.token);
      const reference = body.data.reference;
      await api.answerSimulated(reference, 'pay');
      const placed = await api.call('POST', '/orders/place-order', { token: demo.token, body: { cartId: cart.id, paymentReference: reference } });
      expect(placed.status).toBe(200);
      expect(placed.body).toMatchObject({ status: true, message: 'Order placed successfully!' });
      const order = placed.body.data;
      expect(order.trackingNumber).toMatch(/^ML-[A-Z2-7]{8}$/);
      expect(order).toMatchObject({ status: 'pending', deliveryOption: 'delivery', itemCount: 3, deliveryFee: 10000 });
      expect(order.total).toBeCloseTo(cart.total, 2);
      expect(order.deliveryAddress).toMatchObject({ address: '14 Bourdillon Road' });
      // repeated calls give the same order
      const again = await api.call('POST', '/orders/place-order', { token: demo.token, body: { paymentReference: reference } });
      expect(again.body.data.id).toBe(order.id);
      expect(await api.stockOf(bag)).toBe(bagStock - 2);
      expect(await api.stockOf(shoe)).toBe(shoeStock - 1);
      expect((await api.cart(demo.token, demo.id)).items).toHaveLength(0);
      const mail = await api.lastMail('demo@maisonluxe.ng');
      expect(mail.subject).toBe(`Your Maison Luxe order ${order.trackingNumber}`);
      expect(mail.text).toContain(bag.name);
      expect(mail.text).toMatch(/Total: ₦/);
      const orders = await api.call('GET', '/orders/get-orders', { token: demo.token });
      expect(orders.body.data.data).toHaveLength(1);
    });

    it('a company given at checkout, with its TIN, is on the tax invoice; a TIN of another shape or without its company is refused', async () => {
      await api.clear(demo.token, demo.id);
      await api.add(demo.token, bag, 1);
      const badTin = await initiate(demo.token, { company: 'Adébáyọ̀ Interiors Ltd', taxNumber: '1234-5678' });
      expect(badTin.status).toBe(400);
      expect(badTin.body.message).toContain('A Nigerian TIN is 8 digits, a hyphen and 4 digits (12345678-0001), or 10 digits');
      const noCompany = await initiate(demo.token, { company: '  ', taxNumber: '12345678-0001' });
      expect(noCompany.status).toBe(400);
      expect(noCompany.body.message).toContain('Please enter the company name the tax number belongs to');
      const { body } = await initiate(demo.token, { company: 'Adébáyọ̀ Interiors Ltd', taxNumber: '1234 5678-0001' });
      await api.answerSimulated(body.data.reference, 'pay');
      const placed = await api.call('POST', '/orders/place-order', { token: demo.token, body: { paymentReference: body.data.reference } });
      expect(placed.status).toBe(200);
      const docs = await api.call('GET', `/orders/${placed.body.data.id}/documents`, { token: demo.token });
      const invoice = docs.body.data.documents.find((d: { kind: string }) => d.kind === 'invoice');
      const pdf = await fetch(`${server.baseUrl}${invoice.pdf}`, { headers: { authorization: `Bearer ${demo.token}` } });
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      const text = await pdfText(new Uint8Array(await pdf.arrayBuffer()));
      expect(text).toContain('Adébáyọ̀ Interiors Ltd');
      expect(text).toContain('Attn: ');
      expect(text).toContain('TIN 12345678-0001');
    });

    it('an order goes to any saved address chosen for it, without touching the default; the next order goes to the default again', async () => {
      const shopper = await api.verifiedUser('order-address');
      const at = (address: string) => ({ name: 'Ada Obi', country: 'nigeria', state: 'Lagos', city: 'Ikeja', address, zipCode: '100271' });
      const home = (await api.call('POST', '/address/create', { token: shopper.token, body: at('12 Allen Avenue') })).body.data;
      const office = (await api.call('POST', '/address/create', { token: shopper.token, body: at('3 Adeola Odeku Street') })).body.data;
      await api.add(shopper.token, bag, 1);
      const chosen = await api.call('POST', '/cart/delivery-address', { token: shopper.token, body: { addressId: office.id } });
      expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
      expect(chosen.body).toMatchObject({ message: 'This order will be delivered to the address you chose.', data: { deliveryOption: 'delivery', deliveryAddress: { id: office.id } } });
      const book = (await api.call('GET', `/address/get-all/${shopper.id}`, { token: shopper.token })).body.list as { id: string; active: boolean }[];
      expect(book.find((a) => a.active)!.id).toBe(home.id);
      // Not an address at all, or another shopper's: refused, never a server error.
      expect((await api.call('POST', '/cart/delivery-address', { token: shopper.token, body: { addressId: 'x' } })).status).toBe(400);
      const strangers = (await api.call('GET', `/address/get-all/${demo.id}`, { token: demo.token })).body.list as { id: string }[];
      expect((await api.call('POST', '/cart/delivery-address', { token: shopper.token, body: { addressId: strangers[0]!.id } })).status).toBe(404);
      expect((await api.call('POST', '/cart/delivery-address', { body: { addressId: office.id } })).status).toBe(401);

      const { body } = await initiate(shopper.token);
      await api.answerSimulated(body.data.reference, 'pay');
      const placed = await api.call('POST', '/orders/place-order', { token: shopper.token, body: { paymentReference: body.data.reference } });
      expect(placed.body.data.deliveryAddress).toMatchObject({ address: '3 Adeola Odeku Street' });
      // The choice was that order's: the next cart goes to the default.
      await api.add(shopper.token, bag, 1);
      expect((await api.cart(shopper.token, shopper.id)).deliveryAddress).toMatchObject({ id: home.id });
    });

    it('refuses a cart id that is not the shopper\'s', async () => {
      await api.add(other.token, bag, 1);
      const otherCart = await api.cart(other.token, other.id);
      await api.add(demo.token, bag, 1);
      const { body } = await initiate(demo.token);
      await api.answerSimulated(body.data.reference, 'pay');
      const res = await api.call('POST', '/orders/place-order', { token: demo.token, body: { cartId: otherCart.id, paymentReference: body.data.reference } });
      expect(res.status).toBe(403);
    });

    it('pickup orders are free of shipping and use the store address', async () => {
      await api.clear(other.token, other.id);
      await api.add(other.token, shoe, 1);
      const cart = await api.cart(other.token, other.id);
      expect(cart.deliveryOption).toBe('pickup');
      const { body } = await initiate(other.token);
      await api.answerSimulated(body.data.reference, 'pay');
      const placed = await api.call('POST', '/orders/place-order', { token: other.token, body: { paymentReference: body.data.reference } });
      expect(placed.body.data).toMatchObject({ deliveryOption: 'pickup', deliveryFee: 0, deliveryAddress: { name: 'Maison Luxe Ikoyi' } });
      expect(placed.body.data.total).toBe(shoe.price);
    });

    it('refuses to start paying for more than the stock', async () => {
      await api.clear(other.token, other.id);
      const scarce = await api.variant({ minStock: 1, sized: false, skip: 6 });
      await api.add(other.token, scarce, 1);
      // demo buys the remaining stock first
      await api.clear(demo.token, demo.id);
      await api.add(demo.token, scarce, Math.min(scarce.stock, 10));
      if (scarce.stock > 10) return; // nothing to exhaust within the per-line limit
      const first = await initiate(demo.token);
      await api.answerSimulated(first.body.data.reference, 'pay');
      expect((await api.call('POST', '/orders/place-order', { token: demo.token, body: { paymentReference: first.body.data.reference } })).status).toBe(200);
      const res = await initiate(other.token);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/out of stock/);
    });

    it('charges Express nothing at home from the market\'s threshold, as the cart offered, and keeps the courier\'s details on the order', async () => {
      const shopper = await api.verifiedUser('express');
      const home = { name: 'Ada Obi', country: 'nigeria', state: 'Lagos', city: 'Ikeja', address: '12 Allen Avenue', landmark: 'Behind the bank', deliveryPhone: '+234 803 000 0000' };
      expect((await api.call('POST', '/address/create', { token: shopper.token, body: home })).status).toBe(201);
      const dear = (await api.variants({ minStock: 2, sized: false, count: 10 })).sort((a, b) => b.price - a.price)[0]!;
      await api.add(shopper.token, dear, Math.min(10, dear.stock, Math.ceil(2_500_000 / dear.price)));
      let cart = await api.cart(shopper.token, shopper.id);
      expect(cart.deliverySpeed).toBe('standard');
      const express = await api.call('PUT', `/cart/delivery-option/${cart.id}`, { token: shopper.token, body: { deliveryOption: 'delivery', deliverySpeed: 'express' } });
      const above = cart.subtotal >= 2_500_000;
      expect(express.body.data.deliveryFee).toBe(above ? 0 : 15000);
      cart = await api.cart(shopper.token, shopper.id);
      expect(cart.deliverySpeeds.find((s: { id: string }) => s.id === 'express').fee).toBe(above ? 0 : 15000);
      const { body } = await initiate(shopper.token);
      expect(body.data.amount).toBeCloseTo(cart.subtotal + (above ? 0 : 15000), 2);
      await api.answerSimulated(body.data.reference, 'pay');
      const placed = await api.call('POST', '/orders/place-order', { token: shopper.token, body: { paymentReference: body.data.reference } });
      expect(placed.body.data).toMatchObject({ deliveryFee: above ? 0 : 15000, deliveryAddress: { landmark: 'Behind the bank', deliveryPhone: '+234 803 000 0000', zipCode: '' } });
      expect(above, `a cart of ${cart.subtotal} should reach the threshold`).toBe(true);
    });
  });
}
