import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { buyingClient } from './buying-client';


/** The locker delivery fee is a market setting staff change through the back office's API, audited; shoppers cannot. */
describe('the locker delivery fee, set by staff (PGlite)', () => {
  let server: RunningServer;
  let api: ReturnType<typeof buyingClient>;
  let owner: string;

  beforeAll(async () => {
    server = await startServer('pglite');
    api = buyingClient(server.baseUrl);
    owner = await api.signInOwner();
  }, 120_000);
  afterAll(async () => server?.stop());

  it('is R65 until staff set it, then what they set; a bad amount is refused and changes nothing', async () => {
    const before = await api.call('GET', '/admin/markets/ZA/locker-fee', { token: owner });
    expect(before.body.data).toEqual({ fee: 65 });
    const set = await api.call('POST', '/admin/markets/ZA/locker-fee', { token: owner, body: { fee: 49.5 } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ message: 'Locker delivery fee saved', data: { fee: 49.5 } });
    expect((await api.call('GET', '/admin/markets/ZA/locker-fee', { token: owner })).body.data).toEqual({ fee: 49.5 });
    for (const fee of [-1, 'abc']) {
      const bad = await api.call('POST', '/admin/markets/ZA/locker-fee', { token: owner, body: { fee } });
      expect(bad.status, JSON.stringify(bad.body)).toBe(400);
      expect(JSON.stringify(bad.body)).toMatch(/The locker fee must be a whole amount from 0 up/);
    }
    expect((await api.call('GET', '/admin/markets/ZA/locker-fee', { token: owner })).body.data).toEqual({ fee: 49.5 });
    // Nigeria has no locker network: no fee until staff set one.
    expect((await api.call('GET', '/admin/markets/NG/locker-fee', { token: owner })).body.data).toEqual({ fee: null });
    expect((await api.call('GET', '/admin/markets/XX/locker-fee', { token: owner })).status).toBe(404);
  }, 60_000);

  it('is staff\'s alone', async () => {
    const shopper = await api.login();
    const res = await api.call('POST', '/admin/markets/ZA/locker-fee', { token: shopper.token, body: { fee: 1 } });
    expect([401, 403]).toContain(res.status);
    expect((await api.call('GET', '/admin/markets/ZA/locker-fee', { token: owner })).body.data).toEqual({ fee: 49.5 });
  }, 60_000);
});
