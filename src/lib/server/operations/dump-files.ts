import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, createReadStream, createWriteStream, fsyncSync, openSync, readSync, renameSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { createGunzip, createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { knownMigrations, migrateDatabase, type Database } from '../infra/db/client';
import { appliedMigrations, DumpError, dumpStore, loadStore, storeRows, type DumpHeader, type DumpLine, type DumpSummary, type LoadSummary } from './dump';

/**
 * Backup files: the store's own logical dump (gzip'd JSON lines, any store) or pg_dump's custom
 * format (PostgreSQL, when a pg_dump as new as the server is installed). Either is written to a
 * hidden `.partial` file beside its final name, flushed to disk and renamed, so a backup killed
 * halfway never replaces or looks like a finished one.
 */

export type BackupFormat = 'logical' | 'pg_dump';
export const BACKUP_PREFIX = 'maison-';
const EXTENSIONS: Record<BackupFormat, string> = { logical: '.dump.gz', pg_dump: '.pgdump' };

export function backupName(at: Date, format: BackupFormat): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${BACKUP_PREFIX}${stamp}${EXTENSIONS[format]}`;
}

/** A finished backup's name (never a `.partial`). */
export function isBackupName(name: string): boolean {
  return name.startsWith(BACKUP_PREFIX) && Object.values(EXTENSIONS).some((ext) => name.endsWith(ext));
}

const run = promisify(execFile);

/** pg_dump's major version, or null when it is not installed. */
async function pgDumpMajor(): Promise<number | null> {
  try {
    const { stdout } = await run('pg_dump', ['--version']);
    const m = /(\d+)(?:\.\d+)?/.exec(stdout);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** Whether this machine's pg_dump can dump the server (it must be at least the server's major version), and why not. */
export async function pgDumpUsable(database: Database): Promise<{ ok: boolean; reason: string }> {
  const mine = await pgDumpMajor();
  if (mine === null) return { ok: false, reason: 'pg_dump is not installed' };
  const result = await database.db.execute(sql`select current_setting('server_version_num')::int / 10000 as major`);
  const server = Number((result as unknown as { rows: { major: number }[] }).rows[0]?.major);
  if (mine < server) return { ok: false, reason: `pg_dump ${mine} is older than the server (${server})` };
  return { ok: true, reason: `pg_dump ${mine}, server ${server}` };
}

function fsyncPath(p: string): void {
  const fd = openSync(p, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export interface BackupResult {
  file: string;
  format: BackupFormat;
  bytes: number;
  ms: number;
  summary?: DumpSummary;
}

/**
 * Writes one backup of the whole store into `dir` and returns it. PostgreSQL goes through pg_dump
 * (custom format) unless `format: 'logical'` is asked for or pg_dump cannot be used; PGlite always
 * through the logical dump.
 */
export async function writeBackup(
  database: Database,
  opts: { dir: string; databaseUrl?: string | undefined; format?: BackupFormat; now?: Date; onWarn?: (msg: string) => void },
): Promise<BackupResult> {
  const started = Date.now();
  let format: BackupFormat = opts.format ?? (database.driver === 'pg' ? 'pg_dump' : 'logical');
  if (format === 'pg_dump') {
    const usable = database.driver === 'pg' && opts.databaseUrl ? await pgDumpUsable(database) : { ok: false, reason: 'PGlite has no server for pg_dump' };
    if (!usable.ok) {
      opts.onWarn?.(`${usable.reason}: writing the store's own logical dump instead`);
      format = 'logical';
    }
  }
  const file = path.join(opts.dir, backupName(opts.now ?? new Date(), format));
  const partial = path.join(opts.dir, `.${path.basename(file)}.partial`);
  let summary: DumpSummary | undefined;
  try {
    if (format === 'pg_dump') {
      await run('pg_dump', ['--format=custom', '--compress=6', '--no-owner', `--file=${partial}`, `--dbname=${opts.databaseUrl}`], { maxBuffer: 16 * 1024 * 1024 });
    } else {
      summary = await writeLogical(database, partial);
    }
    fsyncPath(partial);
    renameSync(partial, file);
    fsyncPath(opts.dir);
  } catch (err) {
    try {
      unlinkSync(partial);
    } catch {
      // nothing was written
    }
    throw err;
  }
  return { file, format, bytes: statSync(file).size, ms: Date.now() - started, ...(summary ? { summary } : {}) };
}

async function writeLogical(database: Database, file: string): Promise<DumpSummary> {
  const gzip = createGzip({ level: 6 });
  const out = createWriteStream(file);
  gzip.pipe(out);
  const finished = once(out, 'finish');
  const failed = new Promise<never>((_, reject) => {
    gzip.on('error', reject);
    out.on('error', reject);
  });
  const write = async (line: DumpLine) => {
    if (!gzip.write(JSON.stringify(line) + '\n')) await Promise.race([once(gzip, 'drain'), failed]);
  };
  const summary = await Promise.race([dumpStore(database.db, database.driver, write), failed]);
  gzip.end();
  await Promise.race([finished, failed]);
  return summary;
}

/**
 * A logical dump file's lines, in order. A gzip stream that ends early (a copy cut off) is the dump
 * cut short, refused as one; the file's own read errors stay what they are.
 */
