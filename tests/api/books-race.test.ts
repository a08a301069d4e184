import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { buyingClient, type Variant } from './buying-client';

/**
 * The books' numbers as a live store makes them: two app servers on one PostgreSQL, 50 checkouts
 * paid and 20 refunds at once, split between them. Each series (invoices, credit notes) comes out
 * without a gap and without a duplicate: its counter row is taken under lock in the transaction
 * that issues the document, whichever server runs it.
 */
describe('invoice and credit-note numbers on two servers', () => {
  let one: RunningServer;
  let two: RunningServer;
  beforeAll(async () => {
    one = await startServer('pg');
    two = await startServer('pg', {}, { databaseUrl: one.databaseUrl });
  }, 180_000);
  afterAll(async () => {
    await two?.stop();
    await one?.stop();
  });

  async function numbers(): Promise<string[]> {
    const db = new pg.Client({ connectionString: one.databaseUrl });
    await db.connect();
    try {
      return (await db.query<{ number: string }>(`select number from tax_documents where market = 'NG'`)).rows.map((r) => r.number);
    } finally {
      await db.end();
    }
  }

  const serial = (numbers: string[], series: RegExp) =>
    numbers
      .filter((n) => series.test(n))
      .map((n) => Number(n.slice(-6)))
      .sort((a, b) => a - b);

  it('50 paid orders and 20 refunds at once on two servers: both series without a gap or a duplicate', async () => {
    const apis = [buyingClient(one.baseUrl), buyingClient(two.baseUrl)];
    const owner = await apis[0]!.signInOwner();
    const stock: Variant[] = await apis[0]!.variants({ minStock: 8, count: 10, sized: false });
    // One shopper a checkout (a cart each), its order placed through either server.
    async function paidOrder(i: number): Promise<{ id: string; total: number }> {
      const api = apis[i % 2]!;
      const shopper = await api.verifiedUser(`race-${i}`);
      expect((await api.add(shopper.token, stock[i % stock.length]!, 1)).status).toBe(200);
      const started = await api.call('POST', '/orders/initiate', { token: shopper.token, body: {} });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      await api.answerSimulated(started.body.data.reference, 'pay');
      const placed = await api.call('POST', '/orders/place-order', { token: shopper.token, body: { paymentReference: started.body.data.reference } });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      return { id: placed.body.data.id, total: placed.body.data.total };
    }
    const before = await numbers();
    const refundable = await Promise.all(Array.from({ length: 20 }, (_, i) => paidOrder(i)));
    const placing = Array.from({ length: 50 }, (_, i) => paidOrder(20 + i));
    const refunding = refundable.map(async (o, i) => {
      const refunded = await apis[(i + 1) % 2]!.call('POST', `/admin/orders/${o.id}/refund`, { token: owner, body: { amount: Math.floor(o.total / 2), refundedBefore: 0 } });
      expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    });
    await Promise.all([...placing, ...refunding]);

    const after = await numbers();
    expect(after.length - before.length).toBe(50 + 20 + 20);
    expect(new Set(after).size).toBe(after.length);
    for (const series of [/^NG-\d{4}-\d{6}$/, /^NG-CN-\d{4}-\d{6}$/]) {
      const seq = serial(after, series);
      expect(seq).toEqual(seq.map((_, k) => k + 1));
    }
  }, 300_000);
});
