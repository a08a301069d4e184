import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@/lib/server/infra/db/client';
import { readDump } from '@/lib/server/operations/dump-files';
import { growStore } from '@/lib/server/demo/seed-scale';
import { createFreshDatabase } from '../support/pg';
import { newDataDir, startServer } from '../support/server';
import { buyingClient, DEMO } from './buying-client';

/** Runs a project script (tsx) with its own environment; answers its exit code and output. */
async function script(file: string, args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
  return { code, out };
}

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

describe('db:move from PGlite to PostgreSQL', () => {
  it('moves the demo store with 5,000 more orders, checks every table, refuses a full target, and the copy sells', async () => {
    const dataDir = newDataDir();
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const local = await openDatabase({ dataDir });
    const [p] = (await local.db.execute(sql`select count(*)::int as n from products`) as unknown as { rows: { n: number }[] }).rows;
    await growStore(local.db, { products: Number(p!.n), customers: 500, orders: 5000 });
    await local.close();
    const target = await createFreshDatabase('store_move');
    cleanup.push(() => target.drop());

    const env = { DATA_DIR: dataDir, DATABASE_URL: '' };
    const moved = await script('scripts/db-move.ts', ['--to', target.url], env);
    expect(moved.out).toContain("every table's rows and checksum match");
    expect(moved.code).toBe(0);
    expect(moved.out).toMatch(/orders\s+\d{4,} rows/);
    // The second time the target is not empty: refused, nothing changed.
    const again = await script('scripts/db-move.ts', ['--to', target.url], env);
    expect(again.code).toBe(1);
    expect(again.out).toContain('db:move refused: the target store is not empty');

    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    const before = (await client.query('select count(*)::int as n from orders')).rows[0].n as number;
    expect(before).toBeGreaterThanOrEqual(5000);

    const server = await startServer('pg', {}, { databaseUrl: target.url });
    cleanup.push(() => server.stop());
    const api = buyingClient(server.baseUrl);
    const { token, id } = await api.login(DEMO.email, DEMO.password);
    await api.clear(token, id);
    const v = await api.variant({ minStock: 3, sized: false });
    expect((await api.add(token, v, 1)).status).toBe(200);
    const started = await api.call('POST', '/orders/initiate', { token, body: {} });
    expect(started.status).toBe(200);
    await api.answerSimulated(started.body.data.reference, 'pay');
    const placed = await api.call('POST', '/orders/place-order', { token, body: { paymentReference: started.body.data.reference } });
    expect(placed.status).toBe(200);
    // New rows take fresh ids after the moved ones (the sequences came along).
    expect((await client.query('select count(*)::int as n from orders')).rows[0].n).toBe(before + 1);
    await client.end();
  }, 600_000);
});

describe('scheduled backups', () => {
  it('a kill -9 in the middle of a backup leaves the backups already written whole', async () => {
    const dataDir = newDataDir();
    const backupDir = mkdtempSync(path.join(tmpdir(), 'backup-kill-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    cleanup.push(() => rmSync(backupDir, { recursive: true, force: true }));
    // Every 1.8 seconds: backups follow one another, so a kill soon lands in one.
    const env = { DATA_DIR: dataDir, BACKUP_DIR: backupDir, BACKUP_EVERY_HOURS: '0.0005', BACKUP_KEEP: '50' };
    const server = await startServer('pglite', env);
    cleanup.push(() => server.stop());
    const finished = () => readdirSync(backupDir).filter((f) => f.endsWith('.dump.gz'));
    const partial = () => readdirSync(backupDir).some((f) => f.endsWith('.partial') && statSync(path.join(backupDir, f)).size > 0);
    const deadline = Date.now() + 120_000;
    while (finished().length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(finished().length).toBeGreaterThanOrEqual(1);
    // /metrics reports the last backup: its size and when it finished.
    const scraped = await (await fetch(`${server.baseUrl}/metrics`)).text();
    const bytes = /store_backup_last\{result="success",measure="bytes"\} (\d+)/.exec(scraped);
    expect(Number(bytes?.[1])).toBeGreaterThan(1000);
    expect(scraped).toMatch(/store_backup_last\{result="success",measure="finished_timestamp_seconds"\} \d+/);
    while (!partial() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(partial()).toBe(true);
    const whole = finished();
    await server.kill();
    // The half-written file is there under its temporary name; every finished backup reads to its end.
    expect(readdirSync(backupDir).some((f) => f.endsWith('.partial'))).toBe(true);
    expect(finished()).toEqual(whole);
    for (const f of whole) {
      let done = false;
      for await (const line of readDump(path.join(backupDir, f))) if (!Array.isArray(line) && 'done' in line) done = true;
      expect(done, f).toBe(true);
    }
    // The next start removes the half-written file with its next backup.
    const again = await startServer('pglite', env);
    cleanup.push(() => again.stop());
    const until = Date.now() + 60_000;
    while (existsSync(backupDir) && readdirSync(backupDir).some((f) => f.endsWith('.partial')) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    await again.stop();
    expect(finished().length).toBeGreaterThan(whole.length);
  }, 300_000);
});
