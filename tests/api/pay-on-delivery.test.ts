import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { buyingClient, type Variant } from './buying-client';

/**
 * Pay on delivery through the API, on two app servers sharing PostgreSQL. The phone is marked
 * verified straight in the database (test-only; verifying it by text is the phone's own tests).
 */
describe('pay on delivery API on two app servers sharing PostgreSQL', () => {
  let a: RunningServer;
  let b: RunningServer;
  let db: pg.Client;
  let api: ReturnType<typeof buyingClient>;
  let apiB: ReturnType<typeof buyingClient>;

  beforeAll(async () => {
    a = await startServer('pg', { LOG_LEVEL: 'error' });
    b = await startServer('pg', { LOG_LEVEL: 'error' }, { databaseUrl: a.databaseUrl! });
    db = new pg.Client({ connectionString: a.databaseUrl! });
    await db.connect();
    api = buyingClient(a.baseUrl);
    apiB = buyingClient(b.baseUrl);
  });
  afterAll(async () => {
    await db?.end();
    await b?.stop();
    await a?.stop();
  });

  const verifyPhone = (email: string) => db.query('update users set phone_verified_number = phone_number where email = $1', [email]);
  /** The market's rules, as staff would set them (market_settings). */
  const rules = (capMinor: number, ceilingMinor: number, depositPercent = 30) =>
    db.query(
      `insert into market_settings (market, pod_enabled, pod_cap_minor, pod_ceiling_minor, pod_deposit_percent) values ('NG', true, $1, $2, $3)
       on conflict (market) do update set pod_cap_minor = $1, pod_ceiling_minor = $2, pod_deposit_percent = $3`,
      [capMinor, ceilingMinor, depositPercent],
    );
  const variantId = async (v: Variant) =>
    (
      await db.query(
        `select v.id from variants v left join colors c on c.id = v.color_id left join sizes s on s.id = v.size_id
          where v.product_id = $1 and c.name is not distinct from $2 and s.name is not distinct from $3`,
        [v.productId, v.color, v.size],
      )
    ).rows[0].id as number;
  async function shopperWith(v: Variant, tag: string) {
    const s = await api.verifiedUser(tag);
    expect((await api.add(s.token, v, 1)).status).toBe(200);
    return s;
  }
  const podInitiate = (client: ReturnType<typeof buyingClient>, token: string) => client.call('POST', '/orders/initiate', { token, body: { paymentMethod: 'on_delivery' } });

  it('places a whole pay-on-delivery order (JSON and plain form), shows it due, and refuses without a verified phone', async () => {
    const [v1, v2] = await api.variants({ minStock: 3, sized: false, count: 2 });
    await rules(1_000_000_000, 2_000_000_000);
    const s = await shopperWith(v1!, 'pod');
    const refused = await podInitiate(api, s.token);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Verify your phone to pay on delivery.');
    await verifyPhone(s.email);
    const before = await api.stockOf(v1!);
    const placed = await podInitiate(api, s.token);
    expect(placed.status).toBe(200);
    expect(placed.body).toMatchObject({ status: 'success', message: 'Order placed successfully!', data: { amount: 0, currency: 'NGN' } });
    const ref = placed.body.data.reference;
    expect(placed.body.data.authorization_url).toBe(`${a.baseUrl}/place-order?paid=true&trxref=${ref}&reference=${ref}`);
    expect(await api.stockOf(v1!)).toBe(before - 1);
    const list = await api.call('GET', '/orders/get-orders', { token: s.token });
    const order = list.body.data.data[0];
    expect(order).toMatchObject({ status: 'pending', paymentMethod: 'Pay on delivery', paymentMethodCode: 'on_delivery', payment: 'due', amountDue: order.total, cancellable: true });
    // The return page finds the order placed (the same one).
    const page = await fetch(placed.body.data.authorization_url, { headers: { authorization: `Bearer ${s.token}` } });
    expect(await page.text()).toContain('Order placed successfully!');
    expect((await api.call('GET', '/orders/get-orders', { token: s.token })).body.data.data).toHaveLength(1);
    const details = await (await fetch(`${b.baseUrl}/order-details/${order.id}`, { headers: { authorization: `Bearer ${s.token}` } })).text();
    expect(details).toContain('Pay on delivery');
    expect(details).toMatch(/Amount to pay on delivery: ₦/);
    expect(details).toContain('Cancel order');

    // A plain form post (no scripts): 303 to the return page, which shows the order placed.
    expect((await api.add(s.token, v2!, 1)).status).toBe(200);
    const form = await fetch(`${a.baseUrl}/api/v1/orders/initiate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', origin: a.baseUrl },
      body: 'deliveryOption=pickup&paymentMethod=on_delivery',
      redirect: 'manual',
    });
    expect(form.status).toBe(303);
    const location = new URL(form.headers.get('location')!, a.baseUrl);
    expect(location.pathname).toBe('/place-order');
    const back = await fetch(location, { headers: { authorization: `Bearer ${s.token}` } });
    expect(await back.text()).toContain('Order placed successfully!');
    const orders = (await api.call('GET', '/orders/get-orders', { token: s.token })).body.data.data;
    expect(orders).toHaveLength(2);
    expect(orders[0]).toMatchObject({ deliveryOption: 'pickup', paymentMethodCode: 'on_delivery' });
  });

  it('above the cap the deposit is paid online first; above the ceiling pay on delivery is refused', async () => {
    const v = await api.variant({ minStock: 3, sized: false, skip: 2 });
    const s = await shopperWith(v, 'deposit');
    await verifyPhone(s.email);
    await rules(100, 100);
    const tooMuch = await podInitiate(api, s.token);
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.message).toBe('Pay on delivery is not available for orders above ₦1.');
    await rules(100, 1_000_000_000, 30);
    const started = await podInitiate(api, s.token);
    expect(started.body.message).toBe('Authorization URL created');
    const total = (await api.cart(s.token, s.id)).total;
    expect(started.body.data.amount).toBe(Math.ceil(total * 30) / 100);
    await api.answerSimulated(started.body.data.reference, 'pay');
    const placed = await api.call('POST', '/orders/place-order', { token: s.token, body: { paymentReference: started.body.data.reference } });
    expect(placed.status).toBe(200);
    const order = (await api.call('GET', '/orders/get-orders', { token: s.token })).body.data.data[0];
    expect(order).toMatchObject({ paymentMethodCode: 'on_delivery', payment: 'due' });
    expect(order.amountDue).toBeCloseTo(total - started.body.data.amount, 2);
  });

  it('cancel: 404 for another shopper, one cancel and one refund when two servers cancel at once, the stock back, a plain form goes back to the page', async () => {
    const v = await api.variant({ minStock: 3, sized: false, skip: 3 });
    const s = await shopperWith(v, 'cancel');
    const stranger = await api.verifiedUser('stranger');
    await verifyPhone(s.email);
    await rules(100, 1_000_000_000, 30);
    const before = await api.stockOf(v);
    const started = await podInitiate(api, s.token);
    await api.answerSimulated(started.body.data.reference, 'pay');
    await api.call('POST', '/orders/place-order', { token: s.token, body: { paymentReference: started.body.data.reference } });
    const order = (await api.call('GET', '/orders/get-orders', { token: s.token })).body.data.data[0];
    expect(await api.stockOf(v)).toBe(before - 1);
    expect((await api.call('POST', `/orders/${order.id}/cancel`, { token: stranger.token, body: {} })).status).toBe(404);
    expect((await api.call('POST', '/orders/not-an-order/cancel', { token: s.token, body: {} })).status).toBe(404);
    expect((await api.call('POST', `/orders/${order.id}/cancel`, { body: {} })).status).toBe(401);
    const [x, y] = await Promise.all([
      api.call('POST', `/orders/${order.id}/cancel`, { token: s.token, body: {} }),
      apiB.call('POST', `/orders/${order.id}/cancel`, { token: s.token, body: {} }),
    ]);
    expect([x.status, y.status].sort()).toEqual([200, 409]);
    expect([x, y].find((r) => r.status === 200)!.body.message).toBe('Your order has been cancelled.');
    expect([x, y].find((r) => r.status === 409)!.body.message).toBe('This order can no longer be cancelled.');
    expect(await api.stockOf(v)).toBe(before);
    const [p] = (await db.query('select status, amount_minor, refunded_minor, refund_pending_minor from payments where reference = $1', [started.body.data.reference])).rows;
    expect(p).toMatchObject({ status: 'refunded', refund_pending_minor: null });
    expect(Number(p.refunded_minor)).toBe(Number(p.amount_minor));
    const cancelled = (await api.call('GET', `/orders/get-orders?id=${order.id}`, { token: s.token })).body.data.data;
    expect(cancelled).toMatchObject({ status: 'cancelled', cancellable: false, amountDue: 0 });

    // Without scripts: the form posts and goes back to the order's page with the notice.
    await api.add(s.token, v, 1);
    await rules(1_000_000_000, 2_000_000_000);
    await podInitiate(api, s.token);
    const second = (await api.call('GET', '/orders/get-orders', { token: s.token })).body.data.data[0];
    const form = await fetch(`${b.baseUrl}/api/v1/orders/${second.id}/cancel?back=${encodeURIComponent(`/order-details/${second.id}`)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', origin: b.baseUrl },
      body: '',
      redirect: 'manual',
    });
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe(`/order-details/${second.id}?notice=order-cancelled-by-shopper`);
    const page = await (await fetch(new URL(form.headers.get('location')!, b.baseUrl), { headers: { authorization: `Bearer ${s.token}` } })).text();
    expect(page).toContain('Your order has been cancelled.');
    expect(page).not.toContain('>Cancel order<');
  });

  it('a pay-on-delivery order and an online payment racing for the last unit on two servers give one order', async () => {
    const v = await api.variant({ minStock: 2, sized: false, skip: 4 });
    await rules(1_000_000_000, 2_000_000_000);
    const pod = await shopperWith(v, 'race-pod');
    const online = await shopperWith(v, 'race-online');
    await verifyPhone(pod.email);
    await db.query('update variants set stock = 1 where id = $1', [await variantId(v)]);
    // Earlier tests may have sold this variant too: the race adds one line.
    const before = (await db.query('select count(*)::int as n from order_items where variant_id = $1', [await variantId(v)])).rows[0].n as number;
    const init = await apiB.call('POST', '/orders/initiate', { token: online.token, body: {} });
    await apiB.answerSimulated(init.body.data.reference, 'pay');
    const [podResult, onlineResult] = await Promise.all([
      podInitiate(api, pod.token),
      apiB.call('POST', '/orders/place-order', { token: online.token, body: { paymentReference: init.body.data.reference } }),
    ]);
    const statuses = [podResult.status, onlineResult.status];
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    const sold = await db.query('select count(*)::int as n from order_items where variant_id = $1', [await variantId(v)]);
    expect(sold.rows[0].n).toBe(before + 1);
    const [row] = (await db.query('select stock from variants where id = $1', [await variantId(v)])).rows;
    expect(row.stock).toBe(0);
    if (podResult.status !== 200) expect(podResult.body.message).toMatch(/out of stock/);
  });
});
