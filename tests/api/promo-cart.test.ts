import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { buyingClient, type Variant } from './buying-client';

const minor = (major: number) => Math.round(major * 100);

/**
 * Discount codes over HTTP: apply and remove on the cart API (JSON and
 * plain form posts), each refusal as a 4xx with the spec's text, the totals, the payment charged
 * the discounted total, the order keeping the code and discount, the CSV export and line refunds.
 * Codes are made the way testers make them: the owner's POST /api/v1/admin/promotions.
 */
for (const driver of ['pglite', 'pg'] as const) {
  describe(`discount codes over HTTP on ${driver}`, () => {
    let server: RunningServer;
    let api: ReturnType<typeof buyingClient>;
    let owner: string;
    let bag: Variant;

    beforeAll(async () => {
      server = await startServer(driver);
      api = buyingClient(server.baseUrl);
      owner = await api.signInOwner();
      bag = await api.variant({ minStock: 8, sized: false });
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
    });

    async function newCode(body: { percentOff: number | undefined; usageLimit?: number | null } & Record<string, unknown>): Promise<string> {
      const code = `T${randomBytes(4).toString('hex').toUpperCase()}`;
      const res = await api.call('POST', '/admin/promotions', { token: owner, body: { code, usageLimit: null, ...body } });
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
      return code;
    }

    async function shopperWith(quantity: number) {
      const shopper = await api.verifiedUser('promo');
      expect((await api.add(shopper.token, bag, quantity)).status).toBe(200);
      return shopper;
    }

    it('applies a code (any case): the cart answers discount and discountCode beside total; DELETE takes it off', async () => {
      const code = await newCode({ percentOff: 20, usageLimit: 100 });
      const shopper = await shopperWith(2);
      const applied = await api.call('POST', '/cart/discount', { token: shopper.token, body: { code: code.toLowerCase() } });
      expect(applied.status).toBe(200);
      expect(applied.body).toMatchObject({ status: true, message: 'Discount applied!', data: { discountCode: code } });
      const cart = applied.body.data;
      expect(minor(cart.discount)).toBe(Math.floor((minor(cart.subtotal) * 20) / 100));
      expect(minor(cart.total)).toBe(minor(cart.subtotal) - minor(cart.discount) + minor(cart.deliveryFee));
      // Every read of the cart carries them (spec section 7's shape otherwise unchanged).
      const read = await api.cart(shopper.token, shopper.id);
      expect(read).toMatchObject({ discount: cart.discount, discountCode: code, total: cart.total, subtotal: cart.subtotal });

      const removed = await api.call('DELETE', '/cart/discount', { token: shopper.token });
      expect(removed.status).toBe(200);
      expect(removed.body.data).toMatchObject({ discount: 0, discountCode: null, total: cart.subtotal + cart.deliveryFee });
    });

    it("refuses with the spec's texts as 4xx, never 500", async () => {
      const shopper = await shopperWith(1);
      for (const body of [{ code: 'NOPE-NOT-A-CODE' }, { code: '' }, {}, { code: 'x'.repeat(200) }]) {
        const res = await api.call('POST', '/cart/discount', { token: shopper.token, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.message).toBe('This code is not valid.');
      }
      const unauthenticated = await api.call('POST', '/cart/discount', { body: { code: 'ANY' } });
      expect(unauthenticated.status).toBe(401);
      expect((await api.cart(shopper.token, shopper.id)).discountCode).toBeNull();
    });

    it('guessing codes is bounded: 30 wrong codes at once from one account, 10 are refused (400) and 20 paused (429, Retry-After)', async () => {
      const shopper = await shopperWith(1);
      const answers = await Promise.all(
        Array.from({ length: 30 }, () => api.call('POST', '/cart/discount', { token: shopper.token, body: { code: `GUESS${randomBytes(4).toString('hex').toUpperCase()}` } })),
      );
      expect(answers.filter((a) => a.status === 400)).toHaveLength(10);
      const paused = answers.filter((a) => a.status === 429);
      expect(paused).toHaveLength(20);
      for (const a of paused) {
        expect(a.body.message).toMatch(/^Too many discount codes were tried\. Please try again in \d+ minutes?\.$/);
        expect(Number(a.headers.get('retry-after'))).toBeGreaterThan(50 * 60);
      }
      // A real code waits too, until the hour is over; another shopper is not held back.
      const code = await newCode({ percentOff: 10 });
      expect((await api.call('POST', '/cart/discount', { token: shopper.token, body: { code } })).status).toBe(429);
      const other = await shopperWith(1);
      expect((await api.call('POST', '/cart/discount', { token: other.token, body: { code } })).status).toBe(200);
    });

    it('says when a code has expired or the cart is too small for it', async () => {
      const shopper = await shopperWith(1);
      const subtotal = (await api.cart(shopper.token, shopper.id)).subtotal as number;
      const expired = await newCode({ percentOff: 10, endsAt: new Date(Date.now() - 3_600_000).toISOString() });
      const late = await api.call('POST', '/cart/discount', { token: shopper.token, body: { code: expired } });
      expect(late.status).toBe(400);
      expect(late.body.message).toBe('This code has expired.');
      const big = await newCode({ percentOff: 10, minSubtotal: { NG: subtotal + 1000 } });
      const small = await api.call('POST', '/cart/discount', { token: shopper.token, body: { code: big } });
      expect(small.status).toBe(400);
      expect(small.body.message).toMatch(/^Spend at least ₦[\d,]+(\.\d\d)? to use this code\.$/);
    });

    it('checks the code again when the shopper switches market: a code with no rand amount comes off, and the cart says so', async () => {
      const code = await newCode({ kind: 'fixed', percentOff: undefined, amountOff: { NG: 5000 } });
      const shopper = await shopperWith(1);
      const applied = await api.call('POST', '/cart/discount', { token: shopper.token, body: { code } });
      expect(applied.status).toBe(200);
      expect(applied.body.data.discount).toBe(5000);
      const za = await api.call('GET', `/cart/${shopper.id}`, { token: shopper.token, headers: { cookie: 'ml_market=ZA' } });
      expect(za.status).toBe(200);
      expect(za.body.data).toMatchObject({ market: 'ZA', currency: 'ZAR', discount: 0, discountCode: null });
      expect(za.body.data.notice).toMatch(/Your discount code no longer applies in South Africa/);
      expect(minor(za.body.data.total)).toBe(minor(za.body.data.subtotal) + minor(za.body.data.deliveryFee));
      // The header's "Shop in" form (a plain form post) says so in its notice.
      const other = await shopperWith(1);
      expect((await api.call('POST', '/cart/discount', { token: other.token, body: { code } })).status).toBe(200);
      const shopIn = await fetch(`${server.baseUrl}/market`, {
        method: 'POST',
        headers: { authorization: `Bearer ${other.token}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', origin: server.baseUrl },
        body: 'market=ZA&back=%2Fcart',
        redirect: 'manual',
      });
      expect(shopIn.status).toBe(303);
      expect(new URL(shopIn.headers.get('location')!, server.baseUrl).searchParams.get('notice')).toBe('market-chosen-code-dropped:ZA:ZAR:ZA');
      expect((await api.call('GET', `/cart/${other.id}`, { token: other.token, headers: { cookie: 'ml_market=ZA' } })).body.data.discountCode).toBeNull();
      // In rand the code is simply not valid.
      const again = await api.call('POST', '/cart/discount', { token: shopper.token, body: { code }, headers: { cookie: 'ml_market=ZA' } });
      expect(again.status).toBe(400);
      expect(again.body.message).toBe('This code is not valid.');
    });

    it('takes the code off when the cart drops below its minimum: the JSON cart says why, and so does the page a plain form goes to', async () => {
      const shopper = await shopperWith(3);
      const subtotal = (await api.cart(shopper.token, shopper.id)).subtotal as number;
      const code = await newCode({ percentOff: 10, minSubtotal: { NG: subtotal } });
      expect((await api.call('POST', '/cart/discount', { token: shopper.token, body: { code } })).status).toBe(200);
      const json = await api.call('PATCH', '/cart/decrease-quantity', { token: shopper.token, body: { productId: bag.productId, color: bag.color, quantity: 2 } });
      expect(json.status).toBe(200);
      expect(json.body.data).toMatchObject({ discount: 0, discountCode: null });
      expect(json.body.data.notice).toMatch(/^Spend at least ₦[\d,]+(\.\d\d)? to use this code\.$/);

      expect((await api.add(shopper.token, bag, 1)).status).toBe(200);
      expect((await api.call('POST', '/cart/discount', { token: shopper.token, body: { code } })).status).toBe(200);
      const form = await fetch(`${server.baseUrl}/api/v1/cart/decrease-quantity`, {
        method: 'POST',
        headers: { authorization: `Bearer ${shopper.token}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', origin: server.baseUrl },
        body: new URLSearchParams({ productId: String(bag.productId), ...(bag.color ? { color: bag.color } : {}), quantity: '2' }).toString(),
        redirect: 'manual',
      });
      expect(form.status).toBe(303);
      const back = new URL(form.headers.get('location')!, server.baseUrl);
      expect(back.pathname).toBe('/cart');
      expect(back.searchParams.get('notice')).toBe('quantity-updated');
      expect(back.searchParams.get('error')).toMatch(/^code-min-spend:₦/);
    });

    it('works as a plain form post: 303 back with ?notice= or ?error=', async () => {
      const code = await newCode({ percentOff: 10, usageLimit: 100 });
      const shopper = await shopperWith(1);
      const post = (path: string, body: string) =>
        fetch(`${server.baseUrl}/api/v1/cart/${path}?back=%2Fplace-order`, {
          method: 'POST',
          headers: { authorization: `Bearer ${shopper.token}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', origin: server.baseUrl },
          body,
          redirect: 'manual',
        });
      const bad = await post('discount', 'code=NOPE');
      expect(bad.status).toBe(303);
      expect(bad.headers.get('location')).toBe('/place-order?error=code-not-valid');
      const good = await post('discount', `code=${code}`);
      expect(good.status).toBe(303);
      expect(good.headers.get('location')).toBe('/place-order?notice=discount-applied');
      expect((await api.cart(shopper.token, shopper.id)).discountCode).toBe(code);
      const removed = await post('discount/remove', '');
      expect(removed.headers.get('location')).toBe('/place-order?notice=discount-removed');
      expect((await api.cart(shopper.token, shopper.id)).discountCode).toBeNull();
    });

    it('charges the discounted total; the order keeps the code; a used code is refused to the next shopper; CSV and line refunds follow', async () => {
      const code = await newCode({ percentOff: 25, usageLimit: 1 });
      const shopper = await shopperWith(3);
      const cart = (await api.call('POST', '/cart/discount', { token: shopper.token, body: { code } })).body.data;
      const init = await api.call('POST', '/orders/initiate', { token: shopper.token, body: {} });
      expect(init.status).toBe(200);
      expect(init.body.data.amount).toBe(cart.total);
      await api.answerSimulated(init.body.data.reference, 'pay');
      const placed = await api.call('POST', '/orders/place-order', { token: shopper.token, body: { paymentReference: init.body.data.reference } });
      expect(placed.status).toBe(200);
      const order = placed.body.data;
      expect(order).toMatchObject({ discount: cart.discount, discountCode: code, total: cart.total, subtotal: cart.subtotal });
      expect(minor(order.items[0].discount)).toBe(minor(cart.discount));
      const history = await api.call('GET', '/orders/get-orders', { token: shopper.token });
      expect(JSON.stringify(history.body)).toContain(code);
      // The order details page, the confirmation mail and the back office's order show the Discount line with the code.
      const page = await (await fetch(`${server.baseUrl}/order-details/${order.id}`, { headers: { authorization: `Bearer ${shopper.token}` } })).text();
      expect(page).toMatch(new RegExp(`Discount[\\s\\S]{0,120}${code}[\\s\\S]{0,200}-₦`));
      const mail = await api.lastMail(shopper.email);
      expect(mail.text).toContain(`Discount (${code}): -₦`);
      expect(mail.html).toContain(`Discount (${code})`);
      const staffPage = await (await fetch(`${server.baseUrl}/admin/orders/${order.id}`, { headers: { authorization: `Bearer ${owner}` } })).text();
      expect(staffPage).toContain(`Discount (${code})`);
      expect(staffPage).toContain('name="line"');
      // The cart let go of the code with the order: one code per order.
      expect((await api.cart(shopper.token, shopper.id)).discountCode).toBeNull();

      // The limit was 1: the next shopper is told before paying.
      const next = await shopperWith(1);
      const used = await api.call('POST', '/cart/discount', { token: next.token, body: { code } });
      expect(used.status).toBe(400);
      expect(used.body.message).toBe('This code has already been used.');

      const csv = await fetch(`${server.baseUrl}/api/v1/admin/orders/export.csv?q=${order.trackingNumber}`, { headers: { authorization: `Bearer ${owner}` } });
      expect(csv.status).toBe(200);
      const [header, row] = (await csv.text()).trim().split('\r\n');
      expect(header!.endsWith(',total,currency,discount,discount_code')).toBe(true);
      expect(row!.endsWith(`,${order.discount},${code}`)).toBe(true);

      // A line refund of one unit returns what was paid for it: its price less its share of the discount.
      const one = await api.call('POST', `/admin/orders/${order.id}/refund`, { token: owner, body: { line: 1, quantity: 1 } });
      expect(one.status).toBe(200);
      const lineTotal = minor(order.items[0].price);
      const lineDiscount = minor(order.items[0].discount);
      expect(one.body.data.refundedNowMinor).toBe(Math.floor(((lineTotal - lineDiscount) * 1) / 3));
      const both = await api.call('POST', `/admin/orders/${order.id}/refund`, { token: owner, body: { line: 1, quantity: 1, amount: 10 } });
      expect(both.status).toBe(400);
      const tooMany = await api.call('POST', `/admin/orders/${order.id}/refund`, { token: owner, body: { line: 1, quantity: 4 } });
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.message).toBe('You can refund at most 3 of this line');
      const rest = await api.call('POST', `/admin/orders/${order.id}/refund`, { token: owner, body: {} });
      expect(rest.body.data).toMatchObject({ status: 'refunded', refundedMinor: minor(order.total) });
    });
  });
}
