import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Driver, type RunningServer } from '../support/server';
import { accountClient, otherCode } from './account-client';

const DRIVERS: Driver[] = ['pglite', 'pg'];

for (const driver of DRIVERS) {
  describe(`password and code guessing on ${driver}`, () => {
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

    it('repeated code guessing: after 10 wrong codes (registration and reset) both answer 429 and the owner gets one e-mail', async () => {
      const email = c.uniqueEmail('guess');
      expect((await c.call('POST', '/user-auth/create', { body: c.registration(email) })).status).toBe(201);
      const verifyCode = await c.lastCode(email);
      for (let i = 0; i < 5; i++) expect((await c.call('POST', '/user-auth/verify-otp', { body: { email, otp: otherCode(verifyCode) } })).status).toBe(400);
      expect((await c.call('POST', '/user-auth/forgot-password', { body: { email } })).status).toBe(200);
      const resetCode = await c.lastCode(email);
      const reset = (otp: string) =>
        c.call('POST', '/user-auth/reset-password', { body: { email, otp, newPassword: 'Guess-pass-2026', confirmPassword: 'Guess-pass-2026' } });
      for (let i = 0; i < 5; i++) expect((await reset(otherCode(resetCode))).status).toBe(400);
      // The right code is refused now, on both paths, again and again.
      for (const answer of [await reset(resetCode), await reset(resetCode), await c.call('POST', '/user-auth/verify-otp', { body: { email, otp: verifyCode } })]) {
        expect(answer.status).toBe(429);
        expect(answer.body.message).toBe(
          'Too many wrong codes were entered for this account, so code entry and password reset are paused. Please try again in 24 hours.',
        );
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(23 * 3600);
      }
      const { body: mails } = await c.call('GET', `/dev/outbox?to=${encodeURIComponent(email)}`);
      const paused = (mails as { subject: string; text: string }[]).filter((m) => /paused/.test(m.subject));
      expect(paused).toHaveLength(1);
      expect(paused[0]!.text).toMatch(/10 wrong codes were entered for your account within 24 hours/);
    });
  });
}
