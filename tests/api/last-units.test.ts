import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { buyingClient } from './buying-client';

const run = promisify(execFile);
const SHOPPERS = 50;
const UNITS = 3;

/** Runs `work` over `items`, `width` at a time. */
async function inBatches<T, R>(items: T[], width: number, work: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i]!, i);
      }
    }),
  );
  return out;
}

describe('the last units: 50 shoppers pay at once for the last 3 units, on two app servers sharing PostgreSQL', () => {
  let a: RunningServer;
  let b: RunningServer;
  let db: pg.Client;
  beforeAll(async () => {
    a = await startServer('pg', { LOG_LEVEL: 'error' });
    b = await startServer('pg', { LOG_LEVEL: 'error' }, { databaseUrl: a.databaseUrl! });
    db = new pg.Client({ connectionString: a.databaseUrl! });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await b?.stop();
    await a?.stop();
  });

  it('places exactly 3 orders, stock ends at 0, the other 47 see the sold-out message and are refunded', { timeout: 240_000 }, async () => {
    const servers = [a, b];
    const clients = servers.map((s) => buyingClient(s.baseUrl));
    const shoppers = await inBatches(Array.from({ length: SHOPPERS }), 4, (_, i) => clients[i % 2]!.verifiedUser('last'));
    const item = await clients[0]!.variant({ minStock: UNITS, sized: false });
    const [variant] = (
      await db.query(
        `select v.id from variants v left join colors c on c.id = v.color_id left join sizes s on s.id = v.size_id
          where v.product_id = $1 and c.name is not distinct from $2 and s.name is not distinct from $3`,
        [item.productId, item.color, item.size],
      )
    ).rows;
    // The staff command leaves exactly the last units (and tells every server's cache).
    await run('npx', ['tsx', 'scripts/catalogue.ts', 'set-stock', String(variant.id), String(UNITS)], {
      env: { ...process.env, DATABASE_URL: a.databaseUrl!, LOG_LEVEL: 'silent' },
    });

    // Everyone puts one in the cart and starts paying while the 3 units are still there.
    const references = await inBatches(shoppers, 10, async (shopper, i) => {
      const api = clients[i % 2]!;
      expect((await api.add(shopper.token, item, 1)).status).toBe(200);
      const init = await api.call('POST', '/orders/initiate', { token: shopper.token, body: {} });
      expect(init.status, JSON.stringify(init.body)).toBe(200);
      return init.body.data.reference as string;
    });

    // All pay at once and come back to place their order at once, spread over both servers.
    const placed = await Promise.all(
      shoppers.map(async (shopper, i) => {
        const api = clients[i % 2]!;
        await api.answerSimulated(references[i]!, 'pay');
        return api.call('POST', '/orders/place-order', { token: shopper.token, body: { paymentReference: references[i] } });
      }),
    );
    const ok = placed.filter((r) => r.status === 200);
    const refused = placed.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(UNITS);
    expect(refused).toHaveLength(SHOPPERS - UNITS);
    for (const r of refused) {
      expect(r.status).toBe(402);
      const label = [item.color, item.size].filter(Boolean).length ? `${item.name} (${[item.color, item.size].filter(Boolean).join(', ')})` : item.name;
      expect(r.body.message).toBe(`Sorry, ${label} sold out while you were paying. Your payment will be refunded.`);
    }
    expect(new Set(ok.map((r) => r.body.data.id)).size).toBe(UNITS);

    const stock = (await db.query('select stock from variants where id = $1', [variant.id])).rows[0].stock;
    expect(stock).toBe(0);
    const orders = (await db.query('select count(*)::int as n from order_items where variant_id = $1', [variant.id])).rows[0].n;
    expect(orders).toBe(UNITS);
    const byStatus = async () =>
      Object.fromEntries((await db.query('select status, count(*)::int as n from payments where reference = any($1) group by status', [references])).rows.map((r) => [r.status, r.n]));
    const before = await byStatus();
    expect(before.fulfilled).toBe(UNITS);
    expect((before.needs_refund ?? 0) + (before.refunded ?? 0)).toBe(SHOPPERS - UNITS);

    // Trying again changes nothing: the same 3 orders, the others still refused.
    const again = await Promise.all(shoppers.map((s, i) => clients[(i + 1) % 2]!.call('POST', '/orders/place-order', { token: s.token, body: { paymentReference: references[i] } })));
    expect(again.filter((r) => r.status === 200)).toHaveLength(UNITS);

    // Reconciliation (what every server runs on a timer) refunds the queued ones through the provider.
    await run('npx', ['tsx', 'scripts/payments.ts', 'reconcile'], { env: { ...process.env, DATABASE_URL: a.databaseUrl!, LOG_LEVEL: 'silent' } });
    const after = await byStatus();
    expect(after).toEqual({ fulfilled: UNITS, refunded: SHOPPERS - UNITS });
  });
});
