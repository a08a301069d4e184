import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePaystack, type FakePaystack } from '../support/fake-paystack';
import { startServer, type RunningServer } from '../support/server';
import { buyingClient } from './buying-client';
import { OWNER } from './account-client';


/** Staff refund a paid order from the back office, through Paystack (a local fake), in part and then in full. */
for (const driver of ['pglite', 'pg'] as const) {
  describe(`back-office refunds on ${driver}`, () => {
    let server: RunningServer;
    let paystack: FakePaystack;
    let api: ReturnType<typeof buyingClient>;
    let owner: string;

    beforeAll(async () => {
      paystack = await startFakePaystack();
      server = await startServer(driver, { PAYMENT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY: paystack.secretKey, PAYSTACK_BASE_URL: paystack.baseUrl });
      api = buyingClient(server.baseUrl);
      owner = await api.signInOwner();
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
      await paystack?.close();
    });

    it('a staff cancel of a paid order refunds the payment by default, or gives store credit when staff choose', async () => {
      async function paidOrder() {
        const shopper = await api.login();
        await api.clear(shopper.token, shopper.id);
        await api.add(shopper.token, await api.variant({ minStock: 1 }), 1);
        const init = await api.call('POST', '/orders/initiate', { token: shopper.token, body: {} });
        const reference = init.body.data.reference as string;
        paystack.pay(reference);
        const placed = await api.call('POST', '/orders/place-order', { token: shopper.token, body: { paymentReference: reference } });
        expect(placed.status).toBe(200);
        return { id: placed.body.data.id as string, paid: paystack.transactions.get(reference)!.amount, reference };
      }
      const toPayment = await paidOrder();
      const before = paystack.refunds.length;
      const cancelled = await api.call('POST', `/admin/orders/${toPayment.id}/status`, { token: owner, body: { status: 'cancelled' } });
      expect(cancelled.status).toBe(200);
      expect(paystack.refunds.slice(before)).toEqual([expect.objectContaining({ reference: toPayment.reference, amount: toPayment.paid })]);
      const sent = paystack.calls.filter((c) => c.method === 'POST' && c.path === '/refund').at(-1)!.body as { merchant_note?: string };
      expect(sent.merchant_note).toMatch(/^refund [0-9a-f-]{36}$/);

      const toCredit = await paidOrder();
      expect((await api.call('POST', `/admin/orders/${toCredit.id}/status`, { token: owner, body: { status: 'cancelled', refundTo: 'elsewhere' } })).status).toBe(400);
      const credited = await api.call('POST', `/admin/orders/${toCredit.id}/status`, { token: owner, body: { status: 'cancelled', refundTo: 'store_credit' } });
      expect(credited.status).toBe(200);
      expect(paystack.refunds.filter((r) => r.reference === toCredit.reference)).toEqual([]);
      const list = await api.call('GET', '/admin/refunds', { token: owner });
      expect(list.body.data).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ orderId: toPayment.id, destination: 'payment', status: 'paid', amount: toPayment.paid / 100 }),
          expect.objectContaining({ orderId: toCredit.id, destination: 'store_credit', status: 'paid', amount: toCredit.paid / 100 }),
        ]),
      );
    });

    it('refunds part, then the rest, never more than was paid, and records it', async () => {
      const refundCallsBefore = paystack.calls.filter((c) => c.method === 'POST' && c.path === '/refund').length;
      const shopper = await api.login();
      await api.clear(shopper.token, shopper.id);
      await api.add(shopper.token, await api.variant({ minStock: 1 }), 1);
      const init = await api.call('POST', '/orders/initiate', { token: shopper.token, body: {} });
      expect(init.status).toBe(200);
      const reference = init.body.data.reference as string;
      paystack.pay(reference);
      const placed = await api.call('POST', '/orders/place-order', { token: shopper.token, body: { paymentReference: reference } });
      expect(placed.status).toBe(200);
      const orderId = placed.body.data.id as string;
      const paid = paystack.transactions.get(reference)!.amount;

      const part = await api.call('POST', `/admin/orders/${orderId}/refund`, { token: owner, body: { amount: 1000, refundedBefore: 0 } });
      expect(part.status).toBe(200);
      expect(part.body.data).toMatchObject({ status: 'partially_refunded', refundedNowMinor: 100_000 });
      // The same form sent again (a double click, a reload) refunds nothing more.
      const resent = await api.call('POST', `/admin/orders/${orderId}/refund`, { token: owner, body: { amount: 1000, refundedBefore: 0 } });
      expect(resent.status).toBe(409);
      expect(resent.body.message).toMatch(/refunded since the page was opened/);
      const rest = await api.call('POST', `/admin/orders/${orderId}/refund`, { token: owner, body: {} });
      expect(rest.status).toBe(200);
      expect(rest.body.data).toMatchObject({ status: 'refunded', refundedMinor: paid });
      const again = await api.call('POST', `/admin/orders/${orderId}/refund`, { token: owner, body: {} });
      expect(again.body.data.refundedNowMinor).toBe(0);

      const refunds = paystack.calls.filter((c) => c.method === 'POST' && c.path === '/refund').slice(refundCallsBefore);
      expect(refunds.map((c) => (c.body as { amount?: number }).amount)).toEqual([100_000, paid - 100_000]);
      const audit = await api.call('GET', '/admin/audit', { token: owner });
      expect(JSON.stringify(audit.body)).toContain('order.refund');
    });

    it('a refund whose provider answer is lost still leaves its claim (and the unknown outcome) in the audit log', async () => {
      const shopper = await api.login();
      await api.clear(shopper.token, shopper.id);
      await api.add(shopper.token, await api.variant({ minStock: 1 }), 1);
      const init = await api.call('POST', '/orders/initiate', { token: shopper.token, body: {} });
      const reference = init.body.data.reference as string;
      paystack.pay(reference);
      const placed = await api.call('POST', '/orders/place-order', { token: shopper.token, body: { paymentReference: reference } });
      expect(placed.status).toBe(200);
      const orderId = placed.body.data.id as string;

      paystack.refundBehaviour.cut = true;
      try {
        const lost = await api.call('POST', `/admin/orders/${orderId}/refund`, { token: owner, body: { amount: 1000, refundedBefore: 0 } });
        expect(lost.status).toBe(503);
      } finally {
        paystack.refundBehaviour.cut = false;
      }
      // The provider did refund; the store does not know: the claim is kept, and on record.
      expect(paystack.refunds.filter((r) => r.reference === reference)).toHaveLength(1);
      const blocked = await api.call('POST', `/admin/orders/${orderId}/refund`, { token: owner, body: {} });
      expect(blocked.status).toBe(409);

      const audit = await api.call('GET', '/admin/audit', { token: owner });
      const rows = (audit.body.data.rows as { action: string; entityId: string; actorEmail: string; details: Record<string, unknown> }[]).filter(
        (r) => r.action === 'order.refund' && r.entityId === orderId,
      );
      expect(rows.map((r) => r.details.outcome).sort()).toEqual(['claimed', 'unknown']);
      const claim = rows.find((r) => r.details.outcome === 'claimed')!;
      expect(claim).toMatchObject({ actorEmail: OWNER.email, details: { reference, requestedMinor: 100_000, claimedMinor: 100_000 } });
    });
  });
}
