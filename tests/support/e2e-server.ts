/**
 * The server Playwright starts: the built store on a fresh database. E2E_DRIVER=pg gives it
 * a new PostgreSQL database (dropped when the server stops); otherwise PGlite in a fresh
 * directory beside DATA_DIR (removed when it stops). Signals are passed on so the store shuts
 * down gracefully.
 *
 * It prints "store ready on <url>" (Playwright's webServer waits for that line) only once the
 * store it started listens on PORT and answers health with its own instance id
 * (tests/support/store-process.ts): a store that cannot have PORT makes this process exit 1 with
 * the store's error, so a test run never goes to another server on that port. A parent with an
 * IPC channel (tests/support/tls-server.ts) gets the store's report as the store sent it.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { ListenReport } from '../../src/server/server';
import { createFreshDatabase } from './pg';
import { AddressInUseError, launchStore, type LaunchedStore } from './store-process';

const driver = process.env.E2E_DRIVER === 'pg' ? 'pg' : 'pglite';
// A directory of this run's own: another run on the same port must not share (or wipe) it.
const base = process.env.DATA_DIR ?? '.e2e-data/default';
mkdirSync(path.dirname(base), { recursive: true });
const dataDir = mkdtempSync(`${base}-`);
const fresh = driver === 'pg' ? await createFreshDatabase('store_e2e') : undefined;

const report = (message: ListenReport) => new Promise<void>((resolve) => (process.send && process.connected ? process.send(message, undefined, {}, () => resolve()) : resolve()));
const cleanUp = async () => {
  rmSync(dataDir, { recursive: true, force: true });
  await fresh?.drop().catch(() => undefined);
};

let store: LaunchedStore;
try {
  store = await launchStore({ env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: fresh?.url ?? '' } });
} catch (err) {
  const message = err instanceof Error ? err.message : String(err);
  console.error(message);
  await report({ store: 'listen-failed', code: err instanceof AddressInUseError ? 'EADDRINUSE' : undefined, message });
  await cleanUp();
  process.exit(1);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => store.child.kill(signal));
store.child.on('exit', async (code) => {
  await cleanUp();
  process.exit(code ?? 0);
});
await report({ store: 'listening', port: store.port, instance: store.instance });
console.log(`store ready on ${store.url} (instance ${store.instance})`);
