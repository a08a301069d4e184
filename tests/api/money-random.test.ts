import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startCluster, type Cluster } from '../../scripts/cluster';
import { prng, type Rng } from '../support/prng';
import { buyingClient } from './buying-client';
import type { Call } from './account-client';

const run = promisify(execFile);
const SHOPPERS = 6;
const RUN_MS = Number(process.env.MONEY_RANDOM_MS ?? 60_000);
const SEED = Number(process.env.MONEY_RANDOM_SEED ?? 1);


interface Shopper {
  id: string;
  email: string;
  token: string;
}
interface PlacedOrder {
  id: string;
  shopper: Shopper;
  items: { id: number; quantity: number; productId: number; color: string | null; size: string | null }[];
  onDelivery: boolean;
}
interface SoldVariant {
  productId: number;
  color: string | null;
  size: string | null;
}

/**
 * Shoppers and staff at once, on two app servers behind nginx on one PostgreSQL, one server killed
 * and brought back mid-run: buying online and on delivery, with and without a code and store
 * credit, double taps on initiate and place-order, cancels, staff status moves, collections and
 * refusals at the door, line and amount refunds, returns refunded, credited or exchanged, credit
 * grants and staff cancels. Refusals (4xx) are the store saying no and are expected; a 5xx or a
 * dropped request outside the kill's window fails the test. Afterwards `npm run money:check` must
 * find every order, ledger and balance adding up.
 */
