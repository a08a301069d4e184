import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { accountClient } from './account-client';
import { buyingClient } from './buying-client';

/** The seeded demo owner (README; demo mode only). */
const OWNER = { email: 'owner@maisonluxe.ng', password: 'LuxeOwner2026!' };

type Who = 'anonymous' | 'customer' | 'staff' | 'owner';
interface Route {
  method: 'GET' | 'POST';
  path: string;
  kind: 'page' | 'api';
  ownerOnly?: boolean;
}

/** Every back-office route (pages under /admin, JSON under /api/v1/admin). */
function routes(ids: { productId: number; categoryId: number; customerId: string; orderId: string }): Route[] {
  const page = (path: string, ownerOnly = false): Route => ({ method: 'GET', path, kind: 'page', ownerOnly });
  const api = (method: 'GET' | 'POST', path: string, ownerOnly = false): Route => ({ method, path: `/api/v1/admin${path}`, kind: 'api', ownerOnly });
  return [
    page('/admin'),
    page('/admin/products'),
    page('/admin/products/new'),
    page(`/admin/products/${ids.productId}`),
    page('/admin/categories'),
    page('/admin/designers'),
    page('/admin/stock'),
    page('/admin/orders'),
    page(`/admin/orders/${ids.orderId}`),
    page('/admin/customers'),
    page(`/admin/customers/${ids.customerId}`),
    page('/admin/to-collect'),
    page('/admin/data-requests'),
    page('/admin/refunds'),
    page('/admin/audit', true),
    page('/admin/staff', true),
    api('GET', '/dashboard'),
    api('GET', '/products'),
    api('POST', '/products'),
    api('GET', `/products/${ids.productId}`),
    api('POST', `/products/${ids.productId}`),
    api('POST', `/products/${ids.productId}/variants`),
    api('POST', `/products/${ids.productId}/images`),
    api('POST', `/products/${ids.productId}/images/1`),
    api('GET', '/categories'),
    api('POST', '/categories'),
    api('GET', '/designers'),
    api('POST', '/designers'),
    api('POST', `/categories/${ids.categoryId}/banner`),
    api('GET', '/stock'),
    api('POST', '/stock'),
    api('GET', '/orders'),
    api('GET', '/orders/export.csv'),
    api('GET', `/orders/${ids.orderId}`),
    api('POST', `/orders/${ids.orderId}/status`),
    api('POST', `/orders/${ids.orderId}/refund`),
    api('POST', '/payments/ML-NO-SUCH-PAYMENT/refund'),
    api('GET', '/to-collect'),
    api('GET', '/refunds'),
    api('POST', '/refunds/00000000-0000-4000-8000-000000000000/retry'),
    api('POST', `/orders/${ids.orderId}/collection`),
    api('POST', `/customers/${ids.customerId}/pay-on-delivery`),
    api('GET', '/markets/NG/pay-on-delivery'),
    api('POST', '/markets/NG/pay-on-delivery'),
    api('GET', '/customers'),
    api('GET', '/customers/newsletter.csv'),
    api('POST', '/data-requests'),
    api('POST', '/markets/NG/privacy-days', true),
    api('GET', '/audit', true),
    api('GET', '/staff', true),
    api('POST', '/staff', true),
  ];
}

