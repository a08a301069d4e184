import { mkdirSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { and, desc, eq, gt } from 'drizzle-orm';
import type { Database } from '@/lib/server/infra/db/client';
import { backupRuns } from '@/lib/server/operations/tables';
import { BACKUP_PREFIX, isBackupName, writeBackup } from '@/lib/server/operations/dump-files';
import { INSTANCE_ID } from '../infra/instance';
import { runExclusively, scheduleJob, type ScheduledJob } from '../infra/jobs';
import type { Logger } from '../infra/log';

/** The advisory lock that lets one app server at a time take a backup ("MLBK"). */
export const BACKUP_LOCK_KEY = 0x4d4c424b;

export interface BackupSettings {
  everyHours: number;
  dir: string;
  keep: number;
  databaseUrl?: string | undefined;
}

export type BackupOutcome = { ran: false; reason: string } | { ran: true; ok: boolean; file?: string; bytes?: number; ms: number };

/**
 * Scheduled backups inside the store: one app server at a time (an advisory lock on PostgreSQL;
 * PGlite is one process), and none when another server finished one within the period. Each run
 * is recorded in backup_runs (this module is its only writer), which /metrics reads. Files are
 * written beside their final name and renamed when complete (dump-files.ts), so a server killed
 * mid-backup leaves the earlier backups as they were; its `.partial` file is removed by the next run.
 */
export function createBackups(deps: { database: Database; clock: () => Date; log: Logger; settings: BackupSettings }) {
  const { database, clock, log, settings } = deps;
  const db = database.db;

  function tidy(): void {
    const names = readdirSync(settings.dir);
    for (const name of names) {
      if (name.startsWith(`.${BACKUP_PREFIX}`) && name.endsWith('.partial')) unlinkSync(path.join(settings.dir, name));
    }
    const finished = names.filter(isBackupName).sort();
    for (const name of finished.slice(0, Math.max(0, finished.length - settings.keep))) unlinkSync(path.join(settings.dir, name));
  }

  async function takeOne(): Promise<BackupOutcome> {
    const since = new Date(clock().getTime() - settings.everyHours * 3_600_000 * 0.9);
    const [recent] = await db
      .select({ at: backupRuns.finishedAt })
      .from(backupRuns)
      .where(and(eq(backupRuns.ok, true), gt(backupRuns.finishedAt, since)))
      .limit(1);
    if (recent) return { ran: false, reason: 'a backup was taken within the period' };
    mkdirSync(settings.dir, { recursive: true });
    tidy();
    const startedAt = clock();
    try {
      const result = await writeBackup(database, { dir: settings.dir, databaseUrl: settings.databaseUrl, now: startedAt, onWarn: (m) => log.warn(m) });
      await db.insert(backupRuns).values({
        startedAt,
        finishedAt: clock(),
        ok: true,
        file: result.file,
        format: result.format,
        bytes: result.bytes,
        ms: result.ms,
        instance: INSTANCE_ID,
      });
      tidy();
      log.info('backup written', { file: result.file, format: result.format, bytes: result.bytes, ms: result.ms });
      return { ran: true, ok: true, file: result.file, bytes: result.bytes, ms: result.ms };
    } catch (err) {
      const ms = clock().getTime() - startedAt.getTime();
      await db.insert(backupRuns).values({ startedAt, finishedAt: clock(), ok: false, ms, error: (err as Error).message.slice(0, 2000), instance: INSTANCE_ID });
      log.error('backup failed', { err });
      return { ran: true, ok: false, ms };
    }
  }

  const lock = { lockKey: BACKUP_LOCK_KEY, useAdvisoryLock: database.driver === 'pg', name: 'backup', log };
  return {
    takeOne: (): Promise<BackupOutcome> => runExclusively(db, lock, takeOne, () => ({ ran: false, reason: 'another server is taking one' })),
  };
}

/** The last good backup and the last failure, whichever server took them (/metrics). */
export async function lastBackups(db: Database['db']) {
  const last = async (ok: boolean) => (await db.select().from(backupRuns).where(eq(backupRuns.ok, ok)).orderBy(desc(backupRuns.finishedAt)).limit(1))[0];
  return { success: await last(true), failure: await last(false) };
}
export type Backups = ReturnType<typeof createBackups>;

/** Starts scheduled backups when BACKUP_EVERY_HOURS is set (called once from boot()). */
export function startBackups(deps: {
  database: Database;
  clock: () => Date;
  log: Logger;
  config: { BACKUP_EVERY_HOURS: number; BACKUP_DIR: string; BACKUP_KEEP: number; DATABASE_URL?: string | undefined };
}): ScheduledJob | undefined {
  const { config } = deps;
  if (!config.BACKUP_EVERY_HOURS) return undefined;
  const settings = { everyHours: config.BACKUP_EVERY_HOURS, dir: path.resolve(config.BACKUP_DIR), keep: config.BACKUP_KEEP, databaseUrl: config.DATABASE_URL };
  try {
    mkdirSync(settings.dir, { recursive: true });
    statSync(settings.dir);
  } catch (err) {
    deps.log.error('BACKUP_DIR cannot be used: no scheduled backups', { err });
    return undefined;
  }
  const backups = createBackups({ ...deps, settings });
  return scheduleJob(() => backups.takeOne(), { log: deps.log, everyMinutes: config.BACKUP_EVERY_HOURS * 60, name: 'backup' });
}