describe('money under random shoppers and staff on two servers, one killed (PostgreSQL)', () => {
  let cluster: Cluster;
  let api: ReturnType<typeof buyingClient>;
  let owner: string;
  const shoppers: Shopper[] = [];
  let sold: SoldVariant[] = [];
  const code = `RAND${Date.now().toString(36).toUpperCase()}`;

  beforeAll(async () => {
    cluster = await startCluster({ servers: 2, port: await freePort(), env: { LOG_LEVEL: 'error' } });
    api = buyingClient(cluster.url);
    owner = await api.signInOwner();
    const db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    try {
      for (let i = 0; i < SHOPPERS; i++) {
        const s = await api.verifiedUser(`random${i}`);
        // Pay on delivery asks for a verified phone: set as a texted code would have.
        await db.query(`update users set phone_verified_number = phone_number where id = $1`, [s.id]);
        shoppers.push({ id: s.id, email: s.email, token: s.token });
      }
      const [promotion] = (await db.query(`insert into promotions (description, kind, percent_off, usage_limit) values ('Random 15%', 'percent', 15, 40) returning id`)).rows;
      await db.query(`insert into promotion_codes (promotion_id, code) values ($1, $2)`, [promotion.id, code]);
    } finally {
      await db.end();
    }
    sold = (await api.variants({ minStock: 3, count: 30 })).map(({ productId, color, size }) => ({ productId, color, size }));
  }, 600_000);
  afterAll(async () => cluster?.stop());

  it('leaves every order, ledger and balance adding up (npm run money:check)', async () => {
    const orders: PlacedOrder[] = [];
    const returns: { id: string; resolution: string; step: number }[] = [];
    const done = new Map<string, number>();
    const refused = new Map<string, number>();
    const failures: string[] = [];
    const windows: { from: number; to: number }[] = [];
    const count = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
    const inWindow = (from: number, to: number) => windows.some((w) => from <= w.to && to >= w.from) || (killedAt !== 0 && to >= killedAt && backAt === 0);
    let killedAt = 0;
    let backAt = 0;

    /** One request: a 5xx or no answer is a failure unless it overlapped the kill. */
    async function send(what: string, fn: () => Promise<Call>): Promise<Call | null> {
      const from = Date.now();
      let res: Call | null = null;
      try {
        res = await fn();
      } catch (err) {
        if (!inWindow(from, Date.now())) failures.push(`${what}: ${(err as Error).message}`);
        return null;
      }
      if (res.status >= 500) {
        if (!inWindow(from, Date.now())) failures.push(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
        return null;
      }
      if (res.status >= 400) count(refused, what);
      else count(done, what);
      return res;
    }

    async function buy(s: Shopper, r: Rng, onDelivery: boolean) {
      const cart = await send('cart', () => api.call('GET', `/cart/${s.id}`, { token: s.token }));
      for (const i of cart?.body?.data?.items ?? []) {
        await send('remove', () => api.call('DELETE', '/cart/remove-product', { token: s.token, body: { productId: i.productId, color: i.color, size: i.size } }));
      }
      for (let n = 1 + r.int(2); n > 0; n--) await send('add', () => api.add(s.token, r.pick(sold), 1));
      if (r.next() < 0.35) await send('code', () => api.call('POST', '/cart/discount', { token: s.token, body: { code } }));
      const key = randomUUID();
      const body: Record<string, unknown> = { idempotencyKey: key };
      if (onDelivery) body.paymentMethod = 'on_delivery';
      if (r.next() < 0.3) body.useStoreCredit = true;
      const initiate = () => send(onDelivery ? 'initiate on delivery' : 'initiate', () => api.call('POST', '/orders/initiate', { token: s.token, body, headers: { 'idempotency-key': key } }));
      // A double tap: the same attempt sent twice at once.
      const started = r.next() < 0.3 ? (await Promise.all([initiate(), initiate()]))[0] : await initiate();
      if (!started || started.status !== 200) return;
      const { reference, authorization_url: authorizationUrl } = started.body.data as { reference: string; authorization_url: string };
      if (authorizationUrl.includes('/pay/simulated/')) {
        const outcome = r.next() < 0.1 ? 'decline' : 'pay';
        try {
          await api.answerSimulated(reference, outcome);
        } catch (err) {
          if (!inWindow(Date.now() - 20_000, Date.now())) failures.push(`pay: ${(err as Error).message}`);
          return;
        }
        if (outcome === 'decline') return;
      }
      const place = () => send('place order', () => api.call('POST', '/orders/place-order', { token: s.token, body: { paymentReference: reference } }));
      const placed = r.next() < 0.3 ? (await Promise.all([place(), place()])).find((p) => p?.status === 200) : await place();
      if (placed?.status !== 200) return;
      const order = placed.body.data;
      if (orders.some((o) => o.id === order.id)) return;
      orders.push({ id: order.id, shopper: s, onDelivery: order.paymentMethodCode === 'on_delivery', items: order.items });
    }

    async function askReturn(s: Shopper, r: Rng) {
      const mine = orders.filter((o) => o.shopper === s);
      if (!mine.length) return;
      const o = r.pick(mine);
      const item = r.pick(o.items);
      let resolution = r.pick(['refund', 'credit', 'exchange'] as const);
      let exchangeVariantId: number | undefined;
      if (resolution === 'exchange') {
        const detail = await send('product', () => api.call('GET', `/products/${item.productId}`));
        const other = (detail?.body?.data?.variants ?? []).find((v: { id?: number; color: string | null; size: string | null; stock: number }) => v.id && v.stock > 0 && (v.color !== item.color || v.size !== item.size));
        if (other) exchangeVariantId = other.id;
        else resolution = 'refund';
      }
      const res = await send('return request', () =>
        api.call('POST', `/orders/${o.id}/returns`, {
          token: s.token,
          body: { items: [{ orderItemId: item.id, quantity: 1, ...(exchangeVariantId ? { exchangeVariantId } : {}) }], reason: 'changed_mind', resolution, method: 'drop_off' },
        }),
      );
      if (res?.status === 201) returns.push({ id: res.body.data.id, resolution, step: 0 });
    }

    /** A short pause between a person's steps, so the servers' work, not the test's loop, sets the pace. */
    const think = (r: Rng) => new Promise((done) => setTimeout(done, 20 + r.int(120)));

    async function shopper(s: Shopper, r: Rng, until: number) {
      while (Date.now() < until) {
        await think(r);
        const roll = r.next();
        if (roll < 0.45) await buy(s, r, false);
        else if (roll < 0.6) await buy(s, r, true);
        else if (roll < 0.72) {
          const mine = orders.filter((o) => o.shopper === s);
          if (mine.length) await send('shopper cancel', () => api.call('POST', `/orders/${r.pick(mine).id}/cancel`, { token: s.token, body: {} }));
        } else await askReturn(s, r);
      }
    }

    async function staff(r: Rng, until: number) {
      const call = (what: string, path: string, body: unknown) => send(what, () => api.call('POST', path, { token: owner, body }));
      while (Date.now() < until) {
        await think(r);
        const roll = r.next();
        const o = orders.length ? r.pick(orders) : undefined;
        if (roll < 0.4 && o) {
          const detail = await send('admin order', () => api.call('GET', `/admin/orders/${o.id}`, { token: owner }));
          const order = detail?.body?.data?.order;
          if (!order) continue;
          if (order.status === 'pending') await call('status', `/admin/orders/${o.id}/status`, { status: r.next() < 0.1 ? 'cancelled' : 'processed' });
          else if (order.status === 'processed' && order.amountDue > 0) {
            await call('collection', `/admin/orders/${o.id}/collection`, r.next() < 0.25 ? { outcome: 'refused' } : { outcome: 'paid', method: r.pick(['cash', 'card', 'transfer']), amount: order.amountDue });
          } else if (order.status === 'processed') await call('status', `/admin/orders/${o.id}/status`, { status: 'delivered' });
        } else if (roll < 0.52 && o) {
          const kind = r.int(3);
          const body = kind === 0 ? { line: 1, quantity: 1 } : kind === 1 ? { amount: 1000 * (1 + r.int(20)) } : {};
          await call(['line refund', 'amount refund', 'full refund'][kind]!, `/admin/orders/${o.id}/refund`, body);
        } else if (roll < 0.85 && returns.length) {
          const ret = r.pick(returns);
          const last = ret.resolution === 'exchange' ? 'ship' : ret.resolution === 'credit' ? 'credit' : 'refund';
          const actions = ['approve', 'receive', last];
          const action = r.next() < 0.08 ? 'reject' : actions[Math.min(ret.step, 2)]!;
          const res = await call(`return ${action}`, `/admin/returns/${ret.id}`, action === 'reject' ? { action, reason: 'Not as sent' } : { action });
          if (res?.status === 200) ret.step++;
        } else if (roll < 0.9) {
          const s = r.pick(shoppers);
          await call('credit grant', `/admin/customers/${s.id}/credit`, { amount: 5000 * (1 + r.int(10)), currency: 'NGN', reason: 'Goodwill' });
        } else if (o) {
          await call('staff cancel', `/admin/orders/${o.id}/status`, { status: 'cancelled' });
        }
      }
    }

    const started = Date.now();
    const until = started + RUN_MS;
    const fault = (async () => {
      await new Promise((r) => setTimeout(r, RUN_MS * 0.4));
      killedAt = Date.now();
      await cluster.servers[1]!.kill();
      await new Promise((r) => setTimeout(r, 3000));
      await cluster.servers[1]!.restart();
      backAt = Date.now();
      // nginx takes a moment to send to it again; requests cut at the kill may answer late.
      windows.push({ from: killedAt, to: backAt + 6000 });
    })();
    await Promise.all([...shoppers.map((s, i) => shopper(s, prng(SEED * 100 + i), until)), staff(prng(SEED * 100 + 50), until), staff(prng(SEED * 100 + 51), until), fault]);

    const ops = [...done.values()].reduce((a, b) => a + b, 0);
    const no = [...refused.values()].reduce((a, b) => a + b, 0);
    const moneyCheck = await run('npx', ['tsx', 'scripts/money-check.ts'], { env: { ...process.env, DATABASE_URL: cluster.databaseUrl, LOG_LEVEL: 'silent' } }).then(
      (res) => ({ code: 0, out: res.stdout }),
      (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, out: err.stdout + err.stderr }),
    );
    console.log(
      `money random (seed ${SEED}, ${Math.round((Date.now() - started) / 1000)} s, 2 servers, 1 kill -9): ${ops + no} operations, ${no} refused; ${orders.length} orders; ` +
        `done ${JSON.stringify(Object.fromEntries(done))}; refused ${JSON.stringify(Object.fromEntries(refused))}; ${failures.length} failures; ${moneyCheck.out.trim()}`,
    );
    expect(failures).toEqual([]);
    expect(moneyCheck.out).toMatch(/money check: ok/);
    expect(moneyCheck.code).toBe(0);
    // The run did what it is for: orders of both kinds, refunds, returns settled, the kill.
    expect(orders.length).toBeGreaterThan(10);
    expect(orders.some((o) => o.onDelivery)).toBe(true);
    for (const k of ['initiate', 'place order', 'status', 'credit grant', 'return request', 'return approve']) expect(done.get(k) ?? 0, k).toBeGreaterThan(0);
    expect((done.get('line refund') ?? 0) + (done.get('amount refund') ?? 0) + (done.get('full refund') ?? 0)).toBeGreaterThan(0);
    expect(killedAt).toBeGreaterThan(0);
  }, 900_000);
});
