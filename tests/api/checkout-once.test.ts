import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyCreditMove } from '@/lib/server/aftersales/store-credit';
import { hashPassword } from '@/lib/server/accounts/passwords';
import { users } from '@/lib/server/accounts/tables';
import type { Services } from '@/lib/server/services';
import { podShopper, prepareStore, type PreparedStore } from '../support/pod-orders';
import { startServer, type RunningServer } from '../support/server';
import { buyingClient, type Variant } from './buying-client';
import type { Call } from './account-client';

/**
 * One order per checkout: starting a checkout twice for the same cart, at once or one after the
 * other, makes at most one order and one payment. A double tap on a slow network, a form sent
 * again without scripts, two servers answering at once: the cart's row lock and the attempt's key
 * (the form's hidden field, `Idempotency-Key` on the API) make them one attempt.
 */
const PASSWORD = 'Lagos-2026!';
const SHOPPERS = ['pod', 'credit', 'keyed', 'stranger', 'card', 'form'] as const;
/** ₦20,000,000 of store credit: covers any one piece of the demo store. */
const CREDIT_MINOR = 2_000_000_000;

/** Shoppers with a password and a verified phone, one with store credit; pay on delivery up to ₦10,000,000 whole. */
async function fill(services: Services): Promise<Record<(typeof SHOPPERS)[number], string>> {
  await services.db.execute(sql`insert into market_settings (market, pod_enabled, pod_cap_minor, pod_ceiling_minor, pod_deposit_percent)
    values ('NG', true, 1000000000, 2000000000, 30) on conflict (market) do update set pod_enabled = true, pod_cap_minor = 1000000000, pod_ceiling_minor = 2000000000`);
  const passwordHash = await hashPassword(PASSWORD);
  const emails = {} as Record<(typeof SHOPPERS)[number], string>;
  for (const tag of SHOPPERS) {
    const s = await podShopper(services);
    await services.db.update(users).set({ passwordHash, phoneVerifiedNumber: sql`${users.phoneNumber}` }).where(eq(users.id, s.id));
    if (tag === 'credit') await applyCreditMove(services.db, { userId: s.id, currency: 'NGN', deltaMinor: CREDIT_MINOR, kind: 'grant', reason: 'test' }, new Date());
    emails[tag] = s.email;
  }
  return emails;
}

