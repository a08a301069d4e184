import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { pgliteExtensions } from './pglite-extensions';
/**
 * The one database type services see; PGlite and node-postgres both satisfy it. It carries no
 * schema (queries name the features' tables themselves), so infra needs none of them.
 */
export type Db = PgDatabase<PgQueryResultHKT>;
/** A transaction handle, usable wherever a Db is. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  driver: 'pglite' | 'pg';
  close(): Promise<void>;
  /** PostgreSQL's connection pool as /metrics reports it (PGlite has one connection and no pool). */
  pool?: { total: number; idle: number; waiting: number; max: number } | undefined;
}

/** Migrations live in the source tree; the server is started from the project root. */
export const migrationsFolder = path.resolve(process.env.MIGRATIONS_DIR ?? 'src/lib/server/infra/db/migrations');

export interface OpenOptions {
  /** PostgreSQL server URL; when absent, embedded PGlite is used. */
  databaseUrl?: string | undefined;
  /** PGlite data directory; 'memory://' for an in-memory database. */
  dataDir: string;
  migrate?: boolean;
  /** PGlite: a dump of a data directory (PGlite's dumpDataDir) to start from, e.g. one already migrated. */
  pgliteDump?: Blob | undefined;
  /** Called with every SQL statement (tests count queries with it). */
  onQuery?: (query: string) => void;
}

function queryLogger(opts: OpenOptions) {
  const onQuery = opts.onQuery;
  return onQuery ? { logQuery: (query: string) => onQuery(query) } : false;
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  const migrate = opts.migrate ?? true;
  if (opts.databaseUrl) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    // bigint (int8) money columns come back as strings by default; amounts fit a double.
    pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    const warn = (msg: string, err: Error) =>
      process.stderr.write(JSON.stringify({ time: new Date().toISOString(), level: 'warn', msg, err: err.message }) + '\n');
    // An idle client dropped by the server (restart, failover, pg_terminate_backend) must not crash the process.
    pool.on('error', (err) => warn('idle database client failed', err));
    // Nor one that is checked out between two queries (inside a transaction): without a listener of
    // its own, its 'error' event would be unhandled and end the process. The pool drops it on release.
    pool.on('connect', (client) => {
      client.on('error', (err) => warn('database connection lost', err));
    });
    const db = drizzle(pool, { logger: queryLogger(opts) }) as unknown as Db;
    if (migrate) {
      const { migrate: run } = await import('drizzle-orm/node-postgres/migrator');
      await run(db as never, { migrationsFolder });
    }
    return {
      db,
      driver: 'pg',
      close: () => pool.end(),
      get pool() {
        return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: 10 };
      },
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  let dataDir = opts.dataDir;
  if (!dataDir.startsWith('memory://')) {
    dataDir = path.resolve(dataDir, 'pglite');
    mkdirSync(dataDir, { recursive: true });
  }
  const client = await PGlite.create(dataDir, { extensions: await pgliteExtensions(), ...(opts.pgliteDump ? { loadDataDir: opts.pgliteDump } : {}) });
  const db = drizzle(client, { logger: queryLogger(opts) }) as unknown as Db;
  if (migrate) {
    const { migrate: run } = await import('drizzle-orm/pglite/migrator');
    await run(db as never, { migrationsFolder });
  }
  return { db, driver: 'pglite', close: () => client.close() };
}

/** The hashes of the migrations in the source tree, oldest first (drizzle records the same hashes). */
export function knownMigrations(): string[] {
  return readMigrationFiles({ migrationsFolder }).map((m) => m.hash);
}

/**
 * Applies the source tree's migrations, or only the first `upTo` of them (a restore builds the
 * schema its backup was taken at, loads it, then migrates the rest of the way).
 */
export async function migrateDatabase(database: Database, upTo?: number): Promise<void> {
  let folder = migrationsFolder;
  let scratch: string | undefined;
  if (upTo !== undefined) {
    scratch = mkdtempSync(path.join(tmpdir(), 'migrations-'));
    cpSync(migrationsFolder, scratch, { recursive: true });
    const journalFile = path.join(scratch, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: unknown[] };
    journal.entries = journal.entries.slice(0, upTo);
    writeFileSync(journalFile, JSON.stringify(journal));
    folder = scratch;
  }
  try {
    if (database.driver === 'pg') {
      const { migrate } = await import('drizzle-orm/node-postgres/migrator');
      await migrate(database.db as never, { migrationsFolder: folder });
    } else {
      const { migrate } = await import('drizzle-orm/pglite/migrator');
      await migrate(database.db as never, { migrationsFolder: folder });
    }
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}
