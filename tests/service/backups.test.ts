import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/lib/server/infra/db/client';
import { DumpError, storeRows, tableCounts } from '@/lib/server/operations/dump';
import { restoreBackup, StoreNotEmpty, writeBackup } from '@/lib/server/operations/dump-files';
import { growStore } from '@/lib/server/demo/seed-scale';
import { createBackups } from '@/lib/server/operations/backups';
import { createLogger } from '@/lib/server/infra/log';
import { createFreshDatabase } from '../support/pg';
import { DRIVERS, servicesFor, type Driver } from '../support/services';

const rowsOf = <T>(res: unknown): T[] => (res as { rows: T[] }).rows;

/** An empty store of the driver (not even migrated: the restore builds its schema). */
async function emptyStore(driver: Driver): Promise<{ database: Database; url?: string; close(): Promise<void> }> {
  if (driver === 'pglite') {
    const database = await openDatabase({ dataDir: 'memory://', migrate: false });
    return { database, close: () => database.close() };
  }
  const fresh = await createFreshDatabase('store_restore');
  const database = await openDatabase({ databaseUrl: fresh.url, dataDir: 'memory://', migrate: false });
  return {
    database,
    url: fresh.url,
    async close() {
      await database.close();
      await fresh.drop();
    },
  };
}

async function expectSameStore(a: Database, b: Database) {
  const here = await tableCounts(a.db);
  const there = await tableCounts(b.db);
  expect([...there.keys()].sort()).toEqual([...here.keys()].sort());
  for (const [name, count] of here) expect({ name, ...there.get(name) }).toEqual({ name, ...count });
}

