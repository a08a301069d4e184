import { sql } from 'drizzle-orm';
import type { Db } from '@/lib/server/infra/db/client';
import type { Logger } from './log';

/**
 * Background jobs that several app servers share (housekeeping, payment reconciliation): one
 * runner at a time across servers, and a schedule inside each server.
 */

/**
 * Runs `work` only if this server wins the job's PostgreSQL advisory lock (or without a lock on
 * embedded PGlite); otherwise answers `skipped()`. The lock is transaction-level: held by this
 * transaction's own connection and let go at its end, so a pool can never leave it locked. The
 * work itself runs on other connections.
 */
export async function runExclusively<T>(
  db: Db,
  opts: { lockKey: number; useAdvisoryLock: boolean; name: string; log: Logger },
  work: () => Promise<T>,
  skipped: () => T,
): Promise<T> {
  if (!opts.useAdvisoryLock) return work();
  return db.transaction(async (tx) => {
    const result = await tx.execute(sql`select pg_try_advisory_xact_lock(${sql.raw(String(opts.lockKey))}) as locked`);
    const [row] = (result as unknown as { rows: { locked: boolean }[] }).rows;
    if (!row?.locked) {
      opts.log.debug(`${opts.name} skipped: another server holds the lock`);
      return skipped();
    }
    return work();
  });
}

export interface ScheduledJob {
  stop(): void;
  /** The run in progress (tests wait for it). */
  running(): Promise<void>;
}

/**
 * Runs `run` now and then every `everyMinutes` (an unref'd timer, so it never keeps the process
 * alive); a run still going when the next is due is not doubled, and a failure is logged.
 */
export function scheduleJob(run: () => Promise<unknown>, { log, everyMinutes, name }: { log: Logger; everyMinutes: number; name: string }): ScheduledJob {
  let current: Promise<void> = Promise.resolve();
  let busy = false;
  const tick = () => {
    if (busy) return;
    busy = true;
    current = run()
      .then(() => undefined)
      .catch((err: unknown) => log.error(`${name} failed`, { err }))
      .finally(() => (busy = false));
  };
  tick();
  const timer = setInterval(tick, everyMinutes * 60_000);
  timer.unref();
  return { stop: () => clearInterval(timer), running: () => current };
}
