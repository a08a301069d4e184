import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { buyingClient } from './buying-client';


/** The back office's promotions: JSON and the form without JavaScript, audited, staff only; a code created here works in a cart. */
for (const driver of ['pglite', 'pg'] as const) {
  describe(`admin promotions on ${driver}`, () => {
    let server: RunningServer;
    let api: ReturnType<typeof buyingClient>;
    let owner: string;

    beforeAll(async () => {
      server = await startServer(driver);
      api = buyingClient(server.baseUrl);
      owner = await api.signInOwner();
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
    });

    it("an owner's { code, percentOff, usageLimit } creates an active percentage code that a cart takes", async () => {
      const created = await api.call('POST', '/admin/promotions', { token: owner, body: { code: 'spring10', percentOff: 10, usageLimit: 3 } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.data).toMatchObject({ code: 'SPRING10', kind: 'percent', percentOff: 10, usageLimit: 3, status: 'active', uses: 0, oncePerCustomer: false });
      // the same code again (any case) is refused
      const twice = await api.call('POST', '/admin/promotions', { token: owner, body: { code: 'Spring10', percentOff: 5 } });
      expect(twice.status).toBe(409);

      const shopper = await api.login();
      await api.clear(shopper.token, shopper.id);
      const item = await api.variant({ minStock: 1 });
      await api.add(shopper.token, item, 1);
      const applied = await api.call('POST', '/cart/discount', { token: shopper.token, body: { code: 'spring10' } });
      expect(applied.status, JSON.stringify(applied.body)).toBe(200);
      const cart = await api.cart(shopper.token, shopper.id);
      expect(cart.discount).toBe(Math.floor(item.price * 100 * 0.1) / 100);

      // paused: not valid any more
      const paused = await api.call('PATCH', `/admin/promotions/${created.body.data.id}`, { token: owner, body: { status: 'paused' } });
      expect(paused.status).toBe(200);
      expect(paused.body.data.status).toBe('paused');
      await api.call('DELETE', '/cart/discount', { token: shopper.token });
      const refused = await api.call('POST', '/cart/discount', { token: shopper.token, body: { code: 'SPRING10' } });
      expect([refused.status, refused.body.message]).toEqual([400, 'This code is not valid.']);

      const audit = await api.call('GET', '/admin/audit', { token: owner });
      expect(JSON.stringify(audit.body)).toContain('promotion.create');
      expect(JSON.stringify(audit.body)).toContain('promotion.update');
    });

    it('fixed amounts per market, the welcome promotion, and bad input (400, never 500)', async () => {
      const fixed = await api.call('POST', '/admin/promotions', { token: owner, body: { code: 'NAIRA5K', amountOff: { NG: 5000 }, minSubtotal: { NG: 20000 }, oncePerCustomer: true } });
      expect(fixed.status, JSON.stringify(fixed.body)).toBe(201);
      expect(fixed.body.data).toMatchObject({ kind: 'fixed', amountOff: { NG: 5000 }, minSubtotal: { NG: 20000 }, percentOff: null, oncePerCustomer: true });

      const list = await api.call('GET', '/admin/promotions', { token: owner });
      expect(list.status).toBe(200);
      const welcome = list.body.data.find((p: { systemKey: string | null }) => p.systemKey === 'newsletter-welcome');
      expect(welcome).toMatchObject({ code: null, percentOff: 20, codeValidDays: 30, description: 'Newsletter welcome' });
      const changed = await api.call('PUT', `/admin/promotions/${welcome.id}`, { token: owner, body: { percentOff: 25, codeValidDays: 14 } });
      expect(changed.status).toBe(200);
      expect(changed.body.data).toMatchObject({ percentOff: 25, codeValidDays: 14 });
      const noShared = await api.call('PATCH', `/admin/promotions/${welcome.id}`, { token: owner, body: { code: 'WELCOME' } });
      expect(noShared.status).toBe(400);
      await api.call('PATCH', `/admin/promotions/${welcome.id}`, { token: owner, body: { percentOff: 20, codeValidDays: 30 } });

      for (const body of [
        {},
        { code: 'X', percentOff: 10 },
        { code: 'OK-CODE', percentOff: 0 },
        { code: 'OK-CODE', percentOff: 101 },
        { code: 'OK-CODE', percentOff: 'ten' },
        { code: 'OK-CODE', amountOff: { US: 5 } },
        { code: 'OK-CODE', amountOff: { NG: -5 } },
        { code: 'OK-CODE', percentOff: 10, usageLimit: 0 },
        { code: 'OK-CODE', percentOff: 10, startsAt: 'tomorrow' },
        { code: 'OK-CODE', percentOff: 10, startsAt: '2027-01-01T00:00', endsAt: '2026-01-01T00:00' },
        { code: 'OK-CODE', percentOff: 10, categoryIds: [3_000_000_000] },
        { code: 'OK-CODE', percentOff: 10, status: 'deleted' },
        { code: 'OK-CODE', percentOff: 10, surprise: true },
        { code: 'OK\u0000CODE', percentOff: 10 },
      ]) {
        const res = await api.call('POST', '/admin/promotions', { token: owner, body });
        expect(res.status, `${JSON.stringify(body)} -> ${JSON.stringify(res.body)}`).toBe(400);
      }
      expect((await api.call('PATCH', '/admin/promotions/999999', { token: owner, body: { status: 'paused' } })).status).toBe(404);

      // staff only
      const shopper = await api.login();
      expect((await api.call('GET', '/admin/promotions', { token: shopper.token })).status).toBe(403);
      expect((await api.call('POST', '/admin/promotions', { token: shopper.token, body: { code: 'MINE', percentOff: 90 } })).status).toBe(403);
    });

    it('the form works without JavaScript: create, then edit, back to the page with a notice', async () => {
      const page = await fetch(`${server.baseUrl}/admin/promotions`, { headers: { authorization: `Bearer ${owner}` } });
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('Newsletter welcome');
      expect(html).toMatch(/<label for="pr-code">Code<\/label>/);
      const csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
      const post = (form: Record<string, string>) =>
        fetch(`${server.baseUrl}/api/v1/admin/promotions?back=%2Fadmin%2Fpromotions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', origin: server.baseUrl },
          body: new URLSearchParams({ _csrf: csrf, form: '1', ...form }).toString(),
          redirect: 'manual',
        });
      const created = await post({ code: 'formcode', description: 'From the form', kind: 'percent', percentOff: '15', 'amountOff.NG': '', 'amountOff.ZA': '', 'minSubtotal.NG': '', 'minSubtotal.ZA': '', startsAt: '', endsAt: '', usageLimit: '', status: 'active', oncePerCustomer: 'on' });
      expect(created.status).toBe(303);
      const location = created.headers.get('location')!;
      expect(location).toMatch(/^\/admin\/promotions\?edit=\d+&notice=promotion-created$/);
      const id = /edit=(\d+)/.exec(location)![1]!;
      const edited = await post({ id, code: 'FORMCODE', description: 'Edited', kind: 'fixed', percentOff: '', 'amountOff.NG': '2,500', 'amountOff.ZA': '', 'minSubtotal.NG': '10000', 'minSubtotal.ZA': '', startsAt: '2026-01-01T09:00', endsAt: '', usageLimit: '10', status: 'paused' });
      expect(edited.status).toBe(303);
      expect(edited.headers.get('location')).toMatch(/notice=promotion-saved/);
      const one = await api.call('GET', `/admin/promotions/${id}`, { token: owner });
      expect(one.body.data).toMatchObject({ code: 'FORMCODE', description: 'Edited', kind: 'fixed', percentOff: null, amountOff: { NG: 2500 }, minSubtotal: { NG: 10000 }, usageLimit: 10, status: 'paused', oncePerCustomer: false, startsAt: '2026-01-01T09:00:00.000Z' });
      const bad = await post({ id, code: 'FORMCODE', kind: 'percent', percentOff: '500' });
      expect(bad.status).toBe(303);
      expect(bad.headers.get('location')).toMatch(/error=/);
    });
  });
}