for (const driver of ['pglite', 'pg'] as const) {
  describe(`back-office access matrix on ${driver}`, () => {
    let server: RunningServer;
    let api: ReturnType<typeof accountClient>;
    const tokens: Partial<Record<Who, string>> = {};
    let unconfirmedStaff: string;
    let ids: Parameters<typeof routes>[0];

    /** Signs in through /login; a staff account then confirms the session with the e-mailed code. */
    async function staffLogin(email: string, password: string): Promise<{ token: string; stepUp: boolean }> {
      const login = await api.call('POST', '/user-auth/login', { body: { email, password } });
      expect(login.status).toBe(200);
      return { token: login.body.data.token, stepUp: login.body.data.stepUp };
    }
    async function confirm(email: string, token: string) {
      const res = await api.call('POST', '/user-auth/verify-device', { token, body: { code: await api.lastCode(email) } });
      expect(res.status).toBe(200);
    }

    beforeAll(async () => {
      server = await startServer(driver);
      api = accountClient(server.baseUrl);
      const customer = await api.verifiedUser('customer');
      tokens.customer = customer.token;

      const owner = await staffLogin(OWNER.email, OWNER.password);
      expect(owner.stepUp).toBe(true);
      // before the code, the owner's session has no staff rights
      expect((await api.call('GET', '/admin/dashboard', { token: owner.token })).status).toBe(403);
      await confirm(OWNER.email, owner.token);
      tokens.owner = owner.token;

      const staff = await api.verifiedUser('staff');
      const granted = await api.call('POST', '/admin/staff', { token: tokens.owner, body: { email: staff.email, role: 'staff' } });
      expect(granted.status).toBe(200);
      const s = await staffLogin(staff.email, staff.password);
      expect(s.stepUp).toBe(true);
      unconfirmedStaff = (await staffLogin(staff.email, staff.password)).token;
      await confirm(staff.email, s.token);
      tokens.staff = s.token;

      const products = await api.call('GET', '/admin/products', { token: tokens.owner });
      const categories = await api.call('GET', '/admin/categories', { token: tokens.owner });
      ids = {
        productId: products.body.data.rows[0].id,
        categoryId: categories.body.data[0].id,
        customerId: customer.id,
        orderId: '00000000-0000-0000-0000-000000000000',
      };
    }, 180_000);
    afterAll(async () => {
      await server?.stop();
    });

    async function request(route: Route, who: Who) {
      const headers: Record<string, string> = { origin: server.baseUrl, accept: route.kind === 'api' ? 'application/json' : 'text/html' };
      const token = who === 'anonymous' ? undefined : tokens[who];
      if (token) headers.authorization = `Bearer ${token}`;
      let body: string | undefined;
      if (route.method === 'POST') {
        headers['content-type'] = 'application/json';
        body = '{}';
      }
      return fetch(server.baseUrl + route.path, { method: route.method, headers, body, redirect: 'manual' });
    }

    it('answers every admin route as the matrix says', async () => {
      const failures: string[] = [];
      for (const route of routes(ids)) {
        for (const who of ['anonymous', 'customer', 'staff', 'owner'] as Who[]) {
          const res = await request(route, who);
          await res.arrayBuffer();
          const status = res.status;
          const label = `${who} ${route.method} ${route.path} -> ${status}`;
          if (who === 'anonymous') {
            if (route.kind === 'page') {
              if (status !== 302 || !res.headers.get('location')?.startsWith(`/login?next=${encodeURIComponent(route.path)}`)) failures.push(`${label} ${res.headers.get('location')}`);
            } else if (status !== 401) failures.push(label);
          } else if (who === 'customer' || (who === 'staff' && route.ownerOnly)) {
            if (status !== 403) failures.push(label);
          } else {
            // allowed: pages and GETs succeed (an unknown order is 404); POSTs with an empty body are refused as invalid, never 401/403
            const expected = route.method === 'POST' ? [400, 404] : route.path.includes('/orders/0000') ? [404] : [200];
            if (!expected.includes(status)) failures.push(label);
          }
        }
      }
      expect(failures).toEqual([]);
    });

    it('sends a staff session that has not entered its code to the code page, and refuses its API calls', async () => {
      const page = await fetch(`${server.baseUrl}/admin/products`, { headers: { authorization: `Bearer ${unconfirmedStaff}` }, redirect: 'manual' });
      expect(page.status).toBe(302);
      expect(page.headers.get('location')).toBe('/login/verify-device?next=%2Fadmin%2Fproducts');
      const res = await api.call('GET', '/admin/products', { token: unconfirmedStaff });
      expect(res.status).toBe(403);
      expect(res.body.stepUp).toBe(true);
    });

    it('staff move an order through its statuses (the shopper is e-mailed), cancel it (stock comes back) and export the list as CSV', async () => {
      const buy = buyingClient(server.baseUrl);
      const demo = await buy.login();
      const [v] = await buy.variants({ minStock: 2, count: 1 });
      await buy.clear(demo.token, demo.id);
      await buy.add(demo.token, v!, 2);
      const init = await buy.call('POST', '/orders/initiate', { token: demo.token, body: {} });
      await buy.answerSimulated(init.body.data.reference, 'pay');
      const order = (await buy.call('POST', '/orders/place-order', { token: demo.token, body: { paymentReference: init.body.data.reference } })).body.data;
      const stockAfterOrder = await buy.stockOf(v!);

      const move = (status: string) => api.call('POST', `/admin/orders/${order.id}/status`, { token: tokens.staff, body: { status } });
      expect((await move('delivered')).status).toBe(409);
      expect((await move('processed')).status).toBe(200);
      expect((await api.lastMail('demo@maisonluxe.ng')).subject).toMatch(/being prepared/);
      const found = await api.call('GET', `/admin/orders?q=${order.trackingNumber}&status=processed`, { token: tokens.staff });
      expect(found.body.data.rows.map((r: any) => r.id)).toEqual([order.id]);
      // By part of the tracking number or of the shopper's e-mail (any case), the total counted alike.
      const byPart = await api.call('GET', `/admin/orders?q=${order.trackingNumber.slice(3, 9).toLowerCase()}&status=processed`, { token: tokens.staff });
      expect(byPart.body.data.rows.map((r: any) => r.id)).toContain(order.id);
      const byEmail = await api.call('GET', '/admin/orders?q=DEMO@MAISONLUXE&status=processed', { token: tokens.staff });
      expect(byEmail.body.data.rows.map((r: any) => r.id)).toContain(order.id);
      expect(byEmail.body.data.rows.every((r: any) => r.email === 'demo@maisonluxe.ng')).toBe(true);
      expect(byEmail.body.data.total).toBe(byEmail.body.data.rows.length);
      const customers = await api.call('GET', '/admin/customers?q=daeze okaf', { token: tokens.staff });
      expect(customers.body.data.rows.map((r: any) => r.email)).toContain('demo@maisonluxe.ng');
      const csv = await fetch(`${server.baseUrl}/api/v1/admin/orders/export.csv?q=${order.trackingNumber}`, { headers: { authorization: `Bearer ${tokens.staff}` } });
      expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
      const lines = (await csv.text()).trim().split('\r\n');
      expect(lines[0]).toMatch(/^tracking_number,created_at,email,status/);
      expect(lines.slice(1)).toHaveLength(1);
      expect(lines[1]).toContain(`${order.trackingNumber},`);

      expect((await move('cancelled')).status).toBe(200);
      expect((await api.lastMail('demo@maisonluxe.ng')).subject).toMatch(/cancelled/);
      expect(await buy.stockOf(v!)).toBe(stockAfterOrder + 2);
      const detail = await api.call('GET', `/admin/orders/${order.id}`, { token: tokens.staff });
      expect(detail.body.data.history.map((h: any) => h.toStatus)).toEqual(['pending', 'processed', 'cancelled']);
    });

    it('a revoked staff member loses access at once', async () => {
      const extra = await api.verifiedUser('temp');
      await api.call('POST', '/admin/staff', { token: tokens.owner, body: { email: extra.email, role: 'staff' } });
      const s = await staffLogin(extra.email, extra.password);
      await confirm(extra.email, s.token);
      expect((await api.call('GET', '/admin/dashboard', { token: s.token })).status).toBe(200);
      await api.call('POST', '/admin/staff', { token: tokens.owner, body: { email: extra.email, role: 'customer' } });
      expect((await api.call('GET', '/admin/dashboard', { token: s.token })).status).toBe(403);
      const audit = await api.call('GET', '/admin/audit', { token: tokens.owner });
      expect(audit.body.data.rows.map((r: any) => r.action)).toEqual(expect.arrayContaining(['staff.grant', 'staff.revoke']));
    });
  });
}
