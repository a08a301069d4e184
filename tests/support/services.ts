import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { Conflict } from '@/lib/domain/errors';
import { parseConfig } from '@/lib/server/infra/config';
import { migrationsFolder, openDatabase, type Database } from '@/lib/server/infra/db/client';
import { pgliteExtensions } from '@/lib/server/infra/db/pglite-extensions';
import { seedIfEmpty } from '@/lib/server/demo/seed';
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

const MIGRATED_DUMP_ENV = 'TEST_MIGRATED_PGLITE_DUMP';
const MIGRATED_DB_ENV = 'TEST_MIGRATED_PG_DATABASE';
const SEEDED_DUMP_ENV = 'TEST_SEEDED_PGLITE_DUMP';
const SEEDED_DB_ENV = 'TEST_SEEDED_PG_DATABASE';

/**
 * Migrates an empty database once per test run, and seeds a copy of it, on PGlite (dumps of its
 * data directory) and on PostgreSQL (template databases), for servicesFor to start from: each
 * suite's databases then begin migrated (or seeded) instead of running every migration (and the
 * demo seed, 3–5 s a driver) again. Returns the clean-up.
 */
export async function prepareMigratedTemplates(): Promise<() => Promise<void>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'store-migrated-'));
  const migratedPg = await createFreshDatabase('store_migrated');
  const pglite = await PGlite.create('memory://', { extensions: await pgliteExtensions() });
  const [, pg] = await Promise.all([migrate(drizzle(pglite), { migrationsFolder }), openDatabase({ databaseUrl: migratedPg.url, dataDir: '' })]);
  const dumpTo = async (file: string) => writeFileSync(file, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
  await Promise.all([dumpTo(path.join(dir, 'pglite.tar')), pg.close()]);
  process.env[MIGRATED_DUMP_ENV] = path.join(dir, 'pglite.tar');
  process.env[MIGRATED_DB_ENV] = migratedPg.name;

  // The seeded copies: the demo seed run once, as a suite's own services would run it.
  const seededPg = await createFreshDatabase('store_seeded', migratedPg.name);
  const seededPgDb = await openDatabase({ databaseUrl: seededPg.url, dataDir: '', migrate: false });
  const seedOn = (db: Database['db'], databaseUrl?: string) =>
    seedIfEmpty(createServices({ config: parseConfig({ LOG_LEVEL: 'silent', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }), db, clock: () => new Date(), log: createLogger('silent') }));
  await Promise.all([seedOn(drizzle(pglite) as unknown as Database['db']), seedOn(seededPgDb.db, seededPg.url)]);
  await Promise.all([dumpTo(path.join(dir, 'pglite-seeded.tar')), seededPgDb.close()]);
  await pglite.close();
  process.env[SEEDED_DUMP_ENV] = path.join(dir, 'pglite-seeded.tar');
  process.env[SEEDED_DB_ENV] = seededPg.name;
  return async () => {
    for (const name of [MIGRATED_DUMP_ENV, MIGRATED_DB_ENV, SEEDED_DUMP_ENV, SEEDED_DB_ENV]) delete process.env[name];
    rmSync(dir, { recursive: true, force: true });
    await Promise.all([migratedPg.drop(), seededPg.drop()]);
  };
}

/**
 * A fresh database of the driver, migrated (or `seeded` with the demo store): from the run's
 * templates when there are (the migrations still run, finding nothing to do), or from scratch.
 */
export async function freshMigratedDatabase(driver: Driver, opts: { onQuery?: (sql: string) => void; seeded?: boolean } = {}) {
  const [dumpEnv, dbEnv] = opts.seeded ? [SEEDED_DUMP_ENV, SEEDED_DB_ENV] : [MIGRATED_DUMP_ENV, MIGRATED_DB_ENV];
  const fresh = driver === 'pg' ? await createFreshDatabase('store_test', process.env[dbEnv]) : undefined;
  const dump = driver === 'pglite' && process.env[dumpEnv] ? new Blob([readFileSync(process.env[dumpEnv])]) : undefined;
  const database = await openDatabase({ databaseUrl: fresh?.url, dataDir: 'memory://', pgliteDump: dump, onQuery: opts.onQuery });
  return { fresh, database };
}

/**
 * In-process services on a fresh database of the given driver, seeded. A suite on the real clock
 * starts from the run's seeded template; one with a clock of its own is seeded on that clock (the
 * demo products' dates are the clock's).
 */
export async function servicesFor(
  driver: Driver,
  opts: { clock?: () => Date; env?: Record<string, string>; seed?: boolean; onQuery?: (sql: string) => void; log?: Logger } = {},
): Promise<{ services: Services; database: Database; close(): Promise<void> }> {
  const seed = opts.seed ?? true;
  const fromSeededTemplate = seed && !opts.clock && Boolean(process.env[driver === 'pg' ? SEEDED_DB_ENV : SEEDED_DUMP_ENV]);
  const { fresh, database } = await freshMigratedDatabase(driver, { onQuery: opts.onQuery, seeded: fromSeededTemplate });
  const config = parseConfig({ LOG_LEVEL: 'silent', ...(fresh ? { DATABASE_URL: fresh.url } : {}), ...opts.env });
  const services = createServices({ config, db: database.db, clock: opts.clock ?? (() => new Date()), log: opts.log ?? createLogger('silent') });
  // From the seeded template, this finds the demo products and does nothing.
  if (seed) await seedIfEmpty(services);
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
