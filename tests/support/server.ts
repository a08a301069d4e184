import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createFreshDatabase } from './pg';
import { AddressInUseError, freePort, launchStore } from './store-process';

export type Driver = 'pglite' | 'pg';

/** Where the seeded templates are (set by prepareSeededTemplates, read by startServer in every test worker). */
const TEMPLATE_DIR_ENV = 'STORE_TEST_TEMPLATE_DATA_DIR';
const TEMPLATE_DB_ENV = 'STORE_TEST_TEMPLATE_DATABASE';

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
  /** The server's random id, which its /api/v1/health answers (src/lib/server/infra/instance.ts). */
  instance: string;
  stop(): Promise<void>;
  /** SIGKILL, as a crash: nothing is shut down cleanly; the database is kept (stop() still cleans up). */
  kill(): Promise<void>;
}

/** Ports tried before giving up: each is lost only to someone who bound it between our choosing and the child's binding. */
export const PORT_ATTEMPTS = 5;

/**
 * Starts the built server (dist/server/entry.mjs, or $STORE_DIST/server/entry.mjs) on a fresh database: PGlite in a temporary
 * directory, or a new PostgreSQL database. Resolves when /api/v1/health answers with this child's
 * instance id (tests/support/store-process.ts): a port taken by another server between being chosen
 * and being bound costs a fresh port, never a test talking to someone else's server.
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
    /** Where each attempt's port comes from (a free one); tests put a taken port here to play the race. */
    pickPort?: () => Promise<number>;
  } = {},
): Promise<RunningServer> {
  // A demo store starts from the run's seeded template when there is one; a live store starts empty.
  const seeded = env.STORE_MODE !== 'live';
  const fresh = driver === 'pg' && !opts.databaseUrl ? await newDatabase({ seeded }) : undefined;
  const databaseUrl = opts.databaseUrl ?? fresh?.url;
  const pickPort = opts.pickPort ?? freePort;
  let dataDir = '';
  let child: ChildProcess | undefined;
  const stop = async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await fresh?.drop();
  };
  let started: Awaited<ReturnType<typeof launchStore>> | undefined;
  for (let attempt = 1; !started; attempt++) {
    // A fresh directory each attempt: a child that could not listen may have begun opening it.
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    dataDir = newDataDir({ seeded: seeded && driver === 'pglite' && !env.DATA_DIR });
    const port = await pickPort();
    try {
      started = await launchStore({
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
        onOutput: opts.onOutput,
      });
    } catch (err) {
      if (err instanceof AddressInUseError && attempt < PORT_ATTEMPTS) continue;
      await stop();
      throw new Error(`server (${driver}) did not start: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
  }
  child = started.child;
  const kill = async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    }
  };
  return { baseUrl: started.url, driver, databaseUrl, instance: started.instance, stop, kill };
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
  const starts = await Promise.allSettled([startServer('pglite', { DATA_DIR: dir }), startServer('pg', {}, { databaseUrl: database.url })]);
  const seeded = starts.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = starts.find((s) => s.status === 'rejected');
  if (failed) {
    // The one that started is stopped too: nothing outlives a failed set-up.
    await Promise.all(seeded.map((s) => s.stop()));
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
    throw failed.reason;
  }
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