export async function* readDump(file: string): AsyncGenerator<DumpLine> {
  const gunzip = createGunzip();
  const source = createReadStream(file);
  source.on('error', (err) => gunzip.destroy(err));
  const lines = createInterface({ input: source.pipe(gunzip), crlfDelay: Infinity });
  const failed = new Promise<never>((_, reject) => gunzip.on('error', reject));
  failed.catch(() => undefined);
  const iterator = lines[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), failed]);
      if (next.done) break;
      if (next.value) yield JSON.parse(next.value) as DumpLine;
    }
  } catch (err) {
    const code = zlibCode(err);
    if (code === 'Z_BUF_ERROR') throw new DumpError('the dump is cut short (its compressed data ends early): it was not written to the end');
    if (code) throw new DumpError(`the dump's compressed data is damaged (${code}): it cannot be read`);
    throw err;
  } finally {
    lines.close();
    source.destroy();
  }
}

/** The zlib error code (Z_…) of a failed gunzip, else null. */
function zlibCode(err: unknown): string | null {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('Z_') ? code : null;
}

function fileFormat(file: string): BackupFormat {
  const fd = openSync(file, 'r');
  const head = Buffer.alloc(5);
  try {
    readSync(fd, head, 0, 5, 0);
  } finally {
    closeSync(fd);
  }
  if (head.toString('latin1') === 'PGDMP') return 'pg_dump';
  if (head[0] === 0x1f && head[1] === 0x8b) return 'logical';
  throw new DumpError(`${file} is neither a store dump nor a pg_dump custom-format file`);
}

export class StoreNotEmpty extends Error {}

/**
 * Gets `target` ready to take a logical dump made at `migrations`: refused when it holds rows
 * (unless `force`), its schema rebuilt when it was migrated to another point, then migrated to
 * exactly the dump's migrations, which must be the source tree's first ones.
 */
export async function prepareTarget(target: Database, migrations: string[], force: boolean): Promise<void> {
  const known = knownMigrations();
  if (migrations.some((h, i) => known[i] !== h)) {
    throw new DumpError('the dump was made by another version of the store (its migrations are not this version\'s first ones): restore it with that version, then upgrade');
  }
  const applied = await appliedMigrations(target.db);
  if (applied.length > 0 && !force) {
    const rows = await storeRows(target.db);
    if (rows > 0) throw new StoreNotEmpty(`the target store is not empty (${rows} rows); restoring would replace them: add --force to do that`);
  }
  const same = applied.length === migrations.length && applied.every((h, i) => migrations[i] === h);
  if (!same && applied.length > 0) {
    await target.db.execute(sql`drop schema if exists drizzle cascade`);
    await target.db.execute(sql`drop schema public cascade`);
    await target.db.execute(sql`create schema public`);
  }
  await migrateDatabase(target, migrations.length);
}

/**
 * Restores a backup file into `target`. A logical dump goes into PGlite or PostgreSQL, checked
 * table by table; a pg_dump file only into PostgreSQL (pg_restore). The store is then migrated to
 * this version.
 */
export async function restoreBackup(
  target: Database,
  opts: { file: string; databaseUrl?: string | undefined; force: boolean; onTable?: (name: string, rows: number) => void },
): Promise<{ format: BackupFormat; ms: number; load?: LoadSummary }> {
  const started = Date.now();
  const format = fileFormat(opts.file);
  if (format === 'pg_dump') {
    if (target.driver !== 'pg' || !opts.databaseUrl) throw new DumpError('a pg_dump backup restores into PostgreSQL only (set DATABASE_URL); PGlite takes the store\'s own dump (npm run backup -- --format logical)');
    if (!opts.force && (await appliedMigrations(target.db)).length > 0) {
      const rows = await storeRows(target.db);
      if (rows > 0) throw new StoreNotEmpty(`the target store is not empty (${rows} rows); restoring would replace them: add --force to do that`);
    }
    await pgRestore(opts.file, opts.databaseUrl);
    await migrateDatabase(target);
    return { format, ms: Date.now() - started };
  }
  const load = await loadStore(target.db, readDump(opts.file), {
    beforeLoad: (header: DumpHeader) => prepareTarget(target, header.migrations, opts.force),
    ...(opts.onTable ? { onTable: opts.onTable } : {}),
  });
  await migrateDatabase(target);
  return { format, ms: Date.now() - started, load };
}

async function pgRestore(file: string, databaseUrl: string): Promise<void> {
  const child = spawn('pg_restore', ['--clean', '--if-exists', '--no-owner', '--exit-on-error', '--single-transaction', `--dbname=${databaseUrl}`, file], {
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const [code] = (await once(child, 'close')) as [number];
  if (code !== 0) throw new DumpError(`pg_restore failed (exit ${code}): ${stderr.trim().slice(-2000)}`);
}

/**
 * A bounded hand-over between a dump being read and a load being written (db:move): the reader
 * waits while `capacity` lines are still unread.
 */
export function channel<T>(capacity = 4096) {
  const items: T[] = [];
  let closed = false;
  let failure: unknown;
  let wakeReader: (() => void) | undefined;
  let wakeWriter: (() => void) | undefined;
  const wake = (w: (() => void) | undefined) => w?.();
  return {
    async push(item: T): Promise<void> {
      while (items.length >= capacity && !closed) await new Promise<void>((r) => (wakeWriter = r));
      if (closed) throw failure ?? new Error('the load stopped');
      items.push(item);
      wake(wakeReader);
    },
    close(err?: unknown) {
      closed = true;
      failure = err;
      wake(wakeReader);
      wake(wakeWriter);
    },
    async *[Symbol.asyncIterator](): AsyncGenerator<T> {
      for (;;) {
        if (items.length > 0) {
          yield items.shift()!;
          wake(wakeWriter);
        } else if (closed) {
          if (failure) throw failure;
          return;
        } else {
          await new Promise<void>((r) => (wakeReader = r));
        }
      }
    },
  };
}
