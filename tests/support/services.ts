import { Conflict } from '@/lib/domain/errors';
import { parseConfig } from '@/lib/server/infra/config';
import { openDatabase, type Database } from '@/lib/server/infra/db/client';
import { seedIfEmpty } from '@/lib/server/infra/db/seed';
import { createLogger, type Logger } from '@/lib/server/infra/log';
import { createServices, type Services } from '@/lib/server/services';
import { createFreshDatabase } from './pg';

export type Driver = 'pglite' | 'pg';
export const DRIVERS: Driver[] = ['pglite', 'pg'];

/** A controllable clock for rules that depend on time (code expiry, rate-limit windows). */
export function testClock(start = new Date('2026-11-22T10:00:00Z')) {
  let now = start.getTime();
  const clock = () => new Date(now);
  return Object.assign(clock, { advance: (ms: number) => void (now += ms) });
}

/** In-process services on a fresh database of the given driver, seeded. */
export async function servicesFor(
  driver: Driver,
  opts: { clock?: () => Date; env?: Record<string, string>; seed?: boolean; onQuery?: (sql: string) => void; log?: Logger } = {},
): Promise<{ services: Services; database: Database; close(): Promise<void> }> {
  const fresh = driver === 'pg' ? await createFreshDatabase() : undefined;
  const config = parseConfig({ LOG_LEVEL: 'silent', ...(fresh ? { DATABASE_URL: fresh.url } : {}), ...opts.env });
  const database = await openDatabase({ databaseUrl: fresh?.url, dataDir: 'memory://', onQuery: opts.onQuery });
  const services = createServices({ config, db: database.db, clock: opts.clock ?? (() => new Date()), log: opts.log ?? createLogger('silent') });
  if (opts.seed ?? true) await seedIfEmpty(services);
  return {
    services,
    database,
    async close() {
      await database.close();
      await fresh?.drop();
    },
  };
}

/** What a shopper's Pay (or Decline) on the simulated payment page records; false when it was already answered. */
export async function answerSimulatedPage(services: Pick<Services, 'payments'>, reference: string, outcome: 'pay' | 'decline' = 'pay'): Promise<boolean> {
  try {
    await services.payments.answerSimulated(reference, outcome);
    return true;
  } catch (err) {
    if (err instanceof Conflict) return false;
    throw err;
  }
}
