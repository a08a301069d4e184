import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneTimeCodes, users } from '@/lib/server/accounts/tables';
import type { Services } from '@/lib/server/services';
import { DRIVERS, servicesFor, testClock } from '../support/services';

/**
 * Phone codes follow the e-mail codes' rules (accounts/codes.ts): kept only as a salted hash with
 * the number they were texted to, 10 minutes, single use; the verified number is the account's.
 */
for (const driver of DRIVERS) {
  describe(`phone verification codes on ${driver}`, () => {
    let services: Services;
    let close: () => Promise<void>;
    let database: { close(): Promise<void> };
    const clock = testClock();

    beforeAll(async () => {
      ({ services, close, database } = await servicesFor(driver, { seed: false, clock }));
    }, 120_000);
    afterAll(async () => {
      const end = database.close.bind(database);
      database.close = () => end().then(() => new Promise((r) => setTimeout(r, 300)));
      await close?.();
    });

    const shopper = async (email: string, phoneNumber: string) => {
      const [u] = await services.db.insert(users).values({ firstName: 'Ada', lastName: 'Obi', email, passwordHash: 'x', phoneNumber, country: 'nigeria', verifiedAt: new Date() }).returning();
      return u!;
    };
    const codeIn = async (to: string) => /your code is (\d{4})\./.exec((await services.textOutbox.list(to))[0]!.text)![1]!;

    it('keeps only a salted hash of the code, with the number it went to; it expires after 10 minutes', async () => {
      const me = await shopper(`hash.${driver}@example.com`, '+2348051112233');
      expect(await services.phoneVerification.sendCode(me, null)).toEqual({ phone: '+2348051112233' });
      const code = await codeIn('+2348051112233');
      const [row] = await services.db.select().from(oneTimeCodes).where(and(eq(oneTimeCodes.email, me.email), eq(oneTimeCodes.purpose, 'verify-phone')));
      expect(row).toMatchObject({ phone: '+2348051112233', attempts: 0, consumedAt: null });
      // Salt and digest in hex, never the code: a 4-digit code may turn up inside random hex by chance.
      expect(row!.codeHash).toMatch(/^[0-9a-f]{32}\$[0-9a-f]{64}$/);
      expect(row!.expiresAt.getTime() - clock().getTime()).toBe(10 * 60 * 1000);

      clock.advance(10 * 60 * 1000 + 1);
      await expect(services.phoneVerification.verify(me, code, null)).rejects.toMatchObject({ message: 'This code has expired or was already used. Please request a new one.' });
      expect(await services.phoneVerification.isPhoneVerified(me.id)).toBe(false);

      // A new code (the send limits' minute has passed) works, and sets the account's number as verified.
      clock.advance(60_000);
      await services.phoneVerification.sendCode(me, null);
      expect(await services.phoneVerification.verify(me, await codeIn('+2348051112233'), null)).toEqual({ phone: '+2348051112233' });
      expect(await services.phoneVerification.isPhoneVerified(me.id)).toBe(true);
      const [after] = await services.db.select({ v: users.phoneVerifiedNumber }).from(users).where(eq(users.id, me.id));
      expect(after!.v).toBe('+2348051112233');
    });

    it('asks an account whose number is not stored in E.164 (or not valid) to save it first', async () => {
      const legacy = await shopper(`legacy.${driver}@example.com`, '0803 123 4567');
      await expect(services.phoneVerification.sendCode(legacy, null)).rejects.toMatchObject({ code: 'invalid', message: 'Save a valid mobile number in your profile to verify it.' });
      const odd = await shopper(`odd.${driver}@example.com`, '+44 20 7946 0958');
      await expect(services.phoneVerification.sendCode(odd, null)).rejects.toMatchObject({ code: 'invalid' });
      expect(await services.textOutbox.list('+2348031234567')).toEqual([]);
    });
  });
}
