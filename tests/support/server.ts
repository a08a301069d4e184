import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createFreshDatabase } from './pg';

export type Driver = 'pglite' | 'pg';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
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
  const dataDir = mkdtempSync(path.join(tmpdir(), 'store-data-'));
  const fresh = driver === 'pg' && !opts.databaseUrl ? await createFreshDatabase() : undefined;
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
