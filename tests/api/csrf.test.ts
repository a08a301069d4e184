import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';

/** The CSRF rule (src/middleware.ts): cross-site browser writes are refused, API clients pass. */
describe('cross-site request rule', () => {
  let server: RunningServer;
  let token: string;
  beforeAll(async () => {
    server = await startServer('pglite');
    const login = await fetch(`${server.baseUrl}/api/v1/user-auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'demo@maisonluxe.ng', password: 'LuxeDemo2026!' }),
    });
    token = ((await login.json()) as any).data.token;
  });
  afterAll(async () => server?.stop());

  it('refuses a form post from another site, even to a public endpoint', async () => {
    const res = await fetch(`${server.baseUrl}/api/v1/newsletter/subscribe`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=victim%40example.com',
    });
    expect(res.status).toBe(403);
  });

  it('lets a bearer-token client call a body-less POST (legacy orders) without Origin', async () => {
    const res = await fetch(`${server.baseUrl}/api/order/userorders`, { method: 'POST', headers: { token } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).success).toBe(true);
  });

  it('lets a bearer-token client log out without a body or Origin', async () => {
    const list = await fetch(`${server.baseUrl}/api/v1/favourites`, { headers: { authorization: `Bearer ${token}` } });
    expect(list.status).toBe(200);
    const logout = await fetch(`${server.baseUrl}/api/v1/user-auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(logout.status).toBe(200);
  });
});
