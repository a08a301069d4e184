import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { accountClient } from './account-client';

/** The seeded demo owner (README; demo mode only). */
const OWNER = { email: 'owner@maisonluxe.ng', password: 'LuxeOwner2026!' };

describe('staff step-up codes', () => {
  let server: RunningServer;
  let api: ReturnType<typeof accountClient>;

  beforeAll(async () => {
    server = await startServer('pglite');
    api = accountClient(server.baseUrl);
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** A sign-in from a new browser (no device cookie): the session waits for the e-mailed code. */
  async function signIn(): Promise<string> {
    const login = await api.call('POST', '/user-auth/login', { body: OWNER });
    expect(login.status).toBe(200);
    expect(login.body.data.stepUp).toBe(true);
    return login.body.data.token;
  }
  const mails = async () => ((await api.call('GET', `/dev/outbox?to=${encodeURIComponent(OWNER.email)}`)).body as unknown[]).length;
  const confirm = async (token: string, code: string) => (await api.call('POST', '/user-auth/verify-device', { token, body: { code } })).status;
  const dashboard = async (token: string) => (await api.call('GET', '/admin/dashboard', { token })).status;

  it('signing in again within a minute after using the code gives a new code, which works', async () => {
    const first = await signIn();
    expect(await mails()).toBe(1);
    expect(await confirm(first, await api.lastCode(OWNER.email))).toBe(200);
    expect(await dashboard(first)).toBe(200);

    // Seconds later, on another new browser: the first code is used up, so a new one is sent.
    const second = await signIn();
    expect(await mails()).toBe(2);
    expect(await dashboard(second)).toBe(403);
    expect(await confirm(second, await api.lastCode(OWNER.email))).toBe(200);
    expect(await dashboard(second)).toBe(200);
  });

  it('while a code is still unused, a sign-in within the minute sends none, and that code still works', async () => {
    const third = await signIn();
    const sent = await mails();
    const code = await api.lastCode(OWNER.email);
    const fourth = await signIn();
    expect(await mails()).toBe(sent);
    expect(await confirm(fourth, code)).toBe(200);
    expect(await dashboard(fourth)).toBe(200);
    expect(await dashboard(third)).toBe(403);
  });
});
