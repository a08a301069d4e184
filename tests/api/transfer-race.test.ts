import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { buyingClient } from './buying-client';

const run = promisify(execFile);
const UNITS = 2;
const CARDS = 3;
const TRANSFERS = 3;

/**
 * Exactly once: bank transfers sent for the last units stay pending while card payments
 * take those units; when the simulated provider confirms the transfers (every server's job, a few
 * seconds later), they are refunded like any sold-out payment. Two app servers share PostgreSQL.
 */
describe('pending transfers confirmed after the last units sold, on two app servers sharing PostgreSQL', () => {
  let a: RunningServer;
  let b: RunningServer;
  let db: pg.Client;
  const env = { LOG_LEVEL: 'error', SIMULATED_TRANSFER_DELAY_MS: '3000' };
  beforeAll(async () => {
    a = await startServer('pg', env);
    b = await startServer('pg', env, { databaseUrl: a.databaseUrl! });
    db = new pg.Client({ connectionString: a.databaseUrl! });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await b?.stop();
    await a?.stop();
  });

  it('gives the last units to exactly one payment each; every transfer confirmed too late is refunded, none left pending', { timeout: 180_000 }, async () => {
    const clients = [a, b].map((s) => buyingClient(s.baseUrl));
    const shoppers = await Promise.all(Array.from({ length: CARDS + TRANSFERS }, (_, i) => clients[i % 2]!.verifiedUser('transfer-race')));
    const item = await clients[0]!.variant({ minStock: UNITS, sized: false, skip: 2 });
    const [variant] = (
      await db.query(
        `select v.id from variants v left join colors c on c.id = v.color_id left join sizes s on s.id = v.size_id
          where v.product_id = $1 and c.name is not distinct from $2 and s.name is not distinct from $3`,
        [item.productId, item.color, item.size],
      )
    ).rows;
    await run('npx', ['tsx', 'scripts/catalogue.ts', 'set-stock', String(variant.id), String(UNITS)], {
      env: { ...process.env, DATABASE_URL: a.databaseUrl!, LOG_LEVEL: 'silent' },
    });

    const references = await Promise.all(
      shoppers.map(async (shopper, i) => {
        const api = clients[i % 2]!;
        expect((await api.add(shopper.token, item, 1)).status).toBe(200);
        const init = await api.call('POST', '/orders/initiate', { token: shopper.token, body: {} });
        expect(init.status, JSON.stringify(init.body)).toBe(200);
        return init.body.data.reference as string;
      }),
    );
    const transfers = references.slice(CARDS);
    // The transfers are sent first: pending, they hold nothing.
    await Promise.all(transfers.map((ref, i) => clients[i % 2]!.answerSimulated(ref, 'sent')));
    const status = async (refs: string[]) =>
      Object.fromEntries((await db.query('select status, count(*)::int as n from payments where reference = any($1) group by status', [refs])).rows.map((r) => [r.status, r.n]));
    expect(await status(transfers)).toEqual({ pending: TRANSFERS });
    const returns = await Promise.all(
      transfers.map((ref, i) => clients[i % 2]!.call('POST', '/orders/place-order', { token: shoppers[CARDS + i]!.token, body: { paymentReference: ref } })),
    );
    for (const r of returns) expect(r.status).toBe(402);

    // Card payments take the last units meanwhile (one of them too late).
    const cards = await Promise.all(
      references.slice(0, CARDS).map(async (ref, i) => {
        const api = clients[i % 2]!;
        await api.answerSimulated(ref, 'pay', 'card');
        return api.call('POST', '/orders/place-order', { token: shoppers[i]!.token, body: { paymentReference: ref } });
      }),
    );
    expect(cards.filter((r) => r.status === 200)).toHaveLength(UNITS);

    // The simulated provider's confirmations arrive (either server may send them): all sold out.
    const deadline = Date.now() + 60_000;
    while ((await status(transfers)).pending && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
    expect(await status(transfers)).toEqual({ needs_refund: TRANSFERS });

    expect((await db.query('select stock from variants where id = $1', [variant.id])).rows[0].stock).toBe(0);
    expect((await db.query('select count(*)::int as n from order_items where variant_id = $1', [variant.id])).rows[0].n).toBe(UNITS);
    const late = await clients[0]!.call('POST', '/orders/place-order', { token: shoppers[CARDS]!.token, body: { paymentReference: transfers[0] } });
    expect(late.status).toBe(402);
    expect(late.body.message).toMatch(/refunded/);

    await run('npx', ['tsx', 'scripts/payments.ts', 'reconcile'], { env: { ...process.env, DATABASE_URL: a.databaseUrl!, LOG_LEVEL: 'silent' } });
    expect(await status(references)).toEqual({ fulfilled: UNITS, refunded: CARDS + TRANSFERS - UNITS });
  });
});
