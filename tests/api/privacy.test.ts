import { randomInt } from 'node:crypto';
import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/lib/server/infra/db/client';
import { checkMoney } from '@/lib/server/orders/money-check';
import { newDataDir, startServer, type RunningServer } from '../support/server';
import { buyingClient } from './buying-client';
import { OWNER } from './account-client';

/**
 * The shopper's data (NDPA, POPIA): "Download my data" holds every kind of record the store keeps
 * about them and nothing of another shopper's; "Delete my account" waits for orders on their way and
 * asks about store credit, then erases the person (no text column of any table names them after)
 * and keeps the books (money check, the dashboard's totals); the e-mail may register again. Staff
 * answer requests by mail or phone with a code of their own, and owners see who opened a record.
 */
const PASSWORD = 'Lagos-2026!';

/** A Nigerian mobile number nobody else in the run has: national, E.164, and the digits both share. */
function mobile() {
  const rest = String(randomInt(0, 100_000_000)).padStart(8, '0');
  return { national: `081${rest}`, e164: `+23481${rest}`, digits: `81${rest}` };
}

/** Rows of db.execute on either driver (pg answers { rows }, PGlite's drizzle too; older answers are the array). */
function rowsOf<T = Record<string, unknown>>(res: unknown): T[] {
  return ((res as { rows?: T[] }).rows ?? (res as T[])) as T[];
}

