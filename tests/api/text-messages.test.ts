import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeClickatell, type FakeClickatell } from '../support/fake-clickatell';
import { startServer, type RunningServer } from '../support/server';
import { buyingClient } from './buying-client';

/** The demo shopper's number, as the seed stores it. */
const DEMO_PHONE = '+2348012345678';

type Api = ReturnType<typeof buyingClient>;

/** Places an order of one unit with the simulated provider; returns the order. */
async function placeOrder(api: Api, shopper: { token: string; id: string }): Promise<{ id: string; trackingNumber: string }> {
  await api.clear(shopper.token, shopper.id);
  await api.add(shopper.token, await api.variant({ minStock: 3 }), 1);
  const init = await api.call('POST', '/orders/initiate', { token: shopper.token, body: {} });
  expect(init.status).toBe(200);
  await api.answerSimulated(init.body.data.reference, 'pay');
  const placed = await api.call('POST', '/orders/place-order', { token: shopper.token, body: { paymentReference: init.body.data.reference } });
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  return placed.body.data;
}

const optIn = (api: Api, token: string, textUpdates: boolean) => api.call('PATCH', '/user-auth/text-updates', { token, body: { textUpdates } });

/** Texts when an order is placed, on their way and delivered, to shoppers who opted in. */
for (const driver of ['pglite', 'pg'] as const) {
  describe(`text messages through Clickatell (a local fake) on ${driver}`, () => {
    let server: RunningServer;
    let clickatell: FakeClickatell;
    let api: Api;
    let owner: string;
    let log = '';

    beforeAll(async () => {
      clickatell = await startFakeClickatell();
      server = await startServer(
        driver,
        { SMS_PROVIDER: 'clickatell', CLICKATELL_API_KEY: clickatell.apiKey, CLICKATELL_BASE_URL: clickatell.baseUrl },
        { onOutput: (text) => (log += text) },
      );
      api = buyingClient(server.baseUrl);
      owner = await api.signInOwner();
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
      await clickatell?.close();
    });

    it('texts a shopper who opted in when the order is placed and delivered (Ready to ship is not yet on its way), with the request Clickatell documents', async () => {
      const shopper = await api.login();
      // Not opted in (the default): no text.
      await placeOrder(api, shopper);
      expect(clickatell.texts).toEqual([]);

      expect((await optIn(api, undefined as unknown as string, true)).status).toBe(401);
      const on = await optIn(api, shopper.token, true);
      expect(on.status).toBe(200);
      expect(on.body).toMatchObject({ status: true, message: 'We will text you when your orders are placed, on their way and delivered.', data: { textUpdates: true } });
      const order = await placeOrder(api, shopper);
      expect(clickatell.texts).toHaveLength(1);
      const call = clickatell.calls.at(-1)!;
      expect(call).toMatchObject({ method: 'POST', path: '/v1/message', auth: clickatell.apiKey, contentType: 'application/json' });
      expect(call.body).toEqual({ messages: [{ channel: 'sms', to: DEMO_PHONE.slice(1), content: `Maison Luxe: your order ${order.trackingNumber} has been placed.` }] });

      for (const status of ['processed', 'delivered']) {
        const res = await api.call('POST', `/admin/orders/${order.id}/status`, { token: owner, body: { status } });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
      expect(clickatell.texts.map((t) => t.content)).toEqual([
        `Maison Luxe: your order ${order.trackingNumber} has been placed.`,
        `Maison Luxe: your order ${order.trackingNumber} has been delivered.`,
      ]);
      expect(new Set(clickatell.texts.map((t) => t.to))).toEqual(new Set([DEMO_PHONE.slice(1)]));

      // Opted out again: no more texts.
      expect((await optIn(api, shopper.token, false)).body).toMatchObject({ message: 'We will no longer text you about your orders.', data: { textUpdates: false } });
      await placeOrder(api, shopper);
      expect(clickatell.texts).toHaveLength(2);
      // The phone number and the text never reach the log.
      expect(log).not.toContain('8012345678');
      expect(log).not.toContain('has been placed');
    });

    it('places the order when the provider is down: the text is logged as failed and dropped, never retried', async () => {
      const shopper = await api.login();
      await optIn(api, shopper.token, true);
      const before = clickatell.calls.length;
      clickatell.behaviour.down = true;
      try {
        const order = await placeOrder(api, shopper);
        const mine = await api.call('GET', `/orders/get-orders?id=${order.id}`, { token: shopper.token });
        expect(mine.body.data.data).toMatchObject({ id: order.id, status: 'pending' });
        // The confirmation mail still went.
        expect((await api.lastMail('demo@maisonluxe.ng')).subject).toContain(order.trackingNumber);
      } finally {
        clickatell.behaviour.down = false;
      }
      expect(clickatell.calls.length).toBe(before + 1);
      await expect.poll(() => log).toContain('shopper update text failed (dropped)');
      expect(log).toContain('HTTP 503');
      // Nothing sends it later.
      await new Promise((r) => setTimeout(r, 500));
      expect(clickatell.calls.length).toBe(before + 1);
      await optIn(api, shopper.token, false);
    });
  });

  describe(`text messages without an SMS provider (the dev outbox) on ${driver}`, () => {
    let server: RunningServer;
    let api: Api;

    beforeAll(async () => {
      server = await startServer(driver);
      api = buyingClient(server.baseUrl);
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
    });

    it('keeps numbers in E.164 and lists a number\'s texts at GET /api/v1/dev/outbox?to=+234…, as it lists mail', async () => {
      // A new shopper gives a national number: it is kept in E.164.
      const email = api.uniqueEmail('texts');
      const created = await api.call('POST', '/user-auth/create', { body: api.registration(email, { phoneNumber: '0803 765 4321' }) });
      expect(created.status).toBe(201);
      expect(created.body.data.user.phoneNumber).toBe('+2348037654321');
      const za = await api.call('POST', '/user-auth/create', { body: api.registration(api.uniqueEmail('texts-za'), { phoneNumber: '082 123 4567', country: 'south_africa' }) });
      expect(za.body.data.user.phoneNumber).toBe('+27821234567');

      const shopper = await api.login();
      expect((await optIn(api, shopper.token, true)).status).toBe(200);
      const order = await placeOrder(api, shopper);
      const outbox = (to: string) => fetch(`${server.baseUrl}/api/v1/dev/outbox?to=${to}`).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
      const listed = await outbox(encodeURIComponent(DEMO_PHONE));
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual([{ to: DEMO_PHONE, text: `Maison Luxe: your order ${order.trackingNumber} has been placed.`, createdAt: expect.any(String) }]);
      // An unencoded + (read as a space) and no + at all name the same number.
      expect((await outbox(DEMO_PHONE)).body).toEqual(listed.body);
      expect((await outbox(DEMO_PHONE.slice(1))).body).toEqual(listed.body);
      expect((await outbox(encodeURIComponent('+27821234567'))).body).toEqual([]);
      // Mail is listed as before.
      const mail = await outbox(encodeURIComponent('demo@maisonluxe.ng'));
      expect(mail.body[0]).toMatchObject({ to: 'demo@maisonluxe.ng', subject: expect.stringContaining(order.trackingNumber), text: expect.any(String), html: expect.any(String) });
      expect((await fetch(`${server.baseUrl}/api/v1/dev/outbox`)).status).toBe(400);
    });

    it('refuses a bad choice and another account\'s', async () => {
      const shopper = await api.login();
      const other = await api.verifiedUser('texts-other');
      const bad = await api.call('PATCH', '/user-auth/text-updates', { token: shopper.token, body: { textUpdates: 'yes' } });
      expect(bad.status).toBe(400);
      const theirs = await api.call('PATCH', '/user-auth/text-updates', { token: shopper.token, body: { textUpdates: true, userId: other.id } });
      expect(theirs.status).toBe(403);
    });
  });
}
