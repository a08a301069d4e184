import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { DEMO } from './buying-client';

/**
 * Every shopper page goes through one guard (shopperPage in src/lib/server/accounts/auth.ts). A
 * signed-out visitor is sent to the login page with the page as `?next=`, and signing in there,
 * with or without scripts, lands back on it; a `next` from anywhere else still lands on this site.
 */
const ANY_ID = '00000000-0000-4000-8000-000000000000';
const SHOPPER_PAGES = [
  '/profile',
  '/settings',
  '/address-history',
  '/add-address',
  `/edit-address/${ANY_ID}`,
  '/favourites',
  '/cart',
  '/place-order',
  '/orders',
  '/order-history?status=pending',
  `/order-details/${ANY_ID}`,
];

describe('shopper pages', () => {
  let server: RunningServer;
  const get = (path: string, headers: Record<string, string> = {}) => fetch(server.baseUrl + path, { headers: { accept: 'text/html', ...headers }, redirect: 'manual' });
  /** The action of the login page's form (what a browser without scripts posts, and the island calls). */
  const loginAction = async (loginPage: string) => {
    const html = await (await get(loginPage)).text();
    const action = /<form[^>]*\saction="([^"]*\/user-auth\/login[^"]*)"/.exec(html)?.[1];
    expect(action, loginPage).toBeTruthy();
    return action!.replaceAll('&amp;', '&');
  };
  const signIn = (action: string, accept: string, contentType: string, body: string) =>
    fetch(server.baseUrl + action, { method: 'POST', redirect: 'manual', headers: { origin: server.baseUrl, accept, 'content-type': contentType }, body });
  const formSignIn = (action: string) => signIn(action, 'text/html', 'application/x-www-form-urlencoded', new URLSearchParams(DEMO).toString());
  const scriptSignIn = async (action: string) => (await (await signIn(action, 'application/json', 'application/json', JSON.stringify(DEMO))).json()) as any;

  beforeAll(async () => {
    server = await startServer('pglite');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('send a signed-out visitor to /login?next=<the page, with its query> (302), every one of them', async () => {
    for (const path of SHOPPER_PAGES) {
      const res = await get(path);
      expect(res.status, path).toBe(302);
      expect(res.headers.get('location'), path).toBe(`/login?next=${encodeURIComponent(path)}`);
    }
  });

  it('bring the shopper back after signing in on that login page, with or without scripts', async () => {
    const page = '/order-history?status=pending';
    const toLogin = (await get(page)).headers.get('location')!;
    const action = await loginAction(toLogin);
    // Without scripts the browser posts the form: 303 to the page, with the sign-in notice.
    const plain = await formSignIn(action);
    expect(plain.status).toBe(303);
    expect(plain.headers.get('location')).toBe('/order-history?status=pending&notice=logged-in');
    // With scripts the island posts the same action and goes where the answer says.
    expect((await scriptSignIn(action)).data.next).toBe(page);
    // Signed in, the page renders for the shopper, private and never stored.
    const cookie = plain.headers.get('set-cookie')!.split(';')[0]!;
    const mine = await get(page, { cookie });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('cache-control')).toBe('private, no-store');
  });

  it('land a shopper on this site whatever next a link carries', async () => {
    for (const hostile of ['//evil.example', '/.//evil.example', 'https://evil.example/order-history', '/\\evil.example']) {
      const action = await loginAction(`/login?next=${encodeURIComponent(hostile)}`);
      expect(action, hostile).not.toContain('evil.example');
      const plain = await formSignIn(action);
      expect(plain.status, hostile).toBe(303);
      expect(plain.headers.get('location'), hostile).toBe('/?notice=logged-in');
      expect((await scriptSignIn(`/api/v1/user-auth/login?next=${encodeURIComponent(hostile)}`)).data.next, hostile).toBe('/');
    }
  });
});
