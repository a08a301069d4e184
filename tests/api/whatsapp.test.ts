import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboundText, startFakeWhatsApp, type FakeWhatsApp } from '../support/fake-whatsapp';
import { startServer, type RunningServer } from '../support/server';
import { buyingClient } from './buying-client';

/** The demo shopper's number, as the seed stores it. */
const DEMO_PHONE = '+2348012345678';
type Api = ReturnType<typeof buyingClient>;

async function placeOrder(api: Api, shopper: { token: string; id: string }, extra: Record<string, unknown> = {}): Promise<{ id: string; trackingNumber: string }> {
  await api.clear(shopper.token, shopper.id);
  await api.add(shopper.token, await api.variant({ minStock: 3 }), 1);
  const init = await api.call('POST', '/orders/initiate', { token: shopper.token, body: extra });
  expect(init.status, JSON.stringify(init.body)).toBe(200);
  await api.answerSimulated(init.body.data.reference, 'pay');
  const placed = await api.call('POST', '/orders/place-order', { token: shopper.token, body: { paymentReference: init.body.data.reference } });
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  return placed.body.data;
}

/** Order updates on WhatsApp through the Cloud API (a local fake), its webhook and STOP. */
describe('WhatsApp order updates through the Cloud API (a local fake)', () => {
  let server: RunningServer;
  let fake: FakeWhatsApp;
  let api: Api;
  const webhook = (init: RequestInit, query = '') => fetch(`${server.baseUrl}/api/v1/webhooks/whatsapp${query}`, init);

  beforeAll(async () => {
    fake = await startFakeWhatsApp();
    server = await startServer('pglite', fake.env);
    api = buyingClient(server.baseUrl);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  it('answers Meta\'s verification challenge only with the store\'s verify token', async () => {
    const ok = await webhook({}, `?hub.mode=subscribe&hub.verify_token=${fake.verifyToken}&hub.challenge=1158201444`);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('1158201444');
    const wrong = await webhook({}, '?hub.mode=subscribe&hub.verify_token=not-the-token&hub.challenge=1158201444');
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toMatchObject({ status: false, message: 'The verify token does not match' });
    expect((await webhook({}, `?hub.verify_token=${fake.verifyToken}`)).status).toBe(400);
  });

  it('sends the order confirmation on WhatsApp once the shopper chose it, and STOP from their number ends it', async () => {
    const shopper = await api.login();
    const chose = await api.call('PATCH', '/user-auth/text-updates', { token: shopper.token, body: { updates: 'whatsapp' } });
    expect(chose.status).toBe(200);
    expect(chose.body).toMatchObject({ message: 'We will send your order updates on WhatsApp from Maison Luxe. Reply STOP there to end them.', data: { updates: 'whatsapp', textUpdates: false } });
    const order = await placeOrder(api, shopper);
    expect(fake.messages).toEqual([{ to: DEMO_PHONE.slice(1), template: 'order_confirmed', language: 'en', params: [order.trackingNumber], id: expect.stringMatching(/^wamid\./) }]);

    // A STOP signed with another secret: refused through the one error path, and nothing changes.
    const forged = fake.signedWebhook(inboundText(DEMO_PHONE.slice(1), 'STOP'), 'not-the-app-secret');
    const refused = await webhook({ method: 'POST', body: forged.body, headers: forged.headers });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ status: false, message: 'Invalid signature' });
    const unsigned = await webhook({ method: 'POST', body: forged.body, headers: { 'content-type': 'application/json' } });
    expect(unsigned.status).toBe(401);
    await placeOrder(api, shopper);
    expect(fake.messages).toHaveLength(2);

    // Another text from the shopper changes nothing; " stop " does.
    const hello = fake.signedWebhook(inboundText(DEMO_PHONE.slice(1), 'Hello, where is my bag?'));
    expect((await webhook({ method: 'POST', body: hello.body, headers: hello.headers })).status).toBe(200);
    await placeOrder(api, shopper);
    expect(fake.messages).toHaveLength(3);
    const stop = fake.signedWebhook(inboundText(DEMO_PHONE.slice(1), ' stop '));
    const stopped = await webhook({ method: 'POST', body: stop.body, headers: stop.headers });
    expect(stopped.status).toBe(200);
    expect(await stopped.json()).toMatchObject({ status: true });
    const calls = fake.calls.length;
    await placeOrder(api, shopper);
    // No WhatsApp message, no reply to the STOP, and no text instead.
    expect(fake.calls).toHaveLength(calls);
    expect((await api.call('GET', `/dev/outbox?to=${encodeURIComponent(DEMO_PHONE)}`)).body).toEqual([]);
  });

  it('takes the choice at checkout with the order', async () => {
    const shopper = await api.login();
    const before = fake.messages.length;
    const order = await placeOrder(api, shopper, { updates: 'whatsapp' });
    expect(fake.messages.slice(before)).toEqual([expect.objectContaining({ template: 'order_confirmed', params: [order.trackingNumber] })]);
    const bad = await api.call('POST', '/orders/initiate', { token: shopper.token, body: { updates: 'pigeon' } });
    expect(bad.status).toBe(400);
    await api.call('PATCH', '/user-auth/text-updates', { token: shopper.token, body: { updates: 'none' } });
  });
});