for (const driver of ['pglite', 'pg'] as const) {
  describe(`one order per checkout on ${driver}`, () => {
    let store: PreparedStore;
    let server: RunningServer;
    let api: ReturnType<typeof buyingClient>;
    let tokens: Record<(typeof SHOPPERS)[number], string>;
    let db: pg.Client | undefined;

    beforeAll(async () => {
      const prepared = await prepareStore(driver, fill);
      store = prepared.store;
      server = await startServer(driver, store.dataDir ? { DATA_DIR: store.dataDir } : {}, store.databaseUrl ? { databaseUrl: store.databaseUrl } : {});
      api = buyingClient(server.baseUrl);
      tokens = {} as typeof tokens;
      for (const tag of SHOPPERS) tokens[tag] = (await api.login(prepared.value[tag], PASSWORD)).token;
      if (store.databaseUrl) {
        db = new pg.Client({ connectionString: store.databaseUrl });
        await db.connect();
      }
    }, 180_000);
    afterAll(async () => {
      await db?.end();
      await server?.stop();
      await store?.drop();
    });

    const initiate = (token: string, body: Record<string, unknown> = {}, key?: string) =>
      api.call('POST', '/orders/initiate', { token, body, ...(key ? { headers: { 'idempotency-key': key } } : {}) });
    const ordersOf = async (token: string) => (await api.call('GET', '/orders/get-orders', { token })).body.data.data as { id: string; total: number }[];
    const creditOf = async (token: string) => (await api.call('GET', '/user-auth/get-user', { token })).body.data.storeCredit as number;
    /** Every start answered: the same payment (one reference) for those that succeeded, the cart found empty for the others. */
    function oneAttempt(results: Call[]): string {
      for (const r of results) {
        if (r.status !== 200) expect(r.body.message, JSON.stringify(r.body)).toBe('Your cart is empty');
      }
      const ok = results.filter((r) => r.status === 200);
      expect(ok.length).toBeGreaterThan(0);
      const references = new Set(ok.map((r) => r.body.data.reference));
      expect(references.size).toBe(1);
      expect(new Set(ok.map((r) => r.body.data.authorization_url)).size).toBe(1);
      return [...references][0]!;
    }
    async function cartWith(token: string, skip: number): Promise<Variant> {
      const v = await api.variant({ minStock: 5, sized: false, skip });
      expect((await api.add(token, v, 1)).status).toBe(200);
      return v;
    }

    it('three pay-on-delivery starts at once place one order and take the stock once', async () => {
      const v = await cartWith(tokens.pod, 0);
      const before = await api.stockOf(v);
      const results = await Promise.all([0, 1, 2].map(() => initiate(tokens.pod, { paymentMethod: 'on_delivery' })));
      oneAttempt(results);
      expect(await ordersOf(tokens.pod)).toHaveLength(1);
      expect(await api.stockOf(v)).toBe(before - 1);
      // One at a time, the next start finds the cart empty.
      const again = await initiate(tokens.pod, { paymentMethod: 'on_delivery' });
      expect(again.status).toBe(400);
      expect(again.body.message).toBe('Your cart is empty');
    });

    it('five starts at once that store credit covers place one order and spend the credit once', async () => {
      const v = await cartWith(tokens.credit, 1);
      const before = await api.stockOf(v);
      const credit = await creditOf(tokens.credit);
      expect(credit).toBe(CREDIT_MINOR / 100);
      const results = await Promise.all([0, 1, 2, 3, 4].map(() => initiate(tokens.credit, { useStoreCredit: true })));
      oneAttempt(results);
      const orders = await ordersOf(tokens.credit);
      expect(orders).toHaveLength(1);
      expect(await creditOf(tokens.credit)).toBe(credit - orders[0]!.total);
      expect(await api.stockOf(v)).toBe(before - 1);
      if (db) {
        const reference = results.find((r) => r.status === 200)!.body.data.reference;
        const spends = await db.query(`select count(*)::int as n from store_credit_entries where kind = 'spend' and user_id = (select user_id from payments where reference = $1)`, [reference]);
        expect(spends.rows[0].n).toBe(1);
      }
    });

    it('the same key sent again answers the first outcome; other choices with it are refused; another shopper has keys of their own', async () => {
      const key = `key-${driver}-0123456789`;
      await cartWith(tokens.keyed, 2);
      const first = await initiate(tokens.keyed, { paymentMethod: 'on_delivery' }, key);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ status: 'success', message: 'Order placed successfully!', data: { amount: 0, currency: 'NGN' } });
      // The cart is empty now, yet the resend is answered as the first was.
      const again = await initiate(tokens.keyed, { paymentMethod: 'on_delivery' }, key);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect(await ordersOf(tokens.keyed)).toHaveLength(1);
      const other = await initiate(tokens.keyed, { paymentMethod: 'online' }, key);
      expect(other.status).toBe(409);
      expect(other.body.message).toBe('This checkout was already sent with other choices. Please reload the page and try again.');
      const bad = await initiate(tokens.keyed, { paymentMethod: 'on_delivery' }, 'no spaces allowed');
      expect(bad.status).toBe(400);
      // Keys are the shopper's own: another shopper sending the same one starts their own checkout.
      await cartWith(tokens.stranger, 2);
      const theirs = await initiate(tokens.stranger, { paymentMethod: 'on_delivery' }, key);
      expect(theirs.status).toBe(200);
      expect(theirs.body.data.reference).not.toBe(first.body.data.reference);
      expect(await ordersOf(tokens.stranger)).toHaveLength(1);
    });

    it('a card payment started twice at once, with a key or without, is one payment and one order', async () => {
      await cartWith(tokens.card, 3);
      const key = `card-${driver}-0123456789`;
      const keyed = await Promise.all([initiate(tokens.card, {}, key), initiate(tokens.card, {}, key)]);
      const reference = oneAttempt(keyed);
      expect(keyed[0]!.body.data.authorization_url).toBe(`${server.baseUrl}/pay/simulated/${reference}`);
      // Without a key, the same cart asking for the same while its payment is open is that payment too.
      const bare = await Promise.all([initiate(tokens.card), initiate(tokens.card)]);
      expect(oneAttempt(bare)).toBe(reference);
      if (db) {
        const rows = await db.query('select count(*)::int as n from payments where user_id = (select user_id from payments where reference = $1)', [reference]);
        expect(rows.rows[0].n).toBe(1);
      }
      await api.answerSimulated(reference, 'pay');
      const placed = await Promise.all([0, 1].map(() => api.call('POST', '/orders/place-order', { token: tokens.card, body: { paymentReference: reference } })));
      expect(placed.map((p) => p.status)).toEqual([200, 200]);
      expect(await ordersOf(tokens.card)).toHaveLength(1);
    });

    it('the checkout form sent twice without scripts places one order', async () => {
      await cartWith(tokens.form, 4);
      const page = await (await fetch(`${server.baseUrl}/place-order`, { headers: { cookie: `ml_session=${tokens.form}`, accept: 'text/html' } })).text();
      const key = /name="idempotencyKey" value="([^"]+)"/.exec(page)?.[1];
      expect(key).toMatch(/^[0-9a-f-]{36}$/);
      const post = () =>
        fetch(`${server.baseUrl}/api/v1/orders/initiate`, {
          method: 'POST',
          redirect: 'manual',
          headers: { authorization: `Bearer ${tokens.form}`, origin: server.baseUrl, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ paymentMethod: 'on_delivery', idempotencyKey: key! }).toString(),
        });
      const [a, b] = await Promise.all([post(), post()]);
      expect([a.status, b.status]).toEqual([303, 303]);
      expect(a.headers.get('location')).toBe(b.headers.get('location'));
      expect(new URL(a.headers.get('location')!, server.baseUrl).pathname).toBe('/place-order');
      expect(await ordersOf(tokens.form)).toHaveLength(1);
      // Sent once more after that (the back button), it still goes to the same placed order.
      const c = await post();
      expect(c.headers.get('location')).toBe(a.headers.get('location'));
      expect(await ordersOf(tokens.form)).toHaveLength(1);
    });
  });
}
