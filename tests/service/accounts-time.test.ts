import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@/lib/domain/errors';
import { LIMITS } from '@/lib/server/infra/rate-limit';
import type { Services } from '@/lib/server/services';
import { DRIVERS, servicesFor, testClock } from '../support/services';

const PASSWORD = 'Lagos-2026!';
const IP = '198.51.100.7';

async function rejection(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

for (const driver of DRIVERS) {
  describe(`account time rules on ${driver}`, () => {
    const clock = testClock();
    let services: Services;
    let close: () => Promise<void>;
    let n = 0;

    const newEmail = () => `time${++n}.${driver}@example.com`;
    const lastCode = async (email: string) => /code is (\d{4})/.exec((await services.outbox.list(email))[0]!.text)![1]!;
    const register = (email: string) =>
      services.accounts.register({ firstName: 'Ada', lastName: 'Obi', email, password: PASSWORD, phoneNumber: '+2348031234567', country: 'nigeria' }, IP);

    beforeAll(async () => {
      const opened = await servicesFor(driver, { clock, seed: false });
      services = opened.services;
      close = opened.close;
    });
    afterAll(async () => {
      await close?.();
    });

    it('a code expires after 10 minutes', async () => {
      const email = newEmail();
      await register(email);
      const code = await lastCode(email);
      clock.advance(10 * 60_000);
      const err = await rejection(services.accounts.verifyEmail(email, code, IP));
      expect(err.code).toBe('invalid');
      expect(err.message).toMatch(/expired/);
    });

    it('signing up again before verifying takes the new details and a fresh code, once a minute has passed', async () => {
      const email = newEmail();
      await register(email);
      clock.advance(61_000);
      const again = await services.accounts.register(
        { firstName: 'Adanna', lastName: 'Obi', email, password: 'Abuja-2026!', phoneNumber: '+2348031234567', country: 'nigeria' },
        IP,
      );
      expect(again.firstName).toBe('Adanna');
      await services.accounts.verifyEmail(email, await lastCode(email), IP);
      const { user } = await services.accounts.login(email, 'Abuja-2026!', IP);
      expect(user.firstName).toBe('Adanna');
      // once verified, the address is taken
      const taken = await rejection(register(email));
      expect(taken.code).toBe('conflict');
    });

    it('a code still works just before 10 minutes, and only once', async () => {
      const email = newEmail();
      await register(email);
      const code = await lastCode(email);
      clock.advance(10 * 60_000 - 1000);
      await services.accounts.verifyEmail(email, code, IP);
      expect((await rejection(services.accounts.verifyEmail(email, code, IP))).message).toMatch(/already used/);
      const { user } = await services.accounts.login(email, PASSWORD, IP);
      expect(user.verified).toBe(true);
    });

    it('resend: refused within a minute, allowed after, at most 5 codes an hour, and a new code voids the old one', async () => {
      const email = newEmail();
      await register(email); // send 1
      const first = await lastCode(email);
      const early = await rejection(services.accounts.resendVerification(email, IP));
      expect(early.code).toBe('rate_limited');
      expect(early.message).toMatch(/Please wait (\d+ seconds|1 minute) before requesting another code/);
      for (let i = 2; i <= 5; i++) {
        clock.advance(61_000);
        await services.accounts.resendVerification(email, IP);
      }
      expect((await services.outbox.list(email)).length).toBe(5);
      clock.advance(61_000);
      const hourly = await rejection(services.accounts.resendVerification(email, IP));
      expect(hourly.code).toBe('rate_limited');
      expect(hourly.message).toMatch(/minutes before requesting another code/);
      expect((hourly as unknown as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(60 * 50);
      // The first code was replaced by later ones.
      const latest = await lastCode(email);
      if (first !== latest) expect((await rejection(services.accounts.verifyEmail(email, first, IP))).code).toBe('invalid');
      clock.advance(60 * 60_000);
      await services.accounts.resendVerification(email, IP);
      await services.accounts.verifyEmail(email, await lastCode(email), IP);
    });

    it('login failures per e-mail: blocked after 5 for 15 minutes, then allowed again', async () => {
      const email = newEmail();
      await register(email);
      await services.accounts.verifyEmail(email, await lastCode(email), IP);
      for (let i = 0; i < LIMITS.loginFailuresPerEmail.max; i++) {
        expect((await rejection(services.accounts.login(email, 'Wrong-pass-1', IP))).code).toBe('unauthorized');
      }
      const blocked = await rejection(services.accounts.login(email, PASSWORD, IP));
      expect(blocked.code).toBe('rate_limited');
      expect(blocked.message).toBe('Too many attempts. Please try again in 15 minutes.');
      clock.advance(14 * 60_000);
      expect((await rejection(services.accounts.login(email, PASSWORD, IP))).message).toBe('Too many attempts. Please try again in 1 minute.');
      clock.advance(60_000);
      const ok = await services.accounts.login(email, PASSWORD, IP);
      expect(ok.token).toBeTruthy();
    });

    it('login failures per IP: generous, failures only, shared across e-mails', async () => {
      const email = newEmail();
      await register(email);
      await services.accounts.verifyEmail(email, await lastCode(email), IP);
      const ip = '203.0.113.50';
      // Fill the IP window to one below the limit directly; each real failure costs a password hash.
      for (let i = 0; i < LIMITS.loginFailuresPerIp.max - 1; i++) await services.limiter.hit(`login-fail-ip:${ip}`, LIMITS.loginFailuresPerIp);
      // Successes do not count.
      await services.accounts.login(email, PASSWORD, ip);
      await services.accounts.login(email, PASSWORD, ip);
      expect((await rejection(services.accounts.login('nobody@example.com', 'Wrong-pass-1', ip))).code).toBe('unauthorized');
      expect((await rejection(services.accounts.login(email, PASSWORD, ip))).code).toBe('rate_limited');
      // Other addresses are not affected.
      await services.accounts.login(email, PASSWORD, '203.0.113.51');
      clock.advance(15 * 60_000);
      await services.accounts.login(email, PASSWORD, ip);
    });

    it('code attempts per e-mail are limited across new codes', async () => {
      const email = newEmail();
      await register(email);
      let tries = 0;
      // Wrong codes, asking for a new one whenever 5 tries voided the current one. One less
      // than the limit: 10 wrong codes would also reach the account's daily cap of wrong codes
      // (tests/service/code-guessing.test.ts), which lasts 24 hours.
      while (tries < LIMITS.codeAttemptsPerEmail.max - 1) {
        const code = await lastCode(email);
        const err = await rejection(services.accounts.verifyEmail(email, String((Number(code) + 1) % 10_000).padStart(4, '0'), IP));
        tries++;
        if (/Too many wrong attempts/.test(err.message)) {
          clock.advance(61_000);
          await services.accounts.resendVerification(email, IP);
        }
      }
      // The last try is not a guess: the code has expired meanwhile. It still counts as a try.
      clock.advance(10 * 60_000);
      expect((await rejection(services.accounts.verifyEmail(email, await lastCode(email), IP))).message).toMatch(/expired/);
      const blocked = await rejection(services.accounts.verifyEmail(email, await lastCode(email), IP));
      expect(blocked.code).toBe('rate_limited');
      clock.advance(15 * 60_000);
      // That code has expired meanwhile; a fresh one works once the window is over.
      await services.accounts.resendVerification(email, IP);
      await services.accounts.verifyEmail(email, await lastCode(email), IP);
    });

    it('password change: 30 parallel wrong current passwords get at most 10 checks, the rest 429, until the window ends', async () => {
      const email = newEmail();
      await register(email);
      await services.accounts.verifyEmail(email, await lastCode(email), IP);
      const { token } = await services.accounts.login(email, PASSWORD, IP);
      const session = (await services.sessions.resolve(token))!;
      const change = (old: string) => services.accounts.changePassword(session.user, session.tokenHash, old, 'Kano-2026-new!');
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => rejection(change(`Wrong-pass-${i}`))));
      expect(answers.filter((e) => e.code === 'invalid')).toHaveLength(LIMITS.passwordChangeFailuresPerUser.max);
      expect(answers.filter((e) => e.code === 'rate_limited')).toHaveLength(30 - LIMITS.passwordChangeFailuresPerUser.max);
      expect((await rejection(change(PASSWORD))).code).toBe('rate_limited');
      clock.advance(LIMITS.passwordChangeFailuresPerUser.windowSeconds * 1000);
      await change(PASSWORD);
    });

    it('sessions expire after 30 days', async () => {
      const email = newEmail();
      await register(email);
      await services.accounts.verifyEmail(email, await lastCode(email), IP);
      const { token } = await services.accounts.login(email, PASSWORD, IP);
      expect(await services.sessions.resolve(token)).not.toBeNull();
      clock.advance(30 * 86_400_000 + 1000);
      expect(await services.sessions.resolve(token)).toBeNull();
    });
  });
}
