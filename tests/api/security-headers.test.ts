import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { DEMO } from './buying-client';

for (const driver of ['pglite', 'pg'] as const) {
  describe(`browser protections on ${driver}`, () => {
    let server: RunningServer;
    let https: RunningServer;
    beforeAll(async () => {
      [server, https] = await Promise.all([startServer(driver), startServer(driver, { PUBLIC_SITE_URL: 'https://shop.example' })]);
    });
    afterAll(async () => {
      await Promise.all([server?.stop(), https?.stop()]);
    });

    it('sends a hash-based CSP that forbids framing, and the usual hardening headers', async () => {
      for (const path of ['/', '/collection', '/product/2', '/about', '/login']) {
        for (const attempt of [1, 2]) {
          // the second request of the cacheable pages comes from the route cache: same headers
          const res = await fetch(server.baseUrl + path);
          const csp = res.headers.get('content-security-policy') ?? '';
          expect(csp, `${path} #${attempt}`).toMatch(/frame-ancestors 'none'/);
          const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
          expect(scriptSrc).toMatch(/'sha256-/);
          expect(scriptSrc).not.toMatch(/unsafe-inline|unsafe-eval/);
          expect(res.headers.get('x-content-type-options')).toBe('nosniff');
          expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
          expect(res.headers.get('permissions-policy')).toMatch(/camera=\(\)/);
          expect(res.headers.get('strict-transport-security')).toBeNull();
        }
      }
      const asset = await fetch(server.baseUrl + '/favicon.svg');
      expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('sends HSTS when the site URL is https', async () => {
      const res = await fetch(https.baseUrl + '/');
      expect(res.headers.get('strict-transport-security')).toMatch(/max-age=31536000/);
    });

    it('marks personal pages private and unstored', async () => {
      const login = await fetch(server.baseUrl + '/api/v1/user-auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(DEMO),
      });
      const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      for (const path of ['/profile', '/cart', '/order-history', '/settings', '/address-history', '/place-order', '/favourites', '/', '/product/2']) {
        const res = await fetch(server.baseUrl + path, { headers: { cookie }, redirect: 'manual' });
        expect(res.status, path).toBe(200);
        expect(res.headers.get('cache-control'), path).toBe('private, no-store');
      }
    });
  });
}
