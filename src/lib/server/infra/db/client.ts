import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { pgliteExtensions } from './pglite-extensions';
import * as schema from './schema';

export type Schema = typeof schema;
/** The one database type services see; PGlite and node-postgres both satisfy it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
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
    const db = drizzle(pool, { schema, logger: queryLogger(opts) }) as unknown as Db;
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
  const client = await PGlite.create(dataDir, { extensions: await pgliteExtensions() });
  const db = drizzle(client, { schema, logger: queryLogger(opts) }) as unknown as Db;
  if (migrate) {
    const { migrate: run } = await import('drizzle-orm/pglite/migrator');
    await run(db as never, { migrationsFolder });
  }
  return { db, driver: 'pglite', close: () => client.close() };
}
