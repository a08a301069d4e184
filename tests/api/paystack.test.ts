import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaystackProvider, isValidPaystackSignature, paystackSignature } from '@/lib/server/payments/paystack';
import { startFakePaystack, type FakePaystack } from '../support/fake-paystack';
import { startServer, type RunningServer } from '../support/server';
import { buyingClient } from './buying-client';

describe('Paystack adapter against the fake Paystack server', () => {
  let fake: FakePaystack;
  beforeAll(async () => {
    fake = await startFakePaystack();
  });
  afterAll(async () => {
    await fake.close();
  });

  const provider = () => createPaystackProvider({ secretKey: fake.secretKey, baseUrl: fake.baseUrl });
  const init = (reference: string, amountMinor = 2_500_000) =>
    provider().initialize({ reference, email: 'ada@example.com', amountMinor, currency: 'NGN', callbackUrl: 'http://store.test/place-order?paid=true', channels: ['card', 'bank_transfer', 'ussd', 'bank'] });

  it('initializes with the amount in subunits and the secret key', async () => {
    const { authorizationUrl } = await init('ref-init');
    expect(authorizationUrl).toMatch(new RegExp(`^${fake.baseUrl}/checkout/`));
    const call = fake.calls.find((c) => c.path === '/transaction/initialize')!;
    expect(call.auth).toBe(`Bearer ${fake.secretKey}`);
    expect(call.body).toEqual({
      email: 'ada@example.com',
      amount: 2_500_000,
      currency: 'NGN',
      reference: 'ref-init',
      callback_url: 'http://store.test/place-order?paid=true',
      channels: ['card', 'bank_transfer', 'ussd', 'bank'],
    });
  });

  it('reports a refused initialization as a payment failure', async () => {
    await expect(init('ref-init')).rejects.toMatchObject({ code: 'payment_failed', message: 'Failed to initialize payment.' });
    const wrongKey = createPaystackProvider({ secretKey: 'sk_test_wrong', baseUrl: fake.baseUrl });
    await expect(wrongKey.initialize({ reference: 'r2', email: 'a@b.co', amountMinor: 100, currency: 'NGN', callbackUrl: 'http://x', channels: ['card'] })).rejects.toMatchObject({
      code: 'payment_failed',
    });
  });

  it('a keyed refund whose answer was lost (timed out after Paystack made it) is found by its note when asked again: one refund', async () => {
    await init('ref-keyed', 2_500_000);
    fake.pay('ref-keyed');
    const key = '0b6f3c1e-5d2a-4f7b-9c8e-1a2b3c4d5e6f';
    fake.refundBehaviour.delayMs = 400;
    try {
      const impatient = createPaystackProvider({ secretKey: fake.secretKey, baseUrl: fake.baseUrl, timeoutMs: 100 });
      await expect(impatient.refund('ref-keyed', 700_000, 'NGN', key)).rejects.toMatchObject({ code: 'unavailable' });
      await new Promise((r) => setTimeout(r, 400));
    } finally {
      fake.refundBehaviour.delayMs = 0;
    }
    expect(fake.refunds.filter((r) => r.reference === 'ref-keyed')).toHaveLength(1);
    // Asked again with the same key: Paystack's list of the transaction's refunds has it; nothing is sent.
    const posts = () => fake.calls.filter((c) => c.method === 'POST' && c.path === '/refund').length;
    const before = posts();
    const again = await provider().refund('ref-keyed', 700_000, 'NGN', key);
    expect(again).toEqual({ refundId: String(fake.refunds.find((r) => r.reference === 'ref-keyed')!.id), amountMinor: 700_000 });
    expect(posts()).toBe(before);
    expect(fake.refunds.filter((r) => r.reference === 'ref-keyed')).toEqual([expect.objectContaining({ amount: 700_000, merchantNote: `refund ${key}` })]);
    expect(fake.calls.filter((c) => c.method === 'GET' && c.path === '/refund').at(-1)).toMatchObject({ auth: `Bearer ${fake.secretKey}` });
    // Another key of the same payment is a refund of its own.
    const other = await provider().refund('ref-keyed', 300_000, 'NGN', '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f');
    expect(other.refundId).not.toBe(again.refundId);
    expect(fake.refunds.filter((r) => r.reference === 'ref-keyed').map((r) => r.amount)).toEqual([700_000, 300_000]);
  });

  it('verifies success, failed, abandoned and amount-mismatch transactions', async () => {
    await init('ref-ok');
    fake.pay('ref-ok');
    expect(await provider().verify('ref-ok')).toEqual({ status: 'success', amountMinor: 2_500_000, currency: 'NGN', channel: 'card' });
    await init('ref-failed');
    fake.fail('ref-failed');
    expect((await provider().verify('ref-failed')).status).toBe('failed');
    await init('ref-abandoned');
    expect((await provider().verify('ref-abandoned')).status).toBe('abandoned');
    await init('ref-short');
    fake.payAmount('ref-short', 100);
    expect(await provider().verify('ref-short')).toEqual({ status: 'success', amountMinor: 100, currency: 'NGN', channel: 'card' });
    expect((await provider().verify('ref-unknown')).status).toBe('unknown');
  });

  it('verifies a bank transfer pending, then successful, or expired, with its channel', async () => {
    await init('ref-transfer');
    fake.sendTransfer('ref-transfer');
    expect(await provider().verify('ref-transfer')).toEqual({ status: 'pending', amountMinor: 2_500_000, currency: 'NGN', channel: 'bank_transfer' });
    expect(await fake.confirmTransfer('ref-transfer')).toBeNull();
    expect(await provider().verify('ref-transfer')).toEqual({ status: 'success', amountMinor: 2_500_000, currency: 'NGN', channel: 'bank_transfer' });
    await init('ref-expired');
    fake.sendTransfer('ref-expired');
    fake.expireTransfer('ref-expired');
    expect((await provider().verify('ref-expired')).status).toBe('abandoned');
    // A channel the store does not know (Paystack's qr, mobile_money…) is reported as none.
    await init('ref-qr');
    fake.pay('ref-qr');
    fake.transactions.get('ref-qr')!.channel = 'qr';
    expect((await provider().verify('ref-qr')).channel).toBeNull();
  });

  it('refunds in full by default, or a part of the payment in subunits (POST /refund)', async () => {
    await init('ref-refund', 2_500_000);
    fake.pay('ref-refund');
    const part = await provider().refund('ref-refund', 500_000);
    expect(part).toEqual({ refundId: expect.any(String), amountMinor: 500_000 });
    const call = fake.calls.filter((c) => c.path === '/refund').at(-1)!;
    expect(call).toMatchObject({ method: 'POST', auth: `Bearer ${fake.secretKey}`, body: { transaction: 'ref-refund', amount: 500_000 } });
    const rest = await provider().refund('ref-refund');
    expect(fake.calls.filter((c) => c.path === '/refund').at(-1)!.body).toEqual({ transaction: 'ref-refund' });
    expect(rest.amountMinor).toBe(2_000_000);
    expect(rest.refundId).not.toBe(part.refundId);
    expect(fake.refunds.filter((r) => r.reference === 'ref-refund').map((r) => r.amount)).toEqual([500_000, 2_000_000]);
    // Paystack refuses what cannot be refunded: reported as a payment failure with its message.
    await expect(provider().refund('ref-refund')).rejects.toMatchObject({ code: 'payment_failed', message: expect.stringMatching(/fully reversed/) });
    await init('ref-unpaid');
    await expect(provider().refund('ref-unpaid')).rejects.toMatchObject({ code: 'payment_failed' });
    const down = createPaystackProvider({ secretKey: 'k', baseUrl: 'http://127.0.0.1:9', timeoutMs: 2000 });
    await expect(down.refund('ref-refund')).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('reports an unreachable provider as unavailable', async () => {
    const down = createPaystackProvider({ secretKey: 'k', baseUrl: 'http://127.0.0.1:9', timeoutMs: 2000 });
    await expect(down.verify('x')).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('checks webhook signatures (HMAC-SHA512 of the raw body) in constant time', () => {
    const body = JSON.stringify({ event: 'charge.success', data: { reference: 'r' } });
    const sig = paystackSignature(body, 'secret');
    expect(sig).toMatch(/^[a-f0-9]{128}$/);
    expect(isValidPaystackSignature(body, sig, 'secret')).toBe(true);
    expect(isValidPaystackSignature(body, sig, 'other-secret')).toBe(false);
    expect(isValidPaystackSignature(body + ' ', sig, 'secret')).toBe(false);
    expect(isValidPaystackSignature(body, sig.slice(0, 64), 'secret')).toBe(false);
    expect(isValidPaystackSignature(body, null, 'secret')).toBe(false);
  });
});

for (const driver of ['pglite', 'pg'] as const) {
  describe(`checkout with Paystack (fake) on ${driver}`, () => {
    let fake: FakePaystack;
    let server: RunningServer;
    let api: ReturnType<typeof buyingClient>;
    let demo: { token: string; id: string };

    beforeAll(async () => {
      fake = await startFakePaystack();
      server = await startServer(driver, { PAYMENT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY: fake.secretKey, PAYSTACK_BASE_URL: fake.baseUrl });
      api = buyingClient(server.baseUrl);
      demo = await api.login();
    });
    afterAll(async () => {
      await server?.stop();
      await fake?.close();
    });

    const webhook = (payload: unknown, signature?: string) => {
      const raw = JSON.stringify(payload);
      return fetch(`${server.baseUrl}/api/v1/payments/paystack/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-paystack-signature': signature ?? paystackSignature(raw, fake.secretKey) },
        body: raw,
      });
    };

    async function checkout(quantity: number, skip = 0) {
      await api.clear(demo.token, demo.id);
      const v = await api.variant({ minStock: quantity, sized: false, skip });
      await api.add(demo.token, v!, quantity);
      const cart = await api.cart(demo.token, demo.id);
      const init = await api.call('POST', '/orders/initiate', { token: demo.token, body: { amount: 1 } });
      expect(init.body.status).toBe('success');
      const reference: string = init.body.data.reference;
      expect(init.body.data.authorization_url).toMatch(new RegExp(`^${fake.baseUrl}/checkout/`));
      // Paystack was asked for the server's total in kobo, not the client's amount
      expect(fake.transactions.get(reference)!.amount).toBe(Math.round(cart.total * 100));
      expect(fake.transactions.get(reference)!.callbackUrl).toBe(`${server.baseUrl}/place-order?paid=true`);
      return { variant: v!, reference, cart };
    }

    it('refuses webhooks with a bad or missing signature (401)', async () => {
      const payload = { event: 'charge.success', data: { reference: 'whatever' } };
      expect((await webhook(payload, 'f'.repeat(128))).status).toBe(401);
      expect((await webhook(payload, '')).status).toBe(401);
      expect((await webhook(payload, paystackSignature(JSON.stringify(payload), 'sk_test_wrong'))).status).toBe(401);
      const ignored = await webhook({ event: 'transfer.success', data: { reference: 'x' } });
      expect(ignored.status).toBe(200);
    });

    it('does not place orders for failed, abandoned or short payments', async () => {
      const failed = await checkout(1);
      fake.fail(failed.reference);
      const r1 = await api.call('POST', '/orders/place-order', { token: demo.token, body: { paymentReference: failed.reference } });
      expect(r1.status).toBe(402);
      const abandoned = await checkout(1);
      expect((await api.call('POST', '/orders/place-order', { token: demo.token, body: { paymentReference: abandoned.reference } })).status).toBe(402);
      const short = await checkout(1);
      fake.payAmount(short.reference, 100);
      expect((await webhook({ event: 'charge.success', data: { reference: short.reference } })).status).toBe(200);
      const r3 = await api.call('POST', '/orders/place-order', { token: demo.token, body: { paymentReference: short.reference } });
      expect(r3.status).toBe(402);
      expect(r3.body.message).toMatch(/refunded/);
      expect((await api.call('GET', '/orders/get-orders', { token: demo.token })).body.data.data).toHaveLength(0);
    });

    it('a bank transfer: pending when the shopper returns, the order (and its mail) only when Paystack confirms it by webhook', async () => {
      const { reference, variant } = await checkout(1, 7);
      expect(fake.transactions.get(reference)!.channels).toEqual(['card', 'bank_transfer', 'ussd', 'bank']);
      const before = await api.stockOf(variant);
      const ordersBefore = (await api.call('GET', '/orders/get-orders', { token: demo.token })).body.data.data.length;
      fake.sendTransfer(reference);
      const early = await api.call('POST', '/orders/place-order', { token: demo.token, body: { paymentReference: reference } });
      expect(early.status).toBe(402);
      expect((await api.call('GET', '/orders/get-orders', { token: demo.token })).body.data.data).toHaveLength(ordersBefore);
      expect(await api.stockOf(variant)).toBe(before);
      fake.webhookUrl = `${server.baseUrl}/api/v1/payments/paystack/webhook`;
      try {
        expect(await fake.confirmTransfer(reference)).toBe(200);
      } finally {
        fake.webhookUrl = null;
      }
      const orders = (await api.call('GET', '/orders/get-orders', { token: demo.token })).body.data.data;
      expect(orders).toHaveLength(ordersBefore + 1);
      expect(await api.stockOf(variant)).toBe(before - 1);
      const placed = await api.call('POST', '/orders/place-order', { token: demo.token, body: { paymentReference: reference } });
      expect(placed.status).toBe(200);
      const outbox = (await api.call('GET', `/dev/outbox?to=${encodeURIComponent('demo@maisonluxe.ng')}`)).body;
      expect(outbox.filter((m: any) => m.subject === `Your Maison Luxe order ${placed.body.data.trackingNumber}`)).toHaveLength(1);
    });

    it('places the order from the webhook alone', async () => {
      const { reference, variant } = await checkout(1, 1);
      const before = await api.stockOf(variant);
      const ordersBefore = (await api.call('GET', '/orders/get-orders', { token: demo.token })).body.data.data.length;
      fake.pay(reference);
      expect((await webhook({ event: 'charge.success', data: { reference } })).status).toBe(200);
      const orders = (await api.call('GET', '/orders/get-orders', { token: demo.token })).body.data.data;
      expect(orders).toHaveLength(ordersBefore + 1);
      expect(await api.stockOf(variant)).toBe(before - 1);
      // the shopper's return afterwards gets the same order
      const placed = await api.call('POST', '/orders/place-order', { token: demo.token, body: { paymentReference: reference } });
      expect(placed.body.data.id).toBe(orders[0].id);
    });

    it('places exactly one order when place-order and the webhook race many times', async () => {
      const { reference, variant } = await checkout(2, 2);
      const before = await api.stockOf(variant);
      const ordersBefore = (await api.call('GET', '/orders/get-orders', { token: demo.token })).body.data.data.length;
      fake.pay(reference);
      const calls: Promise<{ kind: string; status: number; orderId?: string }>[] = [];
      for (let i = 0; i < 15; i++) {
        calls.push(
          api
            .call('POST', '/orders/place-order', { token: demo.token, body: { paymentReference: reference } })
            .then((r) => ({ kind: 'place', status: r.status, orderId: r.body.data?.id })),
        );
        calls.push(webhook({ event: 'charge.success', data: { reference } }).then((r) => ({ kind: 'hook', status: r.status })));
      }
      const results = await Promise.all(calls);
      for (const r of results) expect(r.status).toBe(200);
      const ids = new Set(results.filter((r) => r.kind === 'place').map((r) => r.orderId));
      expect(ids.size).toBe(1);
      const orders = (await api.call('GET', '/orders/get-orders', { token: demo.token })).body.data.data;
      expect(orders).toHaveLength(ordersBefore + 1);
      expect(await api.stockOf(variant)).toBe(before - 2);
      const placed = orders.find((o: any) => o.id === [...ids][0]);
      expect(placed).toBeTruthy();
      const outbox = (await api.call('GET', `/dev/outbox?to=${encodeURIComponent('demo@maisonluxe.ng')}`)).body;
      const confirmations = outbox.filter((m: any) => m.subject === `Your Maison Luxe order ${placed.trackingNumber}`);
      expect(confirmations).toHaveLength(1);
    });

    it('answers non-2xx when fulfilment did not finish (provider slow, then down), so Paystack retries', async () => {
      const { reference } = await checkout(1, 3);
      const ordersBefore = (await api.call('GET', '/orders/get-orders', { token: demo.token })).body.data.data.length;
      fake.pay(reference);
      Object.assign(fake.verifyBehaviour, { delayMs: 3_500, status: 500 });
      try {
        const res = await webhook({ event: 'charge.success', data: { reference } });
        expect(res.status).toBe(503);
      } finally {
        Object.assign(fake.verifyBehaviour, { delayMs: 0, status: 200 });
      }
      expect((await api.call('GET', '/orders/get-orders', { token: demo.token })).body.data.data).toHaveLength(ordersBefore);
      // Paystack's retry, once the provider answers, places the order.
      expect((await webhook({ event: 'charge.success', data: { reference } })).status).toBe(200);
      expect((await api.call('GET', '/orders/get-orders', { token: demo.token })).body.data.data).toHaveLength(ordersBefore + 1);
    });

    it('answers 200 only once the order exists, however slow the provider is', async () => {
      const { reference, variant } = await checkout(1, 4);
      const before = await api.stockOf(variant);
      const ordersBefore = (await api.call('GET', '/orders/get-orders', { token: demo.token })).body.data.data.length;
      fake.pay(reference);
      fake.verifyBehaviour.delayMs = 3_500;
      try {
        expect((await webhook({ event: 'charge.success', data: { reference } })).status).toBe(200);
      } finally {
        fake.verifyBehaviour.delayMs = 0;
      }
      // Answered 200: the order is there, not still being written.
      expect((await api.call('GET', '/orders/get-orders', { token: demo.token })).body.data.data).toHaveLength(ordersBefore + 1);
      expect(await api.stockOf(variant)).toBe(before - 1);
    });

    if (driver === 'pg') {
      it('refunds through Paystack with the staff command, once: npm run payments -- refund REFERENCE [AMOUNT]', async () => {
        const env = {
          ...process.env,
          DATABASE_URL: server.databaseUrl!,
          PAYMENT_PROVIDER: 'paystack',
          PAYSTACK_SECRET_KEY: fake.secretKey,
          PAYSTACK_BASE_URL: fake.baseUrl,
          LOG_LEVEL: 'warn',
        };
        const payments = (...args: string[]) => promisify(execFile)('npm', ['run', '-s', 'payments', '--', ...args], { env });
        // Paid short: it can never become an order, so it waits for a refund.
        const short = await checkout(1, 5);
        fake.payAmount(short.reference, 100);
        expect((await webhook({ event: 'charge.success', data: { reference: short.reference } })).status).toBe(200);
        const first = await payments('refund', short.reference);
        expect(first.stdout).toMatch(new RegExp(`^${short.reference}: refunded .*\\(refunded, refund \\d+\\)`));
        expect(fake.refunds.filter((r) => r.reference === short.reference)).toEqual([
          { id: expect.any(Number), reference: short.reference, requested: undefined, amount: 100, merchantNote: null, customerNote: null },
        ]);
        const again = await payments('refund', short.reference);
        expect(again.stdout).toMatch(/already refunded, nothing sent/);
        expect(fake.refunds.filter((r) => r.reference === short.reference)).toHaveLength(1);
        // A part of a fulfilled order's payment, in major units.
        const paid = await checkout(1, 6);
        fake.pay(paid.reference);
        expect((await webhook({ event: 'charge.success', data: { reference: paid.reference } })).status).toBe(200);
        const part = await payments('refund', paid.reference, '10.50');
        expect(part.stdout).toMatch(/partially_refunded/);
        expect(fake.refunds.filter((r) => r.reference === paid.reference)).toEqual([
          { id: expect.any(Number), reference: paid.reference, requested: 1050, amount: 1050, merchantNote: null, customerNote: null },
        ]);
        await expect(payments('refund', 'ML-NOT-A-PAYMENT')).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/Payment reference not found/) });
      });
    }
  });
}
