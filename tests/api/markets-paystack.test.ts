import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '@/lib/domain/money';
import { paystackSignature } from '@/lib/server/payments/paystack';
import { startFakePaystack, type FakePaystack } from '../support/fake-paystack';
import { startServer, type RunningServer } from '../support/server';
import { buyingClient } from './buying-client';

/** Each market pays through its own Paystack account (the fake has a naira one and a rand one). */
describe('checkout per market against the fake Paystack', () => {
  let fake: FakePaystack;
  let server: RunningServer;
  let api: ReturnType<typeof buyingClient>;
  let demo: { token: string; id: string };
  const zaKey = 'sk_test_south_africa_0123456789';

  beforeAll(async () => {
    fake = await startFakePaystack(undefined, [{ secretKey: zaKey, currency: 'ZAR' }]);
    server = await startServer('pglite', {
      PAYMENT_PROVIDER: 'paystack',
      PAYSTACK_SECRET_KEY_NG: fake.secretKey,
      PAYSTACK_SECRET_KEY_ZA: zaKey,
      PAYSTACK_BASE_URL: fake.baseUrl,
    });
    api = buyingClient(server.baseUrl);
    demo = await api.login();
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  const webhook = (reference: string, key: string) => {
    const raw = JSON.stringify({ event: 'charge.success', data: { reference } });
    return fetch(`${server.baseUrl}/api/v1/payments/paystack/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paystack-signature': paystackSignature(raw, key) },
      body: raw,
    });
  };

  /** A colour-only product sold in South Africa, in the cart; its rand price. */
  async function cartWithSouthAfricanProduct(skip: number) {
    await api.clear(demo.token, demo.id);
    const za = (await api.call('GET', '/products?limit=40&market=ZA')).body.data.docs as { id: number; price: number; sizeNames: string[] }[];
    const p = za.filter((x) => x.sizeNames.length === 0)[skip]!;
    const detail = (await api.call('GET', `/products/${p.id}?market=ZA`)).body.data;
    const v = detail.variants.find((x: { stock: number }) => x.stock > 0);
    const added = await api.call('POST', '/cart/add-to-cart?market=ZA', { token: demo.token, body: { productId: p.id, color: v.color, size: v.size, quantity: 1 } });
    expect(added.status).toBe(200);
    // the variant's own price (variants may cost more than the product's "from" price)
    return { price: v.price as number };
  }

  it('charges rand through the South African account; the webhook signed with that key places the order in ZAR', async () => {
    const { price } = await cartWithSouthAfricanProduct(0);
    // The demo shopper's default address is in Lagos: South Africa does not deliver there.
    const refused = await api.call('POST', '/orders/initiate?market=ZA', { token: demo.token, body: { deliveryOption: 'delivery' } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/Nigeria.*South Africa/);
    expect(refused.body.message).toMatch(/Shop in Nigeria \(₦ NGN\)/);

    const init = await api.call('POST', '/orders/initiate?market=ZA', { token: demo.token, body: { deliveryOption: 'pickup' } });
    expect(init.status).toBe(200);
    expect(init.body.data).toMatchObject({ currency: 'ZAR', amount: price });
    const reference: string = init.body.data.reference;
    const initCall = fake.calls.filter((c) => c.path === '/transaction/initialize').at(-1)!;
    expect(initCall.auth).toBe(`Bearer ${zaKey}`);
    // South Africa's channels (data on the market): card, Instant EFT, Capitec Pay.
    expect(initCall.body).toMatchObject({ currency: 'ZAR', amount: Math.round(price * 100), channels: ['card', 'eft', 'capitec_pay'] });

    fake.pay(reference);
    // A webhook signed with a key of no market is refused; the South African key is found by its signature.
    expect((await webhook(reference, 'sk_test_nobody')).status).toBe(401);
    // Nigeria's account cannot settle a rand payment: acknowledged (a retry would not help), not fulfilled.
    expect((await webhook(reference, fake.secretKey)).status).toBe(200);
    expect(fake.calls.some((c) => c.path === `/transaction/verify/${reference}`)).toBe(false);
    expect((await webhook(reference, zaKey)).status).toBe(200);
    const verified = fake.calls.filter((c) => c.path === `/transaction/verify/${reference}`).at(-1)!;
    expect(verified.auth).toBe(`Bearer ${zaKey}`);
    const orders = (await api.call('GET', '/orders/get-orders', { token: demo.token })).body.data.data;
    expect(orders[0]).toMatchObject({ currency: 'ZAR', total: price, deliveryFee: 0 });
    expect(orders[0].deliveryAddress.city).toBe('Johannesburg');
    // The confirmation mail shows the order in its own currency.
    const outbox = (await (await fetch(`${server.baseUrl}/api/v1/dev/outbox?to=demo%40maisonluxe.ng`)).json()) as { subject: string; text: string }[];
    const mail = outbox.find((m) => m.text.includes(orders[0].trackingNumber))!;
    expect(mail.text).toContain(`Total: ${formatMoney(price, 'ZAR')}`);
    expect(mail.text).not.toContain('₦');
  });

  it('charges naira through the Nigerian account; its webhook is signed with the Nigerian key', async () => {
    await api.clear(demo.token, demo.id);
    const v = await api.variant({ minStock: 1, sized: false, skip: 3 });
    await api.add(demo.token, v, 1);
    const cart = await api.cart(demo.token, demo.id);
    expect(cart.currency).toBe('NGN');
    const init = await api.call('POST', '/orders/initiate', { token: demo.token, body: {} });
    expect(init.body.data.currency).toBe('NGN');
    const reference: string = init.body.data.reference;
    expect(fake.calls.filter((c) => c.path === '/transaction/initialize').at(-1)!.auth).toBe(`Bearer ${fake.secretKey}`);
    fake.pay(reference);
    expect((await webhook(reference, fake.secretKey)).status).toBe(200);
    const orders = (await api.call('GET', '/orders/get-orders', { token: demo.token })).body.data.data;
    expect(orders.find((o: { currency: string }) => o.currency === 'NGN')).toMatchObject({ total: cart.total });
  });
});
