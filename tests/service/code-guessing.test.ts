import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@/lib/domain/errors';
import { LIMITS } from '@/lib/server/infra/rate-limit';
import type { Services } from '@/lib/server/services';
import { DRIVERS, servicesFor, testClock } from '../support/services';

const PASSWORD = 'Lagos-2026!';
const IP = '198.51.100.9';
const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;

async function rejection(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

const other = (code: string) => String((Number(code) + 1) % 10_000).padStart(4, '0');

for (const driver of DRIVERS) {
  describe(`guessing e-mail codes on ${driver}`, () => {
    const clock = testClock();
    let services: Services;
    let close: () => Promise<void>;
    let n = 0;

    const newEmail = () => `guess${++n}.${driver}@example.com`;
    const mails = (email: string) => services.outbox.list(email, 500);
    const pausedMails = async (email: string) => (await mails(email)).filter((m) => /paused/i.test(m.subject));
    const lastCode = async (email: string, what: 'verification' | 'password reset') => {
      const mail = (await mails(email)).find((m) => m.subject.includes(`${what} code`))!;
      return /code is (\d{4})/.exec(mail.text)![1]!;
    };
    const register = (email: string) =>
      services.accounts.register({ firstName: 'Ada', lastName: 'Obi', email, password: PASSWORD, phoneNumber: '+2348031234567', country: 'nigeria' }, IP);
    const verify = async (email: string, otp: string) => services.accounts.verifyEmail(email, otp, IP);
    const reset = async (email: string, otp: string) => services.accounts.resetPassword(email, otp, 'Abuja-2026!x', IP);
    /** A fresh reset code (a minute after the last one), then `count` wrong guesses with it. */
    const wrongResets = async (email: string, count: number) => {
      clock.advance(61_000);
      await services.accounts.forgotPassword(email, IP);
      const code = await lastCode(email, 'password reset');
      for (let i = 0; i < count; i++) expect((await rejection(reset(email, other(code)))).code).toBe('invalid');
      return code;
    };

    beforeAll(async () => {
      const opened = await servicesFor(driver, { clock, seed: false });
      services = opened.services;
      close = opened.close;
    });
    afterAll(async () => {
      await close?.();
    });

    it('10 wrong codes in 24 h across registration and reset codes pause both, with one e-mail to the owner; the cap resets after 24 h', async () => {
      const email = newEmail();
      await register(email);
      const verifyCode = await lastCode(email, 'verification');
      // 5 wrong registration codes use that code up ...
      for (let i = 0; i < 5; i++) expect((await rejection(verify(email, other(verifyCode)))).code).toBe('invalid');
      // ... and 5 wrong reset codes reach the account's cap of 10 a day.
      const resetCode = await wrongResets(email, 5);
      expect(await pausedMails(email)).toHaveLength(1);

      // Now even the right codes are refused, with a 429 that says when to try again.
      clock.advance(61_000);
      await services.accounts.resendVerification(email, IP);
      const rightVerify = await lastCode(email, 'verification');
      for (const attempt of [() => verify(email, rightVerify), () => reset(email, resetCode), () => verify(email, rightVerify)]) {
        const err = await rejection(attempt());
        expect(err.code).toBe('rate_limited');
        expect(err.message).toMatch(/^Too many wrong codes were entered for this account, so code entry and password reset are paused\. Please try again in 24 hours\.$/);
        expect(err.details?.retryAfter).toBeGreaterThan(23 * 3600);
      }
      // One e-mail about the pause, not one per refused try; it says why and holds no code.
      const paused = await pausedMails(email);
      expect(paused).toHaveLength(1);
      expect(paused[0]!.subject).toBe('Password reset is paused on your Maison Luxe account');
      expect(paused[0]!.text).toMatch(/10 wrong codes were entered for your account within 24 hours/);
      expect(paused[0]!.text).toMatch(/Your password has not changed/);
      expect(paused[0]!.text).not.toMatch(/\b\d{4}\b(?! \d\d:)/);

      // 24 hours after the first wrong guess the cap is over: a new code works.
      clock.advance(DAY);
      await services.accounts.resendVerification(email, IP);
      await verify(email, await lastCode(email, 'verification'));
      expect(await pausedMails(email)).toHaveLength(1);
    });

    it('right codes do not count towards the cap', async () => {
      const email = newEmail();
      await register(email);
      await verify(email, await lastCode(email, 'verification'));
      await wrongResets(email, 5);
      await wrongResets(email, LIMITS.wrongCodesPerDay.max - 6);
      // 9 wrong guesses so far: a right one still works and is not counted ...
      // (after the per-e-mail 15-minute window of 10 tries, which counts every try)
      clock.advance(15 * 60_000);
      await services.accounts.forgotPassword(email, IP);
      await reset(email, await lastCode(email, 'password reset'));
      // ... so one more wrong guess is allowed before the pause.
      const code = await wrongResets(email, 1);
      expect((await rejection(reset(email, code))).code).toBe('rate_limited');
      expect(await pausedMails(email)).toHaveLength(1);
    });

    it('30 wrong codes in 30 days pause code entry until the 30 days are over, with one more e-mail saying so', async () => {
      const email = newEmail();
      await register(email);
      await verify(email, await lastCode(email, 'verification'));
      const start = clock().getTime();
      for (let day = 0; day < 3; day++) {
        await wrongResets(email, 5);
        await wrongResets(email, 5);
        expect((await rejection(reset(email, '0000'))).code).toBe('rate_limited');
        clock.advance(DAY);
      }
      // Day 4: the day cap is over, the month cap is not.
      clock.advance(61_000);
      await services.accounts.forgotPassword(email, IP);
      const code = await lastCode(email, 'password reset');
      const err = await rejection(reset(email, code));
      expect(err.code).toBe('rate_limited');
      expect(err.message).toMatch(/Please try again in (2[6-7]) days\.$/);
      expect((await rejection(reset(email, code))).code).toBe('rate_limited');
      const paused = await pausedMails(email);
      // one per pause: days 1 and 2, then the 30-day pause that starts on day 3
      expect(paused).toHaveLength(3);
      expect(paused[0]!.text).toMatch(/30 wrong codes were entered for your account within 30 days/);
      expect(paused[1]!.text).toMatch(/10 wrong codes were entered for your account within 24 hours/);

      // 30 days after the first wrong guess, code entry works again.
      clock.advance(start + 30 * DAY - clock().getTime());
      clock.advance(61_000);
      await services.accounts.forgotPassword(email, IP);
      await reset(email, await lastCode(email, 'password reset'));
      const { user } = await services.accounts.login(email, 'Abuja-2026!x', IP);
      expect(user.email).toBe(email);
    });

    it('parallel wrong guesses cannot go past the cap', async () => {
      const email = newEmail();
      await register(email);
      await verify(email, await lastCode(email, 'verification'));
      await wrongResets(email, 5);
      await wrongResets(email, 3);
      // 2 guesses left; 5 tries left on this code; 5 at once: 2 are compared, 3 are refused.
      const code = await lastCode(email, 'password reset');
      const answers = await Promise.all(Array.from({ length: 5 }, () => rejection(reset(email, other(code)))));
      expect(answers.filter((e) => e.code === 'invalid')).toHaveLength(2);
      expect(answers.filter((e) => e.code === 'rate_limited')).toHaveLength(3);
      expect(await pausedMails(email)).toHaveLength(1);
    });

    it('unknown-e-mail probes through forgot-password and sign-up count against the per-IP limit (failures only)', async () => {
      const ip = '203.0.113.77';
      const known = newEmail();
      await register(known);
      await verify(known, await lastCode(known, 'verification'));
      // Fill the window to one below the limit directly; then one real probe fills it.
      for (let i = 0; i < LIMITS.emailProbesPerIp.max - 1; i++) await services.limiter.hit(`email-probe-ip:${ip}`, LIMITS.emailProbesPerIp);
      // A successful call does not count.
      clock.advance(61_000);
      await services.accounts.forgotPassword(known, ip);
      expect((await rejection(services.accounts.forgotPassword('nobody.here@example.com', ip))).code).toBe('not_found');
      // Now the IP is refused, for known and unknown addresses and for sign-up ...
      const refused = await rejection(services.accounts.forgotPassword('nobody.else@example.com', ip));
      expect(refused.code).toBe('rate_limited');
      expect(refused.message).toMatch(/^Too many attempts\. Please try again in \d+ minutes?\.$/);
      expect((await rejection(register(known).then(() => undefined))).code).toBe('conflict');
      expect((await rejection(services.accounts.register({ firstName: 'A', lastName: 'B', email: known, password: PASSWORD, phoneNumber: '+2348031234567', country: 'nigeria' }, ip))).code).toBe('rate_limited');
      // ... other addresses are not ...
      expect((await rejection(services.accounts.forgotPassword('nobody.here@example.com', '203.0.113.78'))).code).toBe('not_found');
      // ... and the window ends.
      clock.advance(LIMITS.emailProbesPerIp.windowSeconds * 1000);
      expect((await rejection(services.accounts.forgotPassword('nobody.here@example.com', ip))).code).toBe('not_found');
    });

    it('sign-up probes of taken addresses count as failures', async () => {
      const ip = '203.0.113.90';
      const known = newEmail();
      await register(known);
      await verify(known, await lastCode(known, 'verification'));
      for (let i = 0; i < LIMITS.emailProbesPerIp.max - 1; i++) await services.limiter.hit(`email-probe-ip:${ip}`, LIMITS.emailProbesPerIp);
      const again = () =>
        services.accounts.register({ firstName: 'A', lastName: 'B', email: known, password: PASSWORD, phoneNumber: '+2348031234567', country: 'nigeria' }, ip);
      expect((await rejection(again())).code).toBe('conflict');
      expect((await rejection(again())).code).toBe('rate_limited');
    });

    it('reserve: parallel callers never get more places than the limit, on one database', async () => {
      const key = `reserve-test:${driver}`;
      const limit = { max: 5, windowSeconds: 60 };
      const results = await Promise.allSettled(Array.from({ length: 30 }, () => services.limiter.reserve(key, limit)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
      await services.limiter.release(key);
      await services.limiter.reserve(key, limit);
      await expect(services.limiter.reserve(key, limit)).rejects.toMatchObject({ code: 'rate_limited' });
      clock.advance(60_000);
      await services.limiter.reserve(key, limit);
    });
  });
}
