import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneTimeCodes, sessions } from '@/lib/server/accounts/tables';
import { rateLimits } from '@/lib/server/infra/tables';
import { createHousekeeping, HOUSEKEEPING_LOCK_KEY, scheduleHousekeeping } from '@/lib/server/operations/housekeeping';
import { createLogger } from '@/lib/server/infra/log';
import type { Services } from '@/lib/server/services';
import { hashToken } from '@/lib/server/accounts/sessions';
import { DRIVERS, servicesFor, testClock } from '../support/services';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

for (const driver of DRIVERS) {
  describe(`housekeeping on ${driver}`, () => {
    const clock = testClock();
    let services: Services;
    let close: () => Promise<void>;
    let databaseUrl: string | undefined;

    const housekeeping = () =>
      createHousekeeping({ db: services.db, clock, log: createLogger('silent'), useAdvisoryLock: Boolean(databaseUrl) });

    beforeAll(async () => {
      const opened = await servicesFor(driver, { clock, seed: false });
      services = opened.services;
      close = opened.close;
      databaseUrl = services.config.DATABASE_URL;
    });
    afterAll(async () => {
      await close?.();
    });

    it('purges expired sessions, used and expired codes and ended rate-limit windows, and keeps the live ones', async () => {
      const user = await services.accounts.register(
        { firstName: 'Ada', lastName: 'Obi', email: `keep.${driver}@example.com`, password: 'Lagos-2026!', phoneNumber: '+2348031234567', country: 'nigeria' },
        null,
      );
      // Sessions: one made now (expires in 30 days), one made 31 days later (live then).
      const old = await services.sessions.create(user.id);
      // Codes: one that expires, one used, one voided by a newer code, the newest live.
      await services.codes.issue('expired@example.com', 'reset');
      await services.codes.issue('used@example.com', 'verify');
      // Rate limits: a 1-minute window that ends, a 30-day window that does not.
      await services.limiter.hit('short-window', { max: 5, windowSeconds: 60 });
      await services.limiter.hit('long-window', { max: 5, windowSeconds: 60 * DAY / 1000 });

      clock.advance(31 * DAY);
      const live = await services.sessions.create(user.id);
      const usedCode = await services.codes.issue('used@example.com', 'verify');
      await services.codes.consume('used@example.com', 'verify', usedCode);
      await services.codes.issue('live@example.com', 'reset'); // voided by the next one
      await services.codes.issue('live@example.com', 'reset');
      // An exhausted code that has not expired yet still says "too many wrong attempts": kept.
      const exhausted = await services.codes.issue('exhausted@example.com', 'reset');
      const wrong = String((Number(exhausted) + 1) % 10_000).padStart(4, '0');
      for (let i = 0; i < 5; i++) await services.codes.consume('exhausted@example.com', 'reset', wrong).catch(() => undefined);

      const report = await housekeeping().purgeExpired();
      expect(report.ran).toBe(true);
      expect(report.sessions).toBeGreaterThanOrEqual(1);

      const sessionRows = await services.db.select({ tokenHash: sessions.tokenHash }).from(sessions);
      expect(sessionRows.map((s) => s.tokenHash)).toContain(hashToken(live.token));
      expect(sessionRows.map((s) => s.tokenHash)).not.toContain(hashToken(old.token));
      expect(await services.sessions.resolve(live.token)).not.toBeNull();

      const codeRows = await services.db.select({ email: oneTimeCodes.email }).from(oneTimeCodes);
      expect(codeRows.map((c) => c.email).sort()).toEqual(['exhausted@example.com', 'live@example.com']);
      const keys = (await services.db.select({ key: rateLimits.key }).from(rateLimits)).map((r) => r.key);
      expect(keys).not.toContain('short-window');
      expect(keys).toContain('long-window');
      // the code-guess booking of the exhausted code's wrong tries is live too
      expect(keys).toContain('code-wrong-day:exhausted@example.com');

      // The live ones go when they run out.
      clock.advance(30 * DAY + MINUTE);
      await housekeeping().purgeExpired();
      expect(await services.db.select().from(oneTimeCodes)).toEqual([]);
      expect(await services.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
      expect(await services.db.select().from(rateLimits)).toEqual([]);
    });

    if (driver === 'pg') {
      it('one app server at a time: a server that cannot take the advisory lock skips the run', async () => {
        await services.limiter.hit('ended-window', { max: 5, windowSeconds: 60 });
        clock.advance(2 * MINUTE);
        const other = new pg.Client({ connectionString: databaseUrl });
        await other.connect();
        try {
          await other.query(`select pg_advisory_lock(${HOUSEKEEPING_LOCK_KEY})`);
          expect(await housekeeping().purgeExpired()).toEqual({ ran: false, sessions: 0, codes: 0, rateLimits: 0 });
          expect((await services.db.select().from(rateLimits).where(eq(rateLimits.key, 'ended-window'))).length).toBe(1);
          await other.query(`select pg_advisory_unlock(${HOUSEKEEPING_LOCK_KEY})`);
          const report = await housekeeping().purgeExpired();
          expect(report.ran).toBe(true);
          expect(report.rateLimits).toBe(1);
          // the lock is let go after each run
          expect((await other.query(`select pg_try_advisory_lock(${HOUSEKEEPING_LOCK_KEY}) as ok`)).rows[0].ok).toBe(true);
        } finally {
          await other.end();
        }
      });
    }
  });
}

describe('housekeeping schedule', () => {
  it('runs at start, then every N minutes, never two runs at once, and stops', async () => {
    let calls = 0;
    let release: () => void = () => undefined;
    const slow = { purgeExpired: () => new Promise<never>((resolve) => ((calls++, (release = () => resolve(undefined as never))))) };
    const schedule = scheduleHousekeeping(slow, { log: createLogger('silent'), everyMinutes: 0.001 }); // 60 ms
    expect(calls).toBe(1);
    await new Promise((r) => setTimeout(r, 200));
    expect(calls).toBe(1); // the first run is still going
    release();
    await schedule.running();
    await new Promise((r) => setTimeout(r, 200));
    expect(calls).toBeGreaterThanOrEqual(2);
    schedule.stop();
    release();
    await schedule.running();
    const after = calls;
    await new Promise((r) => setTimeout(r, 200));
    expect(calls).toBe(after);
  });

  it('a failed run is logged and the next one still happens', async () => {
    let calls = 0;
    const failing = { purgeExpired: async () => (calls++, Promise.reject(new Error('database down'))) };
    const schedule = scheduleHousekeeping(failing, { log: createLogger('silent'), everyMinutes: 0.001 });
    await new Promise((r) => setTimeout(r, 200));
    schedule.stop();
    expect(calls).toBeGreaterThanOrEqual(2);
  });
});
