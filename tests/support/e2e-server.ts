/**
 * The server Playwright starts: the built store on a fresh database. E2E_DRIVER=pg gives it
 * a new PostgreSQL database (dropped when the server stops); otherwise PGlite in a fresh
 * directory. Signals are passed on so the store shuts down gracefully.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createFreshDatabase } from './pg';

const driver = process.env.E2E_DRIVER === 'pg' ? 'pg' : 'pglite';
const dataDir = process.env.DATA_DIR ?? '.e2e-data/default';
rmSync(dataDir, { recursive: true, force: true });
const fresh = driver === 'pg' ? await createFreshDatabase('store_e2e') : undefined;

const child = spawn(process.execPath, [`${process.env.STORE_DIST ?? 'dist'}/server/entry.mjs`], {
  env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: fresh?.url ?? '' },
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', async (code) => {
  await fresh?.drop().catch(() => undefined);
  process.exit(code ?? 0);
});