for (const driver of ['pglite', 'pg'] as const) {
  describe(`the shopper's data on ${driver}`, () => {
    let server: RunningServer;
    let api: ReturnType<typeof buyingClient>;
    let owner: string;
    // PGlite: a data directory of our own, to read the database between two servers on it.
    const dataDir = driver === 'pglite' ? newDataDir() : '';

    const start = () => startServer(driver, driver === 'pglite' ? { DATA_DIR: dataDir } : {}, server?.databaseUrl ? { databaseUrl: server.databaseUrl } : {});
    async function signInOwner() {
      owner = await api.signInOwner();
    }

    beforeAll(async () => {
      server = await start();
      api = buyingClient(server.baseUrl);
      await signInOwner();
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    interface Shopper {
      id: string;
      token: string;
      email: string;
      firstName: string;
      lastName: string;
      phone: ReturnType<typeof mobile>;
      street: string;
    }

    async function register(firstName: string, lastName: string, email = api.uniqueEmail('privacy')): Promise<Shopper> {
      const phone = mobile();
      const created = await api.call('POST', '/user-auth/create', { body: api.registration(email, { firstName, lastName, phoneNumber: phone.national, password: PASSWORD }) });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect((await api.call('POST', '/user-auth/verify-otp', { body: { email, otp: await api.lastCode(email) } })).status).toBe(200);
      const { token, id } = await api.login(email, PASSWORD);
      const street = `${randomInt(10, 99)} ${lastName} Gardens`;
      const address = await api.call('POST', '/address/create', { token, body: { name: `${firstName} ${lastName}`, country: 'nigeria', state: 'Lagos', city: 'Ikeja', address: street, zipCode: '100271' } });
      expect(address.status, JSON.stringify(address.body)).toBeLessThan(300);
      return { id, token, email, firstName, lastName, phone, street };
    }

    async function buy(s: Shopper, skip = 0): Promise<{ id: string; trackingNumber: string; itemId: number }> {
      await api.clear(s.token, s.id);
      expect((await api.add(s.token, await api.variant({ minStock: 3, skip }), 1)).status).toBe(200);
      const init = await api.call('POST', '/orders/initiate', { token: s.token, body: { deliveryOption: 'delivery' } });
      expect(init.status, JSON.stringify(init.body)).toBe(200);
      await api.answerSimulated(init.body.data.reference, 'pay');
      const placed = await api.call('POST', '/orders/place-order', { token: s.token, body: { paymentReference: init.body.data.reference } });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      return { id: placed.body.data.id, trackingNumber: placed.body.data.trackingNumber, itemId: placed.body.data.items[0].id };
    }

    const deliver = async (orderId: string) => {
      for (const status of ['processed', 'delivered']) expect((await api.call('POST', `/admin/orders/${orderId}/status`, { token: owner, body: { status } })).status).toBe(200);
    };
    const download = (token: string, body: Record<string, unknown> = {}) => api.call('POST', '/user-auth/my-data', { token, body });
    const sendCode = (token: string) => api.call('POST', '/user-auth/confirm-code', { token, body: {} });
    const deleteAccount = (token: string, body: Record<string, unknown>) => api.call('POST', '/user-auth/delete-account', { token, body });

    /** The database the server runs on, while it runs (PostgreSQL) or between two servers (PGlite). */
    async function withDatabase<T>(fn: (db: Database['db']) => Promise<T>): Promise<T> {
      if (driver === 'pglite') await server.stop();
      const database = await openDatabase(driver === 'pg' ? { databaseUrl: server.databaseUrl!, dataDir: '', migrate: false } : { dataDir, migrate: false });
      try {
        return await fn(database.db);
      } finally {
        await database.close();
        if (driver === 'pglite') {
          server = await start();
          api = buyingClient(server.baseUrl);
          await signInOwner();
        }
      }
    }

    /** Every text, varchar, json and array column of every table that holds any of `needles`, as table.column. */
    async function mentions(db: Database['db'], needles: string[]): Promise<string[]> {
      const res = await db.execute(sql`
        select table_name, column_name from information_schema.columns
        where table_schema = 'public' and data_type in ('text', 'character varying', 'jsonb', 'json', 'ARRAY')`);
      const columns = rowsOf<{ table_name: string; column_name: string }>(res);
      const found: string[] = [];
      for (const c of columns) {
        for (const needle of needles) {
          const hit = await db.execute(
            sql`select 1 from ${sql.identifier(c.table_name)} where strpos(lower(${sql.identifier(c.column_name)}::text), lower(${needle})) > 0 limit 1`,
          );
          if (rowsOf(hit).length > 0) found.push(`${c.table_name}.${c.column_name} holds ${needle}`);
        }
      }
      return found;
    }

    let me: Shopper;
    let other: Shopper;
    let order: { id: string; trackingNumber: string; itemId: number };
    let otherOrder: { trackingNumber: string };

    it('"Download my data" holds every kind of record the store keeps about the shopper, and nothing of another shopper', async () => {
      me = await register('Zephyrine', `Quillfeather${randomInt(1000, 9999)}`);
      other = await register('Ottoline', `Brackenbury${randomInt(1000, 9999)}`);
      otherOrder = await buy(other, 1);
      // Favourites, the newsletter (consent and its history), text updates, a texted code.
      const product = (await api.variant()).productId;
      expect((await api.call('POST', '/favourites/add', { token: me.token, body: { productId: product } })).status).toBe(200);
      expect((await api.call('POST', '/newsletter/preference', { token: me.token, body: { newsletter: true } })).status).toBe(200);
      expect((await api.call('PATCH', '/user-auth/text-updates', { token: me.token, body: { textUpdates: true } })).status).toBe(200);
      expect((await api.call('POST', '/user-auth/phone/send-code', { token: me.token, body: {} })).status).toBe(200);
      // An order, delivered; a help request about it; a return credited as store credit.
      order = await buy(me);
      expect((await api.call('POST', `/orders/${order.id}/help`, { token: me.token, body: { topic: 'where', message: `Hello, this is ${me.firstName} ${me.lastName}, ${me.phone.national}.` } })).status).toBe(201);

      // Before delivery, the account must wait (and says why); no code is used up for it.
      const early = await deleteAccount(me.token, { code: '1234' });
      expect(early.status).toBe(409);
      expect(early.body.message).toBe('You have an order that is not delivered yet. You can delete your account once it has been delivered or cancelled.');

      await deliver(order.id);
      const asked = await api.call('POST', `/orders/${order.id}/returns`, { token: me.token, body: { items: [{ orderItemId: order.itemId, quantity: 1 }], reason: 'changed_mind', resolution: 'credit', method: 'drop_off' } });
      expect(asked.status, JSON.stringify(asked.body)).toBe(201);
      for (const action of ['approve', 'receive', 'credit']) {
        const res = await api.call('POST', `/admin/returns/${asked.body.data.id}`, { token: owner, body: { action } });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }

      const res = await download(me.token);
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="maison-luxe-my-data-\d{4}-\d{2}-\d{2}\.json"$/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const data = res.body;
      expect(data.summary.title).toBe('Your data at Maison Luxe');
      expect(data.summary.lines.join(' ')).toContain(order.trackingNumber);
      expect(data.profile).toMatchObject({ id: me.id, email: me.email, firstName: me.firstName, lastName: me.lastName, phoneNumber: me.phone.e164 });
      expect(data.addresses).toHaveLength(1);
      expect(data.addresses[0].address).toBe(me.street);
      expect(data.orders).toHaveLength(1);
      expect(data.orders[0].trackingNumber).toBe(order.trackingNumber);
      expect(data.orders[0].lines.length).toBeGreaterThan(0);
      expect(data.orders[0].money.map((m: { kind: string }) => m.kind)).toEqual(expect.arrayContaining(['charged', 'credited']));
      expect(data.orders[0].history.length).toBeGreaterThan(0);
      expect(data.payments.length).toBeGreaterThan(0);
      expect(data.payments.every((p: Record<string, unknown>) => !('idempotencyKey' in p))).toBe(true);
      expect(data.returns).toHaveLength(1);
      expect(data.returns[0].items).toHaveLength(1);
      expect(data.storeCredit.balances[0].balanceMinor).toBeGreaterThan(0);
      expect(data.storeCredit.ledger.map((e: { kind: string }) => e.kind)).toContain('return');
      expect(data.favourites.map((f: { productId: number }) => f.productId)).toEqual([product]);
      expect(data.consents.newsletter).toMatchObject({ email: me.email, source: 'settings' });
      expect(data.consents.history.length).toBeGreaterThan(0);
      expect(data.textMessages).toMatchObject({ orderUpdates: true, phoneNumber: me.phone.e164 });
      expect(data.helpRequests).toHaveLength(1);
      expect(data.helpRequests[0].messages[0].body).toContain(me.firstName);
      expect(data.mailsSent.length).toBeGreaterThan(0);
      expect(data.mailsSent.every((m: { to: string }) => m.to === me.email)).toBe(true);
      expect(data.textsSent.length).toBeGreaterThan(0);
      expect(data.sessions.length).toBeGreaterThan(0);
      const whole = JSON.stringify(data);
      for (const secret of ['passwordHash', 'password_hash', 'codeHash', 'tokenHash']) expect(whole).not.toContain(secret);
      for (const theirs of [other.email, other.lastName, other.street, other.phone.digits, otherOrder.trackingNumber, other.id]) expect(whole).not.toContain(theirs);

      // A plain form post gets the same file; without a session, nothing.
      const form = await fetch(`${server.baseUrl}/api/v1/user-auth/my-data`, {
        method: 'POST',
        redirect: 'manual',
        headers: { authorization: `Bearer ${me.token}`, origin: server.baseUrl, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
      });
      expect(form.status).toBe(200);
      expect(((await form.json()) as { profile: { email: string } }).profile.email).toBe(me.email);
      expect((await download('')).status).toBe(401);
    }, 300_000);

    it('a download is limited per day, and a session older than a day proves the e-mail with a code first', async () => {
      const s = await register('Ismene', `Fairweather${randomInt(1000, 9999)}`);
      if (driver === 'pg') {
        // A session that signed in two days ago (PostgreSQL: changed under the running server).
        await withDatabase((db) => db.execute(sql`update sessions set created_at = now() - interval '2 days' where user_id = ${s.id}`));
        const asked = await download(s.token);
        expect(asked.status).toBe(403);
        expect(asked.body).toMatchObject({ status: false, message: `We e-mailed a 4-digit code to ${s.email}. Enter it to continue.`, data: { confirmCode: true } });
        // Without scripts: back to /settings with the code field open; the code still waiting is not sent again.
        const form = await fetch(`${server.baseUrl}/api/v1/user-auth/my-data?back=%2Fsettings`, {
          method: 'POST',
          redirect: 'manual',
          headers: { authorization: `Bearer ${s.token}`, origin: server.baseUrl, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
          body: 'code=',
        });
        expect(form.status).toBe(303);
        const next = new URL(form.headers.get('location')!, server.baseUrl);
        expect(next.pathname).toBe('/settings');
        expect(next.searchParams.get('confirm')).toBe('download');
        const shown = await (await fetch(next, { headers: { cookie: `ml_session=${s.token}`, accept: 'text/html' } })).text();
        expect(shown).toContain(`For your security, enter the 4-digit code we e-mailed to ${s.email}.`);
        expect(shown).toContain('Code from your e-mail');
        expect((await download(s.token, { code: '0000' === (await api.lastCode(s.email)) ? '1111' : '0000' })).status).toBe(400);
        const ok = await download(s.token, { code: await api.lastCode(s.email) });
        expect(ok.status).toBe(200);
        // Proved once, the session downloads without a code for a day.
        expect((await download(s.token)).status).toBe(200);
      }
      let answered = 0;
      for (let i = 0; i < 6; i++) if ((await download(s.token)).status === 200) answered++;
      const refused = await download(s.token);
      expect(refused.status).toBe(429);
      expect(refused.body.message).toMatch(/^You have downloaded your data several times today\. Please try again in \d+ hours\.$/);
      expect(answered).toBeLessThanOrEqual(5);
    }, 120_000);

    it('"Delete my account" asks about store credit, then erases the person and keeps the books; the login fails; no text column names them', async () => {
      const dashboardBefore = (await api.call('GET', '/admin/dashboard', { token: owner })).body.data;
      expect((await sendCode(me.token)).status).toBe(200);
      const code = await api.lastCode(me.email);
      const credit = await deleteAccount(me.token, { code });
      expect(credit.status).toBe(409);
      expect(credit.body.message).toMatch(/^You still have store credit of ₦[\d,.]+\. Tick the box to confirm you give it up\.$/);
      expect((await deleteAccount(me.token, { code: code === '0000' ? '1111' : '0000', giveUpCredit: true })).status).toBe(400);
      const gone = await deleteAccount(me.token, { code, giveUpCredit: true });
      expect(gone.status, JSON.stringify(gone.body)).toBe(200);
      expect(gone.body.message).toBe('Your account has been deleted.');

      // The books: the dashboard's totals are the same, the other shopper's order is untouched.
      const dashboardAfter = (await api.call('GET', '/admin/dashboard', { token: owner })).body.data;
      expect(dashboardBefore.figures.length).toBeGreaterThan(0);
      expect({ figures: dashboardAfter.figures, byStatus: dashboardAfter.byStatus, daily: dashboardAfter.daily }).toEqual({
        figures: dashboardBefore.figures,
        byStatus: dashboardBefore.byStatus,
        daily: dashboardBefore.daily,
      });
      const kept = await api.call('GET', `/admin/orders/${order.id}`, { token: owner });
      expect(kept.status).toBe(200);

      await withDatabase(async (db) => {
        // A tax invoice keeps the buyer it was issued to: the seller's copy is kept for the years
        // the VAT Act (s.55) and FIRS ask, which a deletion cannot shorten (docs/privacy.md).
        const retainedByLaw = new Set(['tax_documents.buyer']);
        const left = await mentions(db, [me.email, me.firstName, me.lastName, me.phone.digits, me.street]);
        expect(left.filter((hit) => !retainedByLaw.has(hit.split(' holds ')[0]!))).toEqual([]);
        // The other shopper is still found by the same scan (it can see what it looks for).
        expect((await mentions(db, [other.lastName])).length).toBeGreaterThan(0);
        const money = await checkMoney(db);
        expect(money.problems).toEqual([]);
        expect(money.ok).toBe(true);
        const [row] = rowsOf<{ user_id: string; delivery_address: Record<string, string> }>(await db.execute(sql`select user_id, delivery_address from orders where id = ${order.id}`));
        expect(row?.user_id).toBe(me.id);
        expect(row?.delivery_address).toMatchObject({ city: 'Ikeja', state: 'Lagos', country: 'nigeria', address: '', zipCode: '', name: 'Deleted account' });
      });
      // Signed out everywhere; the password no longer opens anything. (Checked after the scan: a
      // failed sign-in counts against the e-mail typed, for 15 minutes, whoever typed it.)
      expect((await api.call('GET', `/user-auth/get-user?userId=${me.id}`, { token: me.token })).status).toBe(401);
      expect((await api.call('POST', '/user-auth/login', { body: { email: me.email, password: PASSWORD } })).status).toBe(401);
      expect((await api.call('POST', '/user-auth/forgot-password', { body: { email: `erased-${me.id}@erased.invalid` } })).status).toBe(404);
    }, 300_000);

    it('the e-mail registers again as a new shopper, with nothing of the old one', async () => {
      const again = await register('Zephyrine', 'Anew', me.email);
      expect(again.id).not.toBe(me.id);
      const data = (await download(again.token)).body;
      expect(data.orders).toEqual([]);
      expect(data.storeCredit.balances).toEqual([]);
      expect(data.favourites).toEqual([]);
    }, 120_000);

    it('staff record a request by mail with its deadline, export with a code of their own, and owners see who opened the record', async () => {
      const recorded = await api.call('POST', '/admin/data-requests', { token: owner, body: { email: other.email, kind: 'export', channel: 'mail', note: 'Letter of 20 Nov' } });
      expect(recorded.status, JSON.stringify(recorded.body)).toBe(200);
      const days = Math.round((Date.parse(recorded.body.data.dueAt) - Date.now()) / 86_400_000);
      expect(days).toBe(30);
      const id = recorded.body.data.id as string;
      const html = async (path: string) => (await fetch(server.baseUrl + path, { headers: { cookie: `ml_session=${owner}`, accept: 'text/html' } })).text();
      const queue = await html('/admin/data-requests');
      expect(queue).toContain(`href="/admin/data-requests/${id}"`);
      expect(queue).toContain('30 days left');
      const detail = await html(`/admin/data-requests/${id}`);
      expect(detail).toContain('Export the shopper');
      expect(detail).toContain('Send code');
      const first = await api.call('POST', `/admin/data-requests/${id}/export`, { token: owner, body: {} });
      expect(first.status).toBe(403);
      expect(first.body.data).toEqual({ confirmCode: true });
      const exported = await api.call('POST', `/admin/data-requests/${id}/export`, { token: owner, body: { code: await api.lastCode(OWNER.email) } });
      expect(exported.status).toBe(200);
      expect(exported.body.profile.email).toBe(other.email);
      expect((await api.call('POST', `/admin/data-requests/${id}/answered`, { token: owner, body: {} })).status).toBe(200);
      const audit = await api.call('GET', '/admin/audit', { token: owner });
      expect(JSON.stringify(audit.body)).toContain('data-request.export');

      const record = await html(`/admin/customers/${other.id}`);
      expect(record).toContain('Viewed by');
      expect(record).toMatch(new RegExp(`data-testid="customer-views"[^]*${OWNER.email.replace('.', '\\.')}`));
      // A customer gets no back office.
      expect((await api.call('POST', '/admin/data-requests', { token: other.token, body: { email: other.email, kind: 'export', channel: 'mail' } })).status).toBe(403);

      // An erasure asked by phone: refused while the order is on its way, done once it is delivered.
      const erasure = await api.call('POST', '/admin/data-requests', { token: owner, body: { email: other.email, kind: 'erasure', channel: 'phone' } });
      const eid = erasure.body.data.id as string;
      const early = await api.call('POST', `/admin/data-requests/${eid}/erase`, { token: owner, body: {} });
      expect(early.status).toBe(409);
      expect(early.body.message).toBe('You have an order that is not delivered yet. You can delete your account once it has been delivered or cancelled.');
      const orders = await api.call('GET', `/orders/get-orders?userId=${other.id}`, { token: other.token });
      for (const o of orders.body.data.data as { id: string }[]) await deliver(o.id);
      const erased = await api.call('POST', `/admin/data-requests/${eid}/erase`, { token: owner, body: {} });
      expect(erased.status, JSON.stringify(erased.body)).toBe(200);
      expect((await api.call('POST', '/user-auth/login', { body: { email: other.email, password: PASSWORD } })).status).toBe(401);
      expect((await api.call('POST', `/admin/data-requests/${eid}/erase`, { token: owner, body: {} })).status).toBe(409);
    }, 120_000);

    it('the Privacy page says the books kept by law and each market\'s days to answer, from the settings, and follows a change at once', async () => {
      const privacy = async (market: 'NG' | 'ZA') => (await fetch(`${server.baseUrl}/privacy?market=${market}`, { headers: { accept: 'text/html' } })).text();
      const before = await privacy('ZA');
      expect(before).toContain('6 in Nigeria, 5 in South Africa');
      expect(before).toContain('We answer within 30 days.');
      expect(before.match(/id="privacy-choices"/g)).toHaveLength(1);
      const saved = await api.call('POST', '/admin/markets/ZA/privacy-days', { token: owner, body: { days: 21 } });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      // The cached copy is dropped: South Africa's page says the new days, Nigeria's keeps its own.
      expect(await privacy('ZA')).toContain('We answer within 21 days.');
      expect(await privacy('NG')).toContain('We answer within 30 days.');
      const reset = await api.call('POST', '/admin/markets/ZA/privacy-days', { token: owner, body: { days: 30 } });
      expect(reset.status).toBe(200);
    });
  });
}
