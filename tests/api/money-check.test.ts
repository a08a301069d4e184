import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { buyingClient } from './buying-client';

const run = promisify(execFile);

/** `npm run money:check` against a running store's database, after purchases, refunds and a return; and on a planted difference. */
describe('the money check on a served database (PostgreSQL)', () => {
  let server: RunningServer;
  let api: ReturnType<typeof buyingClient>;
  let owner: string;

  beforeAll(async () => {
    server = await startServer('pg');
    api = buyingClient(server.baseUrl);
    owner = await api.signInOwner();
  }, 120_000);
  afterAll(async () => server?.stop());

  const moneyCheck = () =>
    run('npx', ['tsx', 'scripts/money-check.ts'], { env: { ...process.env, DATABASE_URL: server.databaseUrl!, LOG_LEVEL: 'silent' } }).then(
      (r) => ({ code: 0, out: r.stdout }),
      (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, out: err.stdout + err.stderr }),
    );

  async function buy(): Promise<{ id: string; trackingNumber: string; itemId: number; token: string }> {
    const shopper = await api.login();
    await api.clear(shopper.token, shopper.id);
    await api.add(shopper.token, await api.variant({ minStock: 2 }), 1);
    const init = await api.call('POST', '/orders/initiate', { token: shopper.token, body: {} });
    expect(init.status).toBe(200);
    await api.answerSimulated(init.body.data.reference, 'pay');
    const placed = await api.call('POST', '/orders/place-order', { token: shopper.token, body: { paymentReference: init.body.data.reference } });
    expect(placed.status).toBe(200);
    return { id: placed.body.data.id, trackingNumber: placed.body.data.trackingNumber, itemId: placed.body.data.items[0].id, token: shopper.token };
  }

  it('passes after purchases, refunds and a return refunded after a full refund (which gives nothing more back)', async () => {
    const a = await buy();
    const b = await buy();
    expect((await api.call('POST', `/admin/orders/${a.id}/refund`, { token: owner, body: {} })).status).toBe(200);
    for (const status of ['processed', 'delivered']) expect((await api.call('POST', `/admin/orders/${a.id}/status`, { token: owner, body: { status } })).status).toBe(200);
    const asked = await api.call('POST', `/orders/${a.id}/returns`, { token: a.token, body: { items: [{ orderItemId: a.itemId, quantity: 1 }], reason: 'changed_mind', resolution: 'refund', method: 'drop_off' } });
    expect(asked.status).toBe(201);
    const returnId = asked.body.data.id as string;
    for (const action of ['approve', 'receive', 'refund']) {
      const res = await api.call('POST', `/admin/returns/${returnId}`, { token: owner, body: { action } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      if (action === 'refund') expect(res.body.data).toMatchObject({ refunded: 0, credited: 0 });
    }
    expect((await api.call('POST', `/admin/orders/${b.id}/refund`, { token: owner, body: { amount: 1000 } })).status).toBe(200);

    const clean = await moneyCheck();
    expect(clean.out).toMatch(/money check: ok\. \d+ orders/);
    expect(clean.code).toBe(0);

    // Planted: the account says the payment charged a kobo more than it did.
    const db = new pg.Client({ connectionString: server.databaseUrl });
    await db.connect();
    try {
      await db.query(`update order_money set amount_minor = amount_minor + 1 where order_id = $1 and kind = 'charged'`, [b.id]);
      const found = await moneyCheck();
      expect(found.code).toBe(1);
      expect(found.out).toContain(`order ${b.trackingNumber}`);
      await db.query(`update order_money set amount_minor = amount_minor - 1 where order_id = $1 and kind = 'charged'`, [b.id]);
    } finally {
      await db.end();
    }
  }, 240_000);
});
