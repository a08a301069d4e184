import { and, eq, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '@/lib/server/infra/db/client';
import { scheduleJob, type ScheduledJob } from '@/lib/server/infra/jobs';
import type { Logger } from '@/lib/server/infra/log';

/**
 * Work every app server shares through rows of a table (refunds owed, shipments to book): a worker
 * claims one due row at a time with FOR UPDATE SKIP LOCKED and a lease, so two never take the same
 * row at once, and a worker that dies leaves its lease to run out and the row is taken again. The
 * work itself is keyed by the row's id, so taking a row again finishes what was started instead of
 * doing it twice (ADR 0024, ADR 0032). The table's owner writes the claim itself
 * (`update(t).set(leaseOf(…)).where(inArray(t.id, dueRow(…)))`), so each table keeps its one writer.
 */

/** The columns a leased table has (names may differ; their meaning may not). */
export interface LeasedTable {
  table: PgTable;
  id: PgColumn;
  status: PgColumn;
  nextAttemptAt: PgColumn;
  leaseUntil: PgColumn;
  attempts: PgColumn;
  updatedAt: PgColumn;
}

/**
 * The next due row in `dueStatus` (its next attempt reached, no live lease), locked and skipping
 * rows another worker holds: a subquery for the owner's update, which takes it with `leaseOf`.
 */
export function dueRow(db: Db, t: LeasedTable, dueStatus: string, now: Date) {
  return db
    .select({ id: t.id })
    .from(t.table)
    .where(and(eq(t.status, dueStatus), sql`${t.nextAttemptAt} <= ${now}`, sql`(${t.leaseUntil} is null or ${t.leaseUntil} <= ${now})`))
    .orderBy(t.nextAttemptAt)
    .limit(1)
    .for('update', { skipLocked: true });
}

/** What a claim writes on the row it takes: a lease of `leaseMs` from `now`, and one more attempt. */
export function leaseOf(t: Pick<LeasedTable, 'attempts'>, now: Date, leaseMs: number) {
  return { leaseUntil: new Date(now.getTime() + leaseMs), attempts: sql<number>`${t.attempts} + 1`, updatedAt: now };
}

/** Waits before attempt `attempts + 1`: `firstMs`, then doubling, at most `maxMs`. */
export function backoffMs(attempts: number, { firstMs, maxMs }: { firstMs: number; maxMs: number }): number {
  return Math.min(firstMs * 2 ** Math.max(0, attempts - 1), maxMs);
}

/** Claims and works due rows one at a time, at most `limit`; returns how many `work` called done. */
export async function runClaimed<R>(claim: () => Promise<R | null>, work: (row: R) => Promise<boolean>, limit: number): Promise<number> {
  let done = 0;
  for (let i = 0; i < limit; i++) {
    const row = await claim();
    if (row === null) break;
    if (await work(row)) done++;
  }
  return done;
}

/**
 * The worker every server runs: each run works through `jobs` in order (refunds owed, shipments to
 * book, couriers to poll), every few seconds; a failing job is logged and the next still runs.
 */
export function startWorker(jobs: Record<string, () => Promise<unknown>>, { log, everySeconds = 5 }: { log: Logger; everySeconds?: number }): ScheduledJob {
  return scheduleJob(
    async () => {
      for (const [name, run] of Object.entries(jobs)) {
        await run().catch((err: unknown) => log.error(`${name} failed`, { err }));
      }
    },
    { log, everyMinutes: everySeconds / 60, name: 'worker' },
  );
}
