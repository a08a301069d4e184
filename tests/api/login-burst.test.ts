import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Driver, type RunningServer } from '../support/server';
import { accountClient } from './account-client';

const DRIVERS: Driver[] = ['pglite', 'pg'];

for (const driver of DRIVERS) {
  describe(`login bursts on ${driver}`, () => {
    let server: RunningServer;
    let c: ReturnType<typeof accountClient>;

    beforeAll(async () => {
      server = await startServer(driver);
      c = accountClient(server.baseUrl);
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('30 parallel wrong passwords for one e-mail: exactly 5 are checked (401), 25 are refused (429)', async () => {
      const { email, password } = await c.verifiedUser('burst');
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => c.call('POST', '/user-auth/login', { body: { email, password: `Wrong-pass-${i}` } })),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(25);
      for (const a of answers.filter((x) => x.status === 429)) {
        expect(a.body.message).toMatch(/^Too many attempts\. Please try again in \d+ minutes?\.$/);
        expect(Number(a.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      for (const a of answers.filter((x) => x.status === 401)) expect(a.body.message).toBe('Invalid email or password');
      // The right password is refused too until the window ends.
      expect((await c.call('POST', '/user-auth/login', { body: { email, password } })).status).toBe(429);
    });

    it('an unknown e-mail is held to the same 5 checks', async () => {
      const email = c.uniqueEmail('nobody');
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => c.call('POST', '/user-auth/login', { body: { email, password: 'Wrong-pass-1' } })),
      );
      expect(answers.filter((a) => a.status === 401)).toHaveLength(5);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(7);
    });
  });
}
