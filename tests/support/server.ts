import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createFreshDatabase } from './pg';

export type Driver = 'pglite' | 'pg';

/** Where the seeded templates are (set by prepareSeededTemplates, read by startServer in every test worker). */
const TEMPLATE_DIR_ENV = 'STORE_TEST_TEMPLATE_DATA_DIR';
const TEMPLATE_DB_ENV = 'STORE_TEST_TEMPLATE_DATABASE';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * A new PGlite data directory (the caller removes it): a copy of the run's seeded demo store when
 * there is one (prepareSeededTemplates) and `seeded`, else empty (a server seeds it on start).
 */
export function newDataDir({ seeded = true, prefix = 'store-data-' } = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const template = process.env[TEMPLATE_DIR_ENV];
  if (seeded && template) cpSync(template, dir, { recursive: true });
  return dir;
}

/** A new PostgreSQL database: a copy of the run's seeded demo store when there is one and `seeded`, else empty. */
export function newDatabase({ seeded = true } = {}): ReturnType<typeof createFreshDatabase> {
  return createFreshDatabase('store_test', seeded ? process.env[TEMPLATE_DB_ENV] : undefined);
}

export interface RunningServer {
  baseUrl: string;
  driver: Driver;
  databaseUrl?: string;
  stop(): Promise<void>;
  /** SIGKILL, as a crash: nothing is shut down cleanly; the database is kept (stop() still cleans up). */
  kill(): Promise<void>;
}

/**
 * Starts the built server (dist/server/entry.mjs, or $STORE_DIST/server/entry.mjs) on a fresh database: PGlite in a temporary
 * directory, or a new PostgreSQL database. Waits until /api/v1/health answers.
 * A restart on the same data: `opts.databaseUrl` (PostgreSQL), or `env.DATA_DIR` (PGlite; the caller removes it).
 */
export async function startServer(
  driver: Driver,
  env: Record<string, string> = {},
  opts: {
    /** Share another server's PostgreSQL database (it is dropped by that server's stop()). */
    databaseUrl?: string;
    /** Receives the server's stdout and stderr (the log) instead of passing them through. */
    onOutput?: (text: string) => void;
  } = {},
): Promise<RunningServer> {
  const port = await freePort();
  // A demo store starts from the run's seeded template when there is one; a live store starts empty.
  const seeded = env.STORE_MODE !== 'live';
  const dataDir = newDataDir({ seeded: seeded && driver === 'pglite' && !env.DATA_DIR });
  const fresh = driver === 'pg' && !opts.databaseUrl ? await newDatabase({ seeded }) : undefined;
  const databaseUrl = opts.databaseUrl ?? fresh?.url;
  const child: ChildProcess = spawn(process.execPath, [`${process.env.STORE_DIST ?? 'dist'}/server/entry.mjs`], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_SITE_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: process.env.TEST_SERVER_LOG ?? 'warn',
      DATABASE_URL: databaseUrl ?? '',
      // Every test account signs up from 127.0.0.1: room for them all. A test of the sign-up
      // limit itself passes '' to get the store's defaults.
      SIGNUPS_PER_ADDRESS_PER_MINUTE: '10000',
      SIGNUPS_PER_ADDRESS_PER_HOUR: '100000',
      ...env,
    },
    stdio: ['ignore', opts.onOutput ? 'pipe' : 'inherit', opts.onOutput ? 'pipe' : 'inherit'],
  });
  if (opts.onOutput) {
    child.stdout?.setEncoding('utf8').on('data', opts.onOutput);
    child.stderr?.setEncoding('utf8').on('data', opts.onOutput);
  }
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  let ready = false;
  while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
    try {
      const res = await fetch(`${baseUrl}/api/v1/health`);
      if (res.ok) {
        ready = true;
        break;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    rmSync(dataDir, { recursive: true, force: true });
    await fresh?.drop();
  };
  if (!ready) {
    await stop();
    throw new Error(`server (${driver}) did not become healthy`);
  }
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    }
  };
  return { baseUrl, driver, databaseUrl, stop, kill };
}

/**
 * Seeds a demo store once per test run, on PGlite (a data directory) and on PostgreSQL (a database),
 * for startServer to copy: a server then starts on a migrated, seeded database in about a fifth of
 * the time (PGlite 8 s -> 1.5 s on a quiet machine), which a hundred API servers per run feel.
 * Returns the clean-up.
 */
export async function prepareSeededTemplates(): Promise<() => Promise<void>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'store-template-'));
  const database = await createFreshDatabase('store_template');
  const seeded = await Promise.all([startServer('pglite', { DATA_DIR: dir }), startServer('pg', {}, { databaseUrl: database.url })]);
  // Stopped cleanly, so the PGlite directory is whole and nobody is connected to the database.
  await Promise.all(seeded.map((s) => s.stop()));
  process.env[TEMPLATE_DIR_ENV] = dir;
  process.env[TEMPLATE_DB_ENV] = database.name;
  return async () => {
    delete process.env[TEMPLATE_DIR_ENV];
    delete process.env[TEMPLATE_DB_ENV];
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
  };
}
