import { message } from '@/lib/domain/messages';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { placePodOrder, podShopper, podVariant, prepareStore, type PodOrder, type PreparedStore } from '../support/pod-orders';
import { buyingClient } from './buying-client';

function serverEnv(store: PreparedStore): [Record<string, string>, { databaseUrl?: string }] {
  return store.dataDir ? [{ DATA_DIR: store.dataDir }, {}] : [{}, { databaseUrl: store.databaseUrl! }];
}

/** Staff settle pay-on-delivery orders through POST /api/v1/admin/orders/{id}/collection. */
for (const driver of ['pglite', 'pg'] as const) {
  describe(`collection at the door on ${driver}`, () => {
    let store: PreparedStore;
    let server: RunningServer;
    let api: ReturnType<typeof buyingClient>;
    let owner: string;
    let o: { paid: PodOrder; deposit: PodOrder; whole: PodOrder; variant: { productId: number; color: string | null; size: string | null } };

    beforeAll(async () => {
      const prepared = await prepareStore(driver, async (services) => {
        const shopper = await podShopper(services);
        const v = await podVariant(services, 'NG', 5);
        const base = { userId: shopper.id, email: shopper.email, variantId: v.id };
        return {
          paid: await placePodOrder(services, base),
          deposit: await placePodOrder(services, { ...base, quantity: 2, depositPercent: 30 }),
          whole: await placePodOrder(services, { ...base, pickup: true }),
          variant: { productId: v.productId, color: v.color, size: v.size },
        };
      });
      store = prepared.store;
      o = prepared.value;
      const [env, opts] = serverEnv(store);
      server = await startServer(driver, env, opts);
      api = buyingClient(server.baseUrl);
      owner = await api.signInOwner();
    }, 180_000);
    afterAll(async () => {
      await server?.stop();
      await store?.drop();
    });

    const collect = (id: string, body: unknown, token: string = owner) => api.call('POST', `/admin/orders/${id}/collection`, { token, body });

    it('staff only: 401 without a session, 403 for a shopper', async () => {
      expect((await collect(o.paid.id, { outcome: 'refused' }, '')).status).toBe(401);
      const shopper = await api.login();
      expect((await collect(o.paid.id, { outcome: 'refused' }, shopper.token)).status).toBe(403);
    });

    it('lists the orders to collect, with what is due', async () => {
      const list = await api.call('GET', '/admin/to-collect?market=NG', { token: owner });
      expect(list.status).toBe(200);
      const ids = list.body.data.rows.map((r: { id: string }) => r.id);
      expect(ids).toEqual(expect.arrayContaining([o.paid.id, o.deposit.id, o.whole.id]));
      const row = list.body.data.rows.find((r: { id: string }) => r.id === o.deposit.id);
      expect(row).toMatchObject({ trackingNumber: o.deposit.trackingNumber, due: o.deposit.dueMinor / 100, total: o.deposit.totalMinor / 100, currency: 'NGN', phoneNumber: '+2348031234567' });
      expect((await api.call('GET', '/admin/to-collect?market=XX', { token: owner })).status).toBe(400);
      const dash = await api.call('GET', '/admin/dashboard', { token: owner });
      expect(dash.body.data.cashToCollect).toEqual([{ currency: 'NGN', orders: 3, minor: o.paid.dueMinor + o.deposit.dueMinor + o.whole.dueMinor }]);
      expect(dash.body.data.cashCollected).toEqual([]);
    });

    it('bad input is a 400 with a reason, never a 500; unknown orders are 404', async () => {
      for (const body of [{}, { outcome: 'lost' }, { outcome: 'paid' }, { outcome: 'paid', method: 'cheque', amount: 1 }, { outcome: 'paid', method: 'cash', amount: 'lots' }, 'text', [1]]) {
        const res = await collect(o.paid.id, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.message).toBeTruthy();
      }
      expect((await collect('00000000-0000-4000-8000-000000000000', { outcome: 'refused' })).status).toBe(404);
      expect((await collect('not-an-order', { outcome: 'refused' })).status).toBe(404);
    });

    it('delivered and paid: the amount must be what is due; then delivered and collected, once', async () => {
      const wrong = await collect(o.paid.id, { outcome: 'paid', method: 'cash', amount: o.paid.dueMinor / 100 + 1 });
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toMatch(/^The amount must equal what is due: ₦[\d,]+(\.\d\d)?\.$/);
      const ok = await collect(o.paid.id, { outcome: 'paid', method: 'cash', amount: o.paid.dueMinor / 100 });
      expect(ok.status).toBe(200);
      expect(ok.body.data).toMatchObject({ outcome: 'paid', status: 'delivered', method: 'cash', collected: o.paid.dueMinor / 100 });
      const again = await collect(o.paid.id, { outcome: 'paid', method: 'cash', amount: o.paid.dueMinor / 100 });
      expect(again.status).toBe(409);
      expect(again.body.message).toBe('This order has already been settled.');
      expect((await collect(o.paid.id, { outcome: 'refused' })).status).toBe(409);
      const dash = await api.call('GET', '/admin/dashboard', { token: owner });
      expect(dash.body.data.cashCollected).toEqual([{ currency: 'NGN', method: 'cash', orders: 1, minor: o.paid.dueMinor }]);
    });

    it('refused at the door: stock back, the refusal counted, the deposit refunded less the delivery fee, all audited', async () => {
      const before = await api.stockOf(o.variant);
      const res = await collect(o.deposit.id, { outcome: 'refused' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ outcome: 'refused', status: 'cancelled', refundedMinor: o.deposit.depositMinor - o.deposit.deliveryFeeMinor });
      expect(res.body.message).toMatch(/^Recorded as refused at the door; stock returned and ₦[\d,.]+ refunded$/);
      expect(await api.stockOf(o.variant)).toBe(before + 2);
      expect((await collect(o.deposit.id, { outcome: 'refused' })).status).toBe(409);
      expect(await api.stockOf(o.variant)).toBe(before + 2);

      // A plain form post from the back office: 303 back to the page with a notice.
      const form = await fetch(`${server.baseUrl}/api/v1/admin/orders/${o.whole.id}/collection?back=/admin/orders/${o.whole.id}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', origin: server.baseUrl },
        body: 'outcome=refused',
        redirect: 'manual',
      });
      expect(form.status).toBe(303);
      expect(form.headers.get('location')).toBe(`/admin/orders/${o.whole.id}?notice=collection-refused`);

      const audit = await api.call('GET', '/admin/audit', { token: owner });
      const text = JSON.stringify(audit.body);
      expect(text).toContain('order.collection');
      expect(text).toContain('"refusedDeliveries":2');
      expect(text).toContain(`"depositRefundMinor":${o.deposit.depositMinor - o.deposit.deliveryFeeMinor}`);
      // The deposit's refund is an owed row, paid: the back office's refunds list shows it.
      const refunds = await api.call('GET', '/admin/refunds?status=paid', { token: owner });
      expect(refunds.status).toBe(200);
      expect(refunds.body.data).toEqual(expect.arrayContaining([expect.objectContaining({ orderId: o.deposit.id, destination: 'payment', status: 'paid', amount: (o.deposit.depositMinor - o.deposit.deliveryFeeMinor) / 100 })]));
      expect((await api.call('GET', '/admin/refunds?status=lost', { token: owner })).status).toBe(400);
      // Two refusals: staff lift the block.
      expect((await api.call('POST', `/admin/customers/${o.deposit.userId}/pay-on-delivery`, { token: owner, body: {} })).status).toBe(400);
      expect((await api.call('POST', `/admin/customers/${o.deposit.userId}/pay-on-delivery`, { token: owner, body: { refusedBefore: 1 } })).status).toBe(409);
      const lift = await api.call('POST', `/admin/customers/${o.deposit.userId}/pay-on-delivery`, { token: owner, body: { refusedBefore: 2 } });
      expect(lift.status).toBe(200);
      expect(lift.body.data).toEqual({ before: 2, refusedDeliveries: 0 });
      const dash = await api.call('GET', '/admin/dashboard', { token: owner });
      expect(dash.body.data.cashToCollect).toEqual([]);
    });

    it('staff set a market’s pay-on-delivery rules', async () => {
      const bad = await api.call('POST', '/admin/markets/NG/pay-on-delivery', { token: owner, body: { enabled: true, cap: 500, ceiling: 100, depositPercent: 30 } });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe(message('pod-rules-cap-above-ceiling'));
      const set = await api.call('POST', '/admin/markets/NG/pay-on-delivery', { token: owner, body: { enabled: false, cap: 100000, ceiling: 2000000, depositPercent: 40 } });
      expect(set.status).toBe(200);
      // Open orders at once: 2 unless staff say otherwise.
      expect((await api.call('GET', '/admin/markets/NG/pay-on-delivery', { token: owner })).body.data).toEqual({ enabled: false, cap: 100000, ceiling: 2000000, depositPercent: 40, maxOpenOrders: 2 });
      const more = await api.call('POST', '/admin/markets/NG/pay-on-delivery', { token: owner, body: { enabled: true, cap: 100000, ceiling: 2000000, depositPercent: 40, maxOpenOrders: 3 } });
      expect(more.status).toBe(200);
      expect((await api.call('GET', '/admin/markets/NG/pay-on-delivery', { token: owner })).body.data).toMatchObject({ enabled: true, maxOpenOrders: 3 });
      const none = await api.call('POST', '/admin/markets/NG/pay-on-delivery', { token: owner, body: { enabled: true, cap: 100000, ceiling: 2000000, depositPercent: 40, maxOpenOrders: 0 } });
      expect(none.status).toBe(400);
      expect(none.body.message).toBe(message('pod-max-open-range'));
      expect((await api.call('GET', '/admin/markets/XX/pay-on-delivery', { token: owner })).status).toBe(404);
    });
  });
}

describe('cancel and "Delivered and paid" racing on two app servers sharing PostgreSQL give one outcome', () => {
  const ORDERS = 8;
  let store: PreparedStore;
  let a: RunningServer;
  let b: RunningServer;
  let db: pg.Client;
  let placed: PodOrder[];

  beforeAll(async () => {
    const prepared = await prepareStore('pg', async (services) => {
      const shopper = await podShopper(services);
      const v = await podVariant(services, 'NG', ORDERS + 1);
      const out: PodOrder[] = [];
      for (let i = 0; i < ORDERS; i++) out.push(await placePodOrder(services, { userId: shopper.id, email: shopper.email, variantId: v.id, depositPercent: i % 2 ? 30 : undefined }));
      return out;
    });
    store = prepared.store;
    placed = prepared.value;
    a = await startServer('pg', { LOG_LEVEL: 'error' }, { databaseUrl: store.databaseUrl! });
    b = await startServer('pg', { LOG_LEVEL: 'error' }, { databaseUrl: store.databaseUrl! });
    db = new pg.Client({ connectionString: store.databaseUrl! });
    await db.connect();
  }, 180_000);
  afterAll(async () => {
    await db?.end();
    await b?.stop();
    await a?.stop();
    await store?.drop();
  });

  it('each order ends paid or cancelled, never both; stock back and refunds at most once', { timeout: 120_000 }, async () => {
    const clients = [buyingClient(a.baseUrl), buyingClient(b.baseUrl)];
    const token = await clients[0]!.signInOwner();
    const stockBefore = (await db.query('select stock from variants where id = $1', [placed[0]!.variantId])).rows[0].stock as number;
    const results = await Promise.all(
      placed.map(async (o, i) => {
        const [first, second] = i % 2 ? [clients[0]!, clients[1]!] : [clients[1]!, clients[0]!];
        const answers = await Promise.all([
          first.call('POST', `/admin/orders/${o.id}/collection`, { token, body: { outcome: 'paid', method: 'cash', amount: o.dueMinor / 100 } }),
          second.call('POST', `/admin/orders/${o.id}/status`, { token, body: { status: 'cancelled' } }),
          second.call('POST', `/admin/orders/${o.id}/collection`, { token, body: { outcome: 'refused' } }),
          first.call('POST', `/admin/orders/${o.id}/collection`, { token, body: { outcome: 'paid', method: 'card', amount: o.dueMinor / 100 } }),
        ]);
        return answers.map((r) => r.status);
      }),
    );
    let cancelled = 0;
    for (const [i, o] of placed.entries()) {
      const statuses = results[i]!;
      expect(statuses.filter((s) => s === 200), JSON.stringify(statuses)).toHaveLength(1);
      expect(statuses.filter((s) => s !== 200).every((s) => s === 409), JSON.stringify(statuses)).toBe(true);
      const row = (await db.query('select status, collection_outcome, collected_minor from orders where id = $1', [o.id])).rows[0];
      const returned = (await db.query(`select count(*)::int n from stock_ledger where order_id = $1 and kind = 'cancellation'`, [o.id])).rows[0].n;
      const events = (await db.query('select to_status from order_events where order_id = $1', [o.id])).rows.map((r) => r.to_status);
      const payment = (await db.query('select refunded_minor from payments where reference = $1', [o.paymentReference])).rows[0];
      if (row.status === 'delivered') {
        expect(row.collection_outcome).toBe('paid');
        expect(Number(row.collected_minor)).toBe(o.dueMinor);
        expect(returned).toBe(0);
        expect(Number(payment.refunded_minor)).toBe(0);
      } else {
        cancelled++;
        expect(row.status).toBe('cancelled');
        expect(row.collected_minor).toBeNull();
        expect(returned).toBe(1);
        // Owed back once, in the transaction that cancelled it: refused at the door, the deposit less
        // the fee; cancelled by staff, the whole deposit (back to the payment). The refund worker pays
        // it, perhaps not yet; never more.
        const owed = row.collection_outcome === 'refused' ? Math.max(0, o.depositMinor - o.deliveryFeeMinor) : o.depositMinor;
        const owedRows = (await db.query(`select coalesce(sum(amount_minor), 0)::bigint as n from owed_refunds where order_id = $1 and destination = 'payment'`, [o.id])).rows[0].n;
        expect(Number(owedRows)).toBe(owed);
        expect([0, owed]).toContain(Number(payment.refunded_minor));
      }
      expect(events).toHaveLength(1);
    }
    const stockAfter = (await db.query('select stock from variants where id = $1', [placed[0]!.variantId])).rows[0].stock as number;
    expect(stockAfter - stockBefore).toBe(cancelled);
  });
});
