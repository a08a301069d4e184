/**
 * Payments are never lost: the server is killed (SIGKILL) after the provider has confirmed a
 * payment but before the order is written; after a restart on the same database the order
 * exists exactly once (placed by the reconciliation run at start), and the shopper's return or
 * Paystack's webhook retry gets that same order.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paystackSignature } from '@/lib/server/payments/paystack';
import { startFakePaystack, type FakePaystack } from '../support/fake-paystack';
import { newDataDir, startServer, type RunningServer } from '../support/server';
import { buyingClient, DEMO } from './buying-client';

/** Restarts pick up payments at once (the default waits 5 minutes). */
const RECONCILE_AT_ONCE = { PAYMENTS_RECONCILE_AFTER_MINUTES: '0' };

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

for (const driver of ['pglite', 'pg'] as const) {
  describe(`a crash between payment and order on ${driver}`, () => {
    const cleanups: (() => Promise<void> | void)[] = [];
    let fake: FakePaystack;

    beforeAll(async () => {
      fake = await startFakePaystack();
    });
    afterAll(async () => {
      for (const c of cleanups.reverse()) await c();
      await fake?.close();
    });

    /** A first server, and a way to start a second one on the same database after it dies. */
    async function crashableStore(env: Record<string, string>) {
      const dataDir = newDataDir({ prefix: 'store-crash-' });
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      const shared = { ...RECONCILE_AT_ONCE, ...env, ...(driver === 'pglite' ? { DATA_DIR: dataDir } : {}) };
      const first = await startServer(driver, shared);
      cleanups.push(() => first.stop());
      return {
        first,
        async restart(): Promise<RunningServer> {
          const second = await startServer(driver, shared, { databaseUrl: first.databaseUrl });
          cleanups.push(() => second.stop());
          return second;
        },
      };
    }

    /** Starts a checkout of one unit; returns the reference and what to compare after the restart. */
    async function startCheckout(baseUrl: string, skip: number) {
      const api = buyingClient(baseUrl);
      const demo = await api.login();
      await api.clear(demo.token, demo.id);
      const variant = await api.variant({ minStock: 2, sized: false, skip });
      await api.add(demo.token, variant, 1);
      const init = await api.call('POST', '/orders/initiate', { token: demo.token, body: {} });
      expect(init.status).toBe(200);
      return {
        reference: init.body.data.reference as string,
        variant,
        stockBefore: await api.stockOf(variant),
        ordersBefore: (await api.call('GET', '/orders/get-orders', { token: demo.token })).body.data.data.length as number,
      };
    }

    /** After the restart: the order is there without anyone asking, exactly once. */
    async function expectOneOrder(server: RunningServer, started: Awaited<ReturnType<typeof startCheckout>>) {
      const api = buyingClient(server.baseUrl);
      const demo = await api.login();
      const list = async () => (await api.call('GET', '/orders/get-orders', { token: demo.token })).body.data.data as { id: string; trackingNumber: string }[];
      const orders = await until('the reconciled order', async () => {
        const now = await list();
        return now.length > started.ordersBefore ? now : undefined;
      });
      expect(orders).toHaveLength(started.ordersBefore + 1);
      const placed = orders[0]!;
      // The shopper comes back to place-order: the same order, not a second one.
      const back = await api.call('POST', '/orders/place-order', { token: demo.token, body: { paymentReference: started.reference } });
      expect(back.status).toBe(200);
      expect(back.body.data.id).toBe(placed.id);
      expect(back.body.created).toBe(false);
      expect(await list()).toHaveLength(started.ordersBefore + 1);
      expect(await api.stockOf(started.variant)).toBe(started.stockBefore - 1);
      const outbox = (await api.call('GET', `/dev/outbox?to=${encodeURIComponent(DEMO.email)}`)).body as { subject: string }[];
      expect(outbox.filter((m) => m.subject === `Your Maison Luxe order ${placed.trackingNumber}`)).toHaveLength(1);
      return placed;
    }

    it('simulated provider: paid, then the server dies before place-order; the restart places the order once', async () => {
      const store = await crashableStore({});
      const started = await startCheckout(store.first.baseUrl, 0);
      // The provider confirms: the shopper pressed Pay; the server dies before the return to place-order.
      await buyingClient(store.first.baseUrl).answerSimulated(started.reference, 'pay');
      await store.first.kill();
      const second = await store.restart();
      await expectOneOrder(second, started);
    });

    it('simulated bank transfer: sent, then the server dies before the provider confirms it; the restart confirms it once', async () => {
      // Reconciliation waits an hour here: the order must come from the simulated provider's own confirmation.
      const store = await crashableStore({ SIMULATED_TRANSFER_DELAY_MS: '2000', PAYMENTS_RECONCILE_AFTER_MINUTES: '60' });
      const started = await startCheckout(store.first.baseUrl, 2);
      await buyingClient(store.first.baseUrl).answerSimulated(started.reference, 'sent');
      await store.first.kill();
      const second = await store.restart();
      await expectOneOrder(second, started);
    });

    it('Paystack: the server dies while fulfilling a confirmed payment (mid-verification); the restart places the order once', async () => {
      const store = await crashableStore({ PAYMENT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY: fake.secretKey, PAYSTACK_BASE_URL: fake.baseUrl });
      const started = await startCheckout(store.first.baseUrl, 1);
      fake.pay(started.reference);
      const raw = JSON.stringify({ event: 'charge.success', data: { reference: started.reference } });
      const hook = (baseUrl: string) =>
        fetch(`${baseUrl}/api/v1/payments/paystack/webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-paystack-signature': paystackSignature(raw, fake.secretKey) },
          body: raw,
        });
      const verifyPath = `/transaction/verify/${encodeURIComponent(started.reference)}`;
      const verifiesBefore = fake.calls.filter((c) => c.path === verifyPath).length;
      fake.verifyBehaviour.delayMs = 5_000;
      const first = hook(store.first.baseUrl).catch(() => 'connection lost');
      // Killed once fulfil is in flight: the provider has confirmed, the order is not written.
      await until('fulfilment to start', async () => (fake.calls.filter((c) => c.path === verifyPath).length > verifiesBefore ? true : undefined));
      await store.first.kill();
      fake.verifyBehaviour.delayMs = 0;
      expect(await first).toBe('connection lost');
      const second = await store.restart();
      const placed = await expectOneOrder(second, started);
      // Paystack retries the webhook it never got an answer to: answered, no second order.
      expect((await hook(second.baseUrl)).status).toBe(200);
      const api = buyingClient(second.baseUrl);
      const demo = await api.login();
      const orders = (await api.call('GET', '/orders/get-orders', { token: demo.token })).body.data.data as { id: string }[];
      expect(orders.filter((o) => o.id === placed.id)).toHaveLength(1);
      expect(orders).toHaveLength(started.ordersBefore + 1);
    });
  });
}