for (const driver of DRIVERS) {
  describe(`backups on ${driver}`, () => {
    let ctx: Awaited<ReturnType<typeof servicesFor>>;
    let dir: string;
    beforeAll(async () => {
      ctx = await servicesFor(driver);
      // The demo store with orders: 400 paid orders of 60 shoppers on the seeded catalogue.
      const [p] = rowsOf<{ n: number }>(await ctx.services.db.execute(sql`select count(*)::int as n from products`));
      await growStore(ctx.services.db, { products: Number(p!.n), customers: 60, orders: 400 });
      dir = mkdtempSync(path.join(tmpdir(), 'backups-'));
    }, 180_000);
    afterAll(async () => {
      await ctx?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('restores its own dump into an empty store (PGlite and PostgreSQL), every table the same rows and checksum', async () => {
      const backup = await writeBackup(ctx.database, { dir, format: 'logical' });
      expect(path.basename(backup.file)).toMatch(/^maison-\d{8}T\d{6}Z\.dump\.gz$/);
      expect(backup.summary!.tables.find((t) => t.name === 'orders')!.rows).toBeGreaterThanOrEqual(400);
      expect(backup.summary!.tables.find((t) => t.name === 'media')!.rows).toBeGreaterThan(0);
      for (const into of DRIVERS) {
        const target = await emptyStore(into);
        try {
          await restoreBackup(target.database, { file: backup.file, databaseUrl: target.url, force: false });
          await expectSameStore(ctx.database, target.database);
          // The sequences go on where the source's were: a new row gets a fresh id.
          const [src] = rowsOf<{ v: string }>(await ctx.services.db.execute(sql`select last_value::text as v from pg_sequences where sequencename = 'order_items_id_seq'`));
          const [dst] = rowsOf<{ v: string }>(await target.database.db.execute(sql`select last_value::text as v from pg_sequences where sequencename = 'order_items_id_seq'`));
          expect(dst!.v).toBe(src!.v);
          // Restored rollup rows are the source's, not counted again by the triggers while loading.
          const [totals] = rowsOf<{ n: string }>(await target.database.db.execute(sql`select coalesce(sum(orders), 0)::text as n from order_daily_totals`));
          const [orders] = rowsOf<{ n: string }>(await target.database.db.execute(sql`select count(*)::text as n from orders`));
          expect(totals!.n).toBe(orders!.n);
          // A second restore into the now full store is refused, unless forced.
          await expect(restoreBackup(target.database, { file: backup.file, databaseUrl: target.url, force: false })).rejects.toBeInstanceOf(StoreNotEmpty);
          await ctx.services.db.execute(sql`select 1`);
          await restoreBackup(target.database, { file: backup.file, databaseUrl: target.url, force: true });
          await expectSameStore(ctx.database, target.database);
        } finally {
          await target.close();
        }
      }
    }, 240_000);

    it('refuses a dump cut short and leaves the store empty', async () => {
      const backup = await writeBackup(ctx.database, { dir, format: 'logical' });
      const text = gunzipSync(readFileSync(backup.file)).toString();
      const cut = path.join(dir, 'cut.dump.gz');
      writeFileSync(cut, gzipSync(text.slice(0, Math.floor(text.length * 0.6)).replace(/\n[^\n]*$/, '\n')));
      const target = await emptyStore(driver);
      try {
        await expect(restoreBackup(target.database, { file: cut, databaseUrl: target.url, force: false })).rejects.toBeInstanceOf(DumpError);
        expect(await storeRows(target.database.db)).toBe(0);
      } finally {
        await target.close();
      }
    }, 120_000);

    it('refuses a gzip file cut off mid-stream, through the restore command too: its message, no stack trace, nothing loaded', async () => {
      const backup = await writeBackup(ctx.database, { dir, format: 'logical' });
      const bytes = readFileSync(backup.file);
      const cut = path.join(dir, 'cut-bytes.dump.gz');
      writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
      const target = await emptyStore(driver);
      try {
        await expect(restoreBackup(target.database, { file: cut, databaseUrl: target.url, force: false })).rejects.toThrow(/^the dump is cut short/);
        expect(await storeRows(target.database.db)).toBe(0);
      } finally {
        await target.close();
      }
      if (driver !== 'pglite') return;
      const dataDir = mkdtempSync(path.join(tmpdir(), 'restore-cut-'));
      try {
        const run = spawnSync('npx', ['tsx', 'scripts/restore.ts', cut], { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' }, encoding: 'utf8', timeout: 120_000 });
        expect(run.status, run.stderr).toBe(1);
        expect(run.stderr.trim()).toBe('restore refused: the dump is cut short (its compressed data ends early): it was not written to the end');
        expect(run.stderr).not.toMatch(/Z_BUF_ERROR|\n\s+at /);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }, 180_000);

    if (driver === 'pg') {
      it('backs PostgreSQL up through pg_dump (custom format) and restores it with pg_restore', async () => {
        const backup = await writeBackup(ctx.database, { dir, databaseUrl: ctx.services.config.DATABASE_URL });
        expect(backup.format).toBe('pg_dump');
        expect(readFileSync(backup.file).subarray(0, 5).toString()).toBe('PGDMP');
        const target = await emptyStore('pg');
        try {
          await restoreBackup(target.database, { file: backup.file, databaseUrl: target.url, force: false });
          await expectSameStore(ctx.database, target.database);
        } finally {
          await target.close();
        }
      }, 120_000);
    }

    it('scheduled: one per period, the oldest beyond BACKUP_KEEP deleted, a killed run\'s partial file removed', async () => {
      const own = mkdtempSync(path.join(tmpdir(), 'scheduled-'));
      try {
        let now = Date.parse('2026-11-22T10:00:00Z');
        const clock = () => new Date(now);
        const backups = createBackups({ database: ctx.database, clock, log: createLogger('silent'), settings: { everyHours: 6, dir: own, keep: 2, databaseUrl: ctx.services.config.DATABASE_URL } });
        writeFileSync(path.join(own, '.maison-20261122T040000Z.dump.gz.partial'), 'half a backup');
        const first = await backups.takeOne();
        expect(first).toMatchObject({ ran: true, ok: true });
        expect(await backups.takeOne()).toMatchObject({ ran: false });
        for (let i = 0; i < 2; i++) {
          now += 6 * 3_600_000;
          expect(await backups.takeOne()).toMatchObject({ ran: true, ok: true });
        }
        const files = readdirSync(own).sort();
        expect(files).toHaveLength(2);
        expect(files.every((f) => /^maison-20261122T(16|22)0000Z\.(dump\.gz|pgdump)$/.test(f))).toBe(true);
      } finally {
        rmSync(own, { recursive: true, force: true });
      }
    }, 120_000);
  });
}
