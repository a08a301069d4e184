import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { buyingClient } from './buying-client';

const run = promisify(execFile);

for (const driver of ['pglite', 'pg'] as const) {
  describe(`orders API on ${driver}`, () => {
    let server: RunningServer;
    let api: ReturnType<typeof buyingClient>;
    let demo: { token: string; id: string };
    let other: { token: string; id: string; email: string };
    let order: any;

    beforeAll(async () => {
      server = await startServer(driver);
      api = buyingClient(server.baseUrl);
      demo = await api.login();
      other = await api.verifiedUser('orders');
      const [bag, dress] = await api.variants({ minStock: 2, count: 2 });
      await api.add(demo.token, bag!, 1);
      await api.add(demo.token, dress!, 2);
      const init = await api.call('POST', '/orders/initiate', { token: demo.token, body: {} });
      await api.answerSimulated(init.body.data.reference, 'pay');
      order = (await api.call('POST', '/orders/place-order', { token: demo.token, body: { paymentReference: init.body.data.reference } })).body.data;
    });
    afterAll(async () => {
      await server?.stop();
    });

    it("lists the session user's orders and refuses other users' (401/403)", async () => {
      expect((await api.call('GET', '/orders/get-orders')).status).toBe(401);
      const mine = await api.call('GET', `/orders/get-orders?userId=${demo.id}`, { token: demo.token });
      expect(mine.status).toBe(200);
      expect(mine.body.status).toBe(true);
      expect(mine.body.data.data.map((o: any) => o.id)).toEqual([order.id]);
      const o = mine.body.data.data[0];
      expect(o.items).toHaveLength(2);
      expect(o.items[0]).toMatchObject({ productName: expect.any(String), name: expect.any(String), quantity: expect.any(Number), price: expect.any(Number) });
      expect(o.items[0].image[0]).toMatch(/^\/media\//);
      expect((await api.call('GET', `/orders/get-orders?userId=${demo.id}`, { token: other.token })).status).toBe(403);
      expect((await api.call('GET', '/orders/get-orders', { token: other.token })).body.data.data).toEqual([]);
    });

    it('gets one order by id: 404 unknown, 403 for another user', async () => {
      const one = await api.call('GET', `/orders/get-orders?id=${order.id}`, { token: demo.token });
      expect(one.body.data.data).toMatchObject({ id: order.id, trackingNumber: order.trackingNumber, status: 'pending', itemCount: 3 });
      const theirs = await api.call('GET', `/orders/get-orders?id=${order.id}`, { token: other.token });
      expect(theirs.status).toBe(403);
      const unknown = await api.call('GET', '/orders/get-orders?id=00000000-0000-0000-0000-000000000000', { token: demo.token });
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe('Order not found');
      expect((await api.call('GET', '/orders/get-orders?id=not-a-uuid', { token: demo.token })).status).toBe(404);
    });

    it('serves the legacy POST /api/order/userorders with a token header', async () => {
      // Astro's CSRF origin check refuses body-less POSTs without a content type, so the client names JSON.
      const json = { 'content-type': 'application/json' };
      const legacy = await fetch(`${server.baseUrl}/api/order/userorders`, { method: 'POST', headers: { ...json, token: demo.token }, body: '' });
      expect(legacy.status).toBe(200);
      const body = (await legacy.json()) as any;
      expect(body.success).toBe(true);
      expect(body.orders[0]).toMatchObject({ id: order.id, status: 'pending', payment: 'paid', paymentMethod: expect.any(String) });
      const anonymous = await fetch(`${server.baseUrl}/api/order/userorders`, { method: 'POST', headers: json });
      expect(anonymous.status).toBe(401);
      const bogus = await fetch(`${server.baseUrl}/api/order/userorders`, { method: 'POST', headers: { ...json, token: 'nope' } });
      expect(bogus.status).toBe(401);
    });

    it('order pages need a session and hide other users\' orders', async () => {
      const anon = await fetch(`${server.baseUrl}/order-details/${order.id}`, { redirect: 'manual' });
      expect(anon.status).toBe(302);
      expect(anon.headers.get('location')).toBe(`/login?next=${encodeURIComponent(`/order-details/${order.id}`)}`);
      const mine = await fetch(`${server.baseUrl}/order-details/${order.id}`, { headers: { authorization: `Bearer ${demo.token}` } });
      expect(mine.status).toBe(200);
      expect(await mine.text()).toContain(order.trackingNumber);
      const theirs = await fetch(`${server.baseUrl}/order-details/${order.id}`, { headers: { authorization: `Bearer ${other.token}` } });
      expect(theirs.status).toBe(404);
      expect(await theirs.text()).toContain('Order not found');
      const history = await fetch(`${server.baseUrl}/order-history?status=PENDING`, { headers: { authorization: `Bearer ${demo.token}` } });
      expect(await history.text()).toContain(order.trackingNumber);
      const delivered = await fetch(`${server.baseUrl}/order-history?status=delivered`, { headers: { authorization: `Bearer ${demo.token}` } });
      expect(await delivered.text()).toContain('No orders found with this status');
    });

    if (driver === 'pg') {
      it('staff move orders with `npm run orders -- set-status`, only along allowed transitions, e-mailing the shopper', async () => {
        const env = { ...process.env, DATABASE_URL: server.databaseUrl!, LOG_LEVEL: 'silent', PUBLIC_SITE_URL: server.baseUrl };
        const cmd = (...args: string[]) => run('npx', ['tsx', 'scripts/orders.ts', 'set-status', ...args], { env });
        const skip = await cmd(order.trackingNumber, 'delivered').catch((e) => e);
        expect(skip.code).toBe(1);
        expect(skip.stderr).toContain('An order that is pending cannot become delivered');
        const step = await cmd(order.trackingNumber, 'processed');
        expect(step.stdout).toContain('pending -> processed');
        expect((await api.lastMail('demo@maisonluxe.ng')).subject).toBe(`Your order is being prepared (${order.trackingNumber})`);
        await cmd(order.id, 'delivered');
        const mail = await api.lastMail('demo@maisonluxe.ng');
        expect(mail.subject).toBe(`Your order has been delivered (${order.trackingNumber})`);
        const back = await cmd(order.id, 'cancelled').catch((e) => e);
        expect(back.code).toBe(1);
        const one = await api.call('GET', `/orders/get-orders?id=${order.id}`, { token: demo.token });
        expect(one.body.data.data.status).toBe('delivered');
      });
    }
  });
}
