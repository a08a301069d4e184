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

/**
 * Migrates an empty database once per test run, on PGlite (a dump of its data directory) and on
 * PostgreSQL (a template database), for servicesFor to start from: each suite's databases then
 * begin migrated instead of running every migration again. Returns the clean-up.
 */
export async function prepareMigratedTemplates(): Promise<() => Promise<void>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'store-migrated-'));
  const template = await createFreshDatabase('store_migrated');
  const pglite = await PGlite.create('memory://', { extensions: await pgliteExtensions() });
  const [, pg] = await Promise.all([migrate(drizzle(pglite), { migrationsFolder }), openDatabase({ databaseUrl: template.url, dataDir: '' })]);
  const dump = path.join(dir, 'pglite.tar');
  writeFileSync(dump, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
  await Promise.all([pglite.close(), pg.close()]);
  process.env[MIGRATED_DUMP_ENV] = dump;
  process.env[MIGRATED_DB_ENV] = template.name;
  return async () => {
    delete process.env[MIGRATED_DUMP_ENV];
    delete process.env[MIGRATED_DB_ENV];
    rmSync(dir, { recursive: true, force: true });
    await template.drop();
  };
}

/**
 * A fresh database of the driver, migrated: from the run's migrated templates when there are
 * (the migrations still run, finding nothing to do), or from scratch.
 */
export async function freshMigratedDatabase(driver: Driver, opts: { onQuery?: (sql: string) => void } = {}) {
  const fresh = driver === 'pg' ? await createFreshDatabase('store_test', process.env[MIGRATED_DB_ENV]) : undefined;
  const dump = driver === 'pglite' && process.env[MIGRATED_DUMP_ENV] ? new Blob([readFileSync(process.env[MIGRATED_DUMP_ENV])]) : undefined;
  const database = await openDatabase({ databaseUrl: fresh?.url, dataDir: 'memory://', pgliteDump: dump, onQuery: opts.onQuery });
  return { fresh, database };
}

/** In-process services on a fresh database of the given driver, seeded. */
export async function servicesFor(
  driver: Driver,
  opts: { clock?: () => Date; env?: Record<string, string>; seed?: boolean; onQuery?: (sql: string) => void; log?: Logger } = {},
): Promise<{ services: Services; database: Database; close(): Promise<void> }> {
  const { fresh, database } = await freshMigratedDatabase(driver, { onQuery: opts.onQuery });
  const config = parseConfig({ LOG_LEVEL: 'silent', ...(fresh ? { DATABASE_URL: fresh.url } : {}), ...opts.env });
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
