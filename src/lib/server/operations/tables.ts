import { bigint, boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** The operations feature's tables: only its modules write them, each table by its owner in eslint/table-owners.js (lint rule house/table-writes). */

/**
 * Every scheduled backup (src/lib/server/operations/backups.ts, its only writer): when, where, how big,
 * how long, or why it failed. /metrics reports the last ones; the scheduler skips a run when
 * another app server already took one within the period.
 */
export const backupRuns = pgTable(
  'backup_runs',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }).notNull(),
    ok: boolean('ok').notNull(),
    /** The file written (on the machine that took it), null when it failed. */
    file: text('file'),
    format: text('format'),
    bytes: bigint('bytes', { mode: 'number' }),
    ms: integer('ms').notNull(),
    error: text('error'),
    /** The app server that took it (its instance id). */
    instance: text('instance').notNull(),
  },
  (t) => [index('backup_runs_finished_idx').on(t.ok, t.finishedAt)],
);
