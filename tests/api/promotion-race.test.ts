import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { buyingClient } from './buying-client';

const run = promisify(execFile);
const SHOPPERS = 50;
const USED = 'This code has already been used.';

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

describe('a code limited to 1: 50 shoppers pay at once on two app servers sharing PostgreSQL', () => {
  let a: RunningServer;
  let b: RunningServer;
  let db: pg.Client;
  beforeAll(async () => {
    a = await startServer('pg', { LOG_LEVEL: 'warn' });
    b = await startServer('pg', { LOG_LEVEL: 'warn' }, { databaseUrl: a.databaseUrl! });
    db = new pg.Client({ connectionString: a.databaseUrl! });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await b?.stop();
    await a?.stop();
  });

  /** A percentage code limited to one use (the back office's JSON is tested in admin-promotions.test.ts). */
  async function createCode(code: string, percent: number) {
    const [p] = (await db.query(`insert into promotions (description, kind, percent_off, usage_limit) values ($1, 'percent', $2, 1) returning id`, [code, percent])).rows;
    await db.query(`insert into promotion_codes (promotion_id, code) values ($1, $2)`, [p.id, code]);
  }
  const counters = async (code: string) => {
    const r = (await db.query(`select p.redemptions as p, c.redemptions as c from promotion_codes c join promotions p on p.id = c.promotion_id where c.code = $1`, [code])).rows[0];
    return [r.p, r.c];
  };

  it('exactly one payment holds it at the discounted amount, 49 are told before paying; declined, it is usable again; paid, one discounted order', { timeout: 300_000 }, async () => {
    await createCode('RACE-ONE', 20);
    const clients = [a, b].map((s) => buyingClient(s.baseUrl));
    const shoppers = await inBatches(Array.from({ length: SHOPPERS }), 4, (_, i) => clients[i % 2]!.verifiedUser('promo'));
    const item = await clients[0]!.variant({ minStock: 1, sized: false });
    const [variant] = (
      await db.query(
        `select v.id from variants v left join colors c on c.id = v.color_id where v.product_id = $1 and c.name is not distinct from $2 and v.size_id is null`,
        [item.productId, item.color],
      )
    ).rows;
    // Stock for everyone (the staff command tells every server's cache): the code is the only limit here.
    await run('npx', ['tsx', 'scripts/catalogue.ts', 'set-stock', String(variant.id), String(SHOPPERS * 2)], {
      env: { ...process.env, DATABASE_URL: a.databaseUrl!, LOG_LEVEL: 'silent' },
    });

    // Everyone fills a cart and applies the code: it applies for all (nobody has paid yet).
    const totals = await inBatches(shoppers, 10, async (shopper, i) => {
      const api = clients[i % 2]!;
      expect((await api.add(shopper.token, item, 1)).status).toBe(200);
      const applied = await api.call('POST', '/cart/discount', { token: shopper.token, body: { code: 'race-one' } });
      expect(applied.status, JSON.stringify(applied.body)).toBe(200);
      const cart = await api.cart(shopper.token, shopper.id);
      expect(cart.discountCode).toBe('RACE-ONE');
      expect(cart.discount).toBeGreaterThan(0);
      return cart.total as number;
    });

    // All start paying at once, spread over both servers.
    const started = await Promise.all(shoppers.map((s, i) => clients[i % 2]!.call('POST', '/orders/initiate', { token: s.token, body: {} })));
    const ok = started.map((r, i) => ({ r, i })).filter(({ r }) => r.status === 200);
    const refused = started.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(SHOPPERS - 1);
    for (const r of refused) expect([r.status, r.body.message]).toEqual([409, USED]);
    const winner = ok[0]!;
    expect(winner.r.body.data.amount).toBe(totals[winner.i]);
    expect(await counters('RACE-ONE')).toEqual([1, 1]);

    // The one declines: the place is given back.
    await clients[0]!.answerSimulated(winner.r.body.data.reference, 'decline');
    const declined = await clients[1]!.call('POST', '/orders/place-order', { token: shoppers[winner.i]!.token, body: { paymentReference: winner.r.body.data.reference } });
    expect(declined.status).toBe(402);
    expect(await counters('RACE-ONE')).toEqual([0, 0]);

    // Another shopper pays with it: one discounted order. A refused shopper's cart may have let go
    // of the code (when their payment was priced after the winner's hold, the code came off with
    // 'This code has already been used.'), so they apply it again: with the place free, it applies.
    const next = (winner.i + 1) % SHOPPERS;
    const api = clients[next % 2]!;
    const reapplied = await api.call('POST', '/cart/discount', { token: shoppers[next]!.token, body: { code: 'race-one' } });
    expect([reapplied.status, reapplied.body.message]).toEqual([200, 'Discount applied!']);
    const again = await api.call('POST', '/orders/initiate', { token: shoppers[next]!.token, body: {} });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data.amount).toBe(totals[next]);
    await api.answerSimulated(again.body.data.reference, 'pay');
    const placed = await clients[(next + 1) % 2]!.call('POST', '/orders/place-order', { token: shoppers[next]!.token, body: { paymentReference: again.body.data.reference } });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(await counters('RACE-ONE')).toEqual([1, 1]);
    const orders = (await db.query(`select o.discount_minor, o.discount_code, o.total_minor, p.amount_minor from orders o join payments p on p.id = o.payment_id where o.discount_code = 'RACE-ONE'`)).rows;
    expect(orders).toHaveLength(1);
    expect(Number(orders[0].discount_minor)).toBeGreaterThan(0);
    expect(Number(orders[0].total_minor)).toBe(Number(orders[0].amount_minor));
    const uses = (await db.query(`select state, count(*)::int as n from promotion_redemptions r join promotion_codes c on c.id = r.code_id where c.code = 'RACE-ONE' group by state`)).rows;
    expect(Object.fromEntries(uses.map((u) => [u.state, u.n]))).toEqual({ released: 1, used: 1 });

    // Used up: the rest are told so before paying, on either server. Their carts may have let go of
    // the code already (see above), so each applies it again first: refused then, or at payment.
    const late = await Promise.all(
      [0, 1].map(async (k) => {
        const token = shoppers[(next + 1 + k) % SHOPPERS]!.token;
        const applied = await clients[k]!.call('POST', '/cart/discount', { token, body: { code: 'race-one' } });
        return applied.status === 200 ? clients[k]!.call('POST', '/orders/initiate', { token, body: {} }) : applied;
      }),
    );
    for (const r of late) {
      expect(r.body.message).toBe(USED);
      expect([400, 409]).toContain(r.status);
    }
  });

  it('an abandoned payment (reconciliation) gives its place back', { timeout: 120_000 }, async () => {
    await createCode('RACE-TWO', 10);
    const api = buyingClient(b.baseUrl);
    const [first, second] = await inBatches([0, 1], 2, () => api.verifiedUser('abandon'));
    const item = await api.variant({ minStock: 2, sized: false, skip: 1 });
    for (const s of [first!, second!]) {
      await api.add(s.token, item, 1);
      expect((await api.call('POST', '/cart/discount', { token: s.token, body: { code: 'RACE-TWO' } })).status).toBe(200);
    }
    const held = await api.call('POST', '/orders/initiate', { token: first!.token, body: {} });
    expect(held.status).toBe(200);
    expect((await api.call('POST', '/orders/initiate', { token: second!.token, body: {} })).body.message).toBe(USED);
    // The first shopper never pays; a day later reconciliation gives up on the payment.
    await db.query(`update payments set created_at = now() - interval '3 days' where reference = $1`, [held.body.data.reference]);
    await run('npx', ['tsx', 'scripts/payments.ts', 'reconcile'], { env: { ...process.env, DATABASE_URL: a.databaseUrl!, LOG_LEVEL: 'silent' } });
    expect((await db.query('select status from payments where reference = $1', [held.body.data.reference])).rows[0].status).toBe('abandoned');
    expect(await counters('RACE-TWO')).toEqual([0, 0]);
    // The second shopper's cart lost the code when it was used up; applied again, it holds now.
    expect((await api.call('POST', '/cart/discount', { token: second!.token, body: { code: 'RACE-TWO' } })).status).toBe(200);
    const now = await api.call('POST', '/orders/initiate', { token: second!.token, body: {} });
    expect(now.status, JSON.stringify(now.body)).toBe(200);
    expect(await counters('RACE-TWO')).toEqual([1, 1]);
  });
});
