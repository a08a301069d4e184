import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER } from '@/lib/server/demo/seed';
import { PRODUCTION_SCRYPT_LOG2_N } from '@/lib/server/infra/config';
import { LIMITS } from '@/lib/server/infra/rate-limit';
import { startServer, type Driver, type RunningServer } from '../support/server';
import { accountClient } from './account-client';

const DRIVERS: Driver[] = ['pglite', 'pg'];

for (const driver of DRIVERS) {
  describe(`a sign-up flood from one address on ${driver}`, () => {
    let server: RunningServer;
    let c: ReturnType<typeof accountClient>;

    beforeAll(async () => {
      // The store's own sign-up limits (the test servers otherwise raise them), and its own hashing
      // cost: what the login must not wait for is the sign-ups' hashing.
      server = await startServer(driver, { SIGNUPS_PER_ADDRESS_PER_MINUTE: '', SIGNUPS_PER_ADDRESS_PER_HOUR: '', SCRYPT_LOG2_N: String(PRODUCTION_SCRYPT_LOG2_N) });
      c = accountClient(server.baseUrl);
    });
    afterAll(async () => {
      await server?.stop();
    });

    const login = async () => {
      const started = Date.now();
      const answer = await c.call('POST', '/user-auth/login', { body: { email: DEMO_USER.email, password: DEMO_USER.password } });
      return { answer, ms: Date.now() - started, at: Date.now() };
    };

    it('36 parallel sign-ups: the burst limit refuses the excess with 429 + Retry-After, and the demo shopper signs in meanwhile', async () => {
      const alone = await login();
      expect(alone.answer.status).toBe(200);

      const flood = Array.from({ length: 36 }, () =>
        c.call('POST', '/user-auth/create', { body: c.registration(c.uniqueEmail('flood')) }).then((answer) => ({ answer, at: Date.now() })),
      );
      await new Promise((r) => setTimeout(r, 100));
      const during = await login();
      const answers = await Promise.all(flood);
      const lastSignUp = Math.max(...answers.map((a) => a.at));
      console.log(`[${driver}] demo login alone ${alone.ms} ms; during a 36-sign-up flood ${during.ms} ms; sign-ups over ${lastSignUp - (during.at - during.ms)} ms after the login started`);

      expect(during.answer.status).toBe(200);
      const statuses = answers.map((a) => a.answer.status);
      const max = LIMITS.signUpsPerAddressPerMinute.max;
      expect(statuses.filter((s) => s === 201)).toHaveLength(max);
      expect(statuses.filter((s) => s === 429)).toHaveLength(36 - max);
      for (const { answer } of answers.filter((a) => a.answer.status === 429)) {
        const retryAfter = Number(answer.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(60);
        expect(answer.body.message).toMatch(/^Too many accounts were created from your network just now\. Please try again in (\d+ seconds?|1 minute)\.$/);
      }
      // The login did not wait for the sign-ups' hashing (it has a slot of its own): it took
      // less than half as long as the accepted sign-ups (which hash one at a time), where
      // before it queued behind the whole flood.
      const loginStarted = during.at - during.ms;
      expect(during.ms * 2).toBeLessThan(lastSignUp - loginStarted);

      // The window is full: one more sign-up is refused at once, without hashing.
      const again = await c.call('POST', '/user-auth/create', { body: c.registration(c.uniqueEmail('late')) });
      expect(again.status).toBe(429);
      expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });
}
