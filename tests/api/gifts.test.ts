import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { buyingClient } from './buying-client';

const run = promisify(execFile);
const RECIPIENT = '0803 555 0101';
const RECIPIENT_E164 = '+2348035550101';

/** A gift at checkout: validated in the market's country, wrapped at the market's fee, in the order's money, its recipient texted. */
describe('gift orders (PostgreSQL)', () => {
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

  async function shopperWithCart() {
    const shopper = await api.login();
    await api.clear(shopper.token, shopper.id);
    await api.add(shopper.token, await api.variant({ minStock: 2 }), 1);
    return shopper;
  }

  it('refuses a gift without a recipient, with a number of another market, or a message over 250 characters', async () => {
    const shopper = await shopperWithCart();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ recipientName: '', recipientPhone: RECIPIENT }, /recipient's name/],
      [{ recipientName: 'Ada', recipientPhone: '' }, /recipient's phone number/],
      [{ recipientName: 'Ada', recipientPhone: '1234567' }, /valid Nigerian phone number/],
      [{ recipientName: 'Ada', recipientPhone: RECIPIENT, message: 'x'.repeat(251) }, /at most 250 characters/],
    ];
    for (const [gift, text] of cases) {
      const res = await api.call('POST', '/orders/initiate', { token: shopper.token, body: { gift } });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(text);
    }
  }, 60_000);

  it('adds the wrapping fee staff set to the total, keeps the gift, texts the recipient, passes the money check and refunds the wrapped total', async () => {
    // Staff set Nigeria's wrapping fee to ₦7,500.
    const set = await api.call('POST', '/admin/markets/NG/gift-wrap', { token: owner, body: { fee: 7500 } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const shopper = await shopperWithCart();
    const cartTotal = (await api.cart(shopper.token, shopper.id)).total as number;
    const init = await api.call('POST', '/orders/initiate', {
      token: shopper.token,
      body: { gift: { recipientName: 'Ada Obi', recipientPhone: RECIPIENT, message: 'Happy birthday, Ada!', wrap: true, hidePrices: true } },
    });
    expect(init.status, JSON.stringify(init.body)).toBe(200);
    await api.answerSimulated(init.body.data.reference, 'pay');
    const placed = await api.call('POST', '/orders/place-order', { token: shopper.token, body: { paymentReference: init.body.data.reference } });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const order = placed.body.data;
    expect(order.giftWrap).toBe(7500);
    expect(order.total).toBe(cartTotal + 7500);
    expect(order.gift).toEqual({ recipientName: 'Ada Obi', recipientPhone: RECIPIENT_E164, message: 'Happy birthday, Ada!', wrap: true, hidePrices: true });

    // The recipient is texted (the dev outbox), without a price.
    const texts = await api.call('GET', `/dev/outbox?to=${encodeURIComponent(RECIPIENT_E164)}`);
    const bodies = (texts.body as { text: string }[]).map((t) => t.text);
    expect(bodies.some((t) => t.includes(order.trackingNumber) && t.includes('sent you a gift'))).toBe(true);
    expect(bodies.join(' ')).not.toMatch(/₦/);

    expect((await moneyCheck()).code).toBe(0);
    // A full refund gives back the wrapped total.
    const refund = await api.call('POST', `/admin/orders/${order.id}/refund`, { token: owner, body: {} });
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    const after = await moneyCheck();
    expect(after.out).toMatch(/money check: ok/);
    expect(after.code).toBe(0);
  }, 240_000);

  it("a gift's return: the delivered text carries the link; a tampered link is 404; code, account and request credit the recipient", async () => {
    const phone = '+2348035550909';
    const shopper = await shopperWithCart();
    const init = await api.call('POST', '/orders/initiate', { token: shopper.token, body: { gift: { recipientName: 'Kemi Ade', recipientPhone: '0803 555 0909', message: '', wrap: false, hidePrices: true } } });
    await api.answerSimulated(init.body.data.reference, 'pay');
    const order = (await api.call('POST', '/orders/place-order', { token: shopper.token, body: { paymentReference: init.body.data.reference } })).body.data;
    for (const status of ['processed', 'delivered']) {
      const moved = await api.call('POST', `/admin/orders/${order.id}/status`, { token: owner, body: { status } });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    }
    const texts = ((await api.call('GET', `/dev/outbox?to=${encodeURIComponent(phone)}`)).body as { text: string }[]).map((t) => t.text);
    const link = /(https?:\/\/\S+\/gift-return\/(\S+))/.exec(texts.join(' '))!;
    expect(link, texts.join('\n')).not.toBeNull();
    const token = link[2]!;
    const get = (path: string, init: RequestInit = {}) => fetch(new URL(path, server.baseUrl), init);

    // Tampered, foreign and unsigned links: 404, never 500, on the page and the API alike.
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const bad of [tampered, 'nonsense', `${Buffer.from(order.id).toString('base64url')}.${'A'.repeat(43)}`]) {
      expect((await get(`/api/v1/gift-returns/${bad}`)).status).toBe(404);
      expect((await get(`/gift-return/${bad}`)).status).toBe(404);
      expect((await get(`/api/v1/gift-returns/${bad}/send-code`, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.baseUrl }, body: '{}' })).status).toBe(404);
    }
    const view = await (await get(`/api/v1/gift-returns/${token}`)).json();
    expect(view.data).toMatchObject({ proven: false, maskedPhone: '+234 ••• ••• 0909' });
    expect(JSON.stringify(view)).not.toContain(phone);
    expect(JSON.stringify(view)).not.toMatch(/price|₦/i);

    const post = (path: string, body: unknown, cookie = '') =>
      get(`/api/v1/gift-returns/${token}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.baseUrl, ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
    expect((await post('returns', { items: [{ orderItemId: order.items[0].id, quantity: 1 }], reason: 'too_big', method: 'drop_off' })).status).toBe(400);
    expect((await post('send-code', {})).status).toBe(200);
    const code = /code is (\d{4})/.exec((await api.call('GET', `/dev/outbox?to=${encodeURIComponent(phone)}`)).body[0].text)![1];
    const verified = await post('verify', { code });
    expect(verified.status).toBe(200);
    const cookie = verified.headers.get('set-cookie')!.split(';')[0]!;
    expect(verified.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    const email = `kemi-${Date.now()}@example.com`;
    const account = await post('account', { firstName: 'Kemi', lastName: 'Ade', email, password: 'GiftReturn2026!' }, cookie);
    expect(account.status, await account.clone().text()).toBe(201);
    // No credit before the e-mail is confirmed; a sign-up with that e-mail meanwhile takes nothing over.
    const early = await post('returns', { items: [{ orderItemId: order.items[0].id, quantity: 1 }], reason: 'too_big', method: 'drop_off' }, cookie);
    expect([early.status, (await early.json()).message]).toEqual([409, 'Please confirm your e-mail with the code we sent you first: the store credit goes to that account.']);
    const eve = await api.call('POST', '/user-auth/create', { body: { firstName: 'Eve', lastName: 'Mallory', email, password: 'EveSignsUp2026!', phoneNumber: '0803 555 0888', country: 'nigeria' } });
    expect(eve.status, JSON.stringify(eve.body)).toBe(409);
    const mail = ((await api.call('GET', `/dev/outbox?to=${encodeURIComponent(email)}`)).body as { text: string }[])[0]!;
    const confirmed = await api.call('POST', '/user-auth/verify-otp', { body: { email, otp: /code is (\d{4})/.exec(mail.text)![1] } });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    const signedIn = await api.call('POST', '/user-auth/login', { body: { email, password: 'GiftReturn2026!' } });
    expect(signedIn.body.data.user.firstName).toBe('Kemi');
    const asked = await post('returns', { items: [{ orderItemId: order.items[0].id, quantity: 1 }], reason: 'too_big', method: 'drop_off' }, cookie);
    expect(asked.status, await asked.clone().text()).toBe(201);
    const ret = (await asked.json()).data;
    expect(JSON.stringify(ret)).not.toMatch(/paid|₦/);
    // Staff credit it: the recipient's store credit, and the order's books still add up.
    for (const action of ['approve', 'receive', 'credit']) {
      const step = await api.call('POST', `/admin/returns/${ret.id}`, { token: owner, body: { action } });
      expect(step.status, JSON.stringify(step.body)).toBe(200);
    }
    expect((await moneyCheck()).code).toBe(0);
  }, 240_000);
});
