import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { ImportProblem, ImportSummary } from '@/lib/domain/catalogue-import';
import type { Actor } from '@/lib/server/backoffice/audit';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { dueRow, leaseOf, type LeasedTable } from '@/lib/server/infra/leased-work';
import { catalogueImports } from '@/lib/server/catalogue/tables';

/** The imports' rows: the one writer of `catalogue_imports`. */

export type ImportRunStatus = (typeof catalogueImports.$inferSelect)['status'];

const LEASED: LeasedTable = {
  table: catalogueImports,
  id: catalogueImports.id,
  status: catalogueImports.status,
  nextAttemptAt: catalogueImports.nextAttemptAt,
  leaseUntil: catalogueImports.leaseUntil,
  attempts: catalogueImports.attempts,
  updatedAt: catalogueImports.updatedAt,
};

/** What the pages and the API show of an import (never its bytes). */
const shown = {
  id: catalogueImports.id,
  fileName: catalogueImports.fileName,
  status: catalogueImports.status,
  actorEmail: catalogueImports.actorEmail,
  rows: catalogueImports.rows,
  progressDone: catalogueImports.progressDone,
  progressTotal: catalogueImports.progressTotal,
  errors: catalogueImports.errors,
  summary: catalogueImports.summary,
  createdAt: catalogueImports.createdAt,
  checkedAt: catalogueImports.checkedAt,
  appliedAt: catalogueImports.appliedAt,
};

export interface ImportView {
  id: string;
  fileName: string;
  status: ImportRunStatus;
  actorEmail: string;
  rows: number;
  progressDone: number;
  progressTotal: number;
  errors: ImportProblem[];
  summary: ImportSummary | null;
  createdAt: Date;
  checkedAt: Date | null;
  appliedAt: Date | null;
}

export type ClaimedImport = typeof catalogueImports.$inferSelect;

export function createImportRows(db: Db) {
  return {
    async create(input: { fileName: string; actor: Actor; csv: Uint8Array; images: Uint8Array | null; rows: number; now: Date }): Promise<string> {
      const [row] = await db
        .insert(catalogueImports)
        .values({ fileName: input.fileName, actorId: input.actor.id, actorEmail: input.actor.email, csv: input.csv, images: input.images, rows: input.rows, status: 'checking', nextAttemptAt: input.now, createdAt: input.now, updatedAt: input.now })
        .returning({ id: catalogueImports.id });
      return row!.id;
    },

    /** Takes the next import due (checking or applying) with a lease, or null. */
    async claim(now: Date, leaseMs: number): Promise<ClaimedImport | null> {
      for (const status of ['applying', 'checking'] as const) {
        const [row] = await db.update(catalogueImports).set(leaseOf(catalogueImports, now, leaseMs)).where(inArray(catalogueImports.id, dueRow(db, LEASED, status, now))).returning();
        if (row) return row;
      }
      return null;
    },

    async progress(id: string, done: number, total: number): Promise<void> {
      await db.update(catalogueImports).set({ progressDone: done, progressTotal: total }).where(eq(catalogueImports.id, id));
    },

    /** The check's outcome: checked (no problems) or rejected, with what applying would change. */
    async checked(id: string, outcome: { errors: ImportProblem[]; summary: ImportSummary | null; imageHashes: Record<string, string>; now: Date }): Promise<void> {
      await db
        .update(catalogueImports)
        .set({ status: outcome.errors.length ? 'rejected' : 'checked', errors: outcome.errors, summary: outcome.summary, imageHashes: outcome.imageHashes, checkedAt: outcome.now, updatedAt: outcome.now, leaseUntil: null })
        .where(eq(catalogueImports.id, id));
    },

    /** A checked file without problems goes to the worker to be applied; answers false for any other. */
    async requestApply(id: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(catalogueImports)
        .set({ status: 'applying', nextAttemptAt: now, attempts: 0, leaseUntil: null, updatedAt: now })
        .where(and(eq(catalogueImports.id, id), eq(catalogueImports.status, 'checked'), sql`jsonb_array_length(${catalogueImports.errors}) = 0`))
        .returning({ id: catalogueImports.id });
      return rows.length === 1;
    },

    /** Applied, in the transaction that applied it. */
    async applied(tx: Tx, id: string, summary: ImportSummary, now: Date): Promise<void> {
      await tx.update(catalogueImports).set({ status: 'applied', summary, appliedAt: now, updatedAt: now, leaseUntil: null, progressDone: sql`${catalogueImports.progressTotal}` }).where(eq(catalogueImports.id, id));
    },

    /** The apply's checks found problems the catalogue has since gained: nothing was written. */
    async rejectedOnApply(id: string, errors: ImportProblem[], now: Date): Promise<void> {
      await db.update(catalogueImports).set({ status: 'rejected', errors, updatedAt: now, leaseUntil: null }).where(eq(catalogueImports.id, id));
    },

    /** Given up after its attempts (nothing applied); or tried again later while attempts remain. */
    async failedAttempt(id: string, attempts: number, maxAttempts: number, now: Date, problem: ImportProblem): Promise<void> {
      const last = attempts >= maxAttempts;
      await db
        .update(catalogueImports)
        .set(last ? { status: 'failed', errors: [problem], updatedAt: now, leaseUntil: null } : { nextAttemptAt: new Date(now.getTime() + 10_000), leaseUntil: null, updatedAt: now })
        .where(eq(catalogueImports.id, id));
    },

    async get(id: string): Promise<ImportView | null> {
      const [row] = await db.select(shown).from(catalogueImports).where(eq(catalogueImports.id, id)).limit(1);
      return (row as ImportView | undefined) ?? null;
    },

    /** The file and who uploaded it, for the worker. */
    async file(id: string): Promise<Pick<ClaimedImport, 'csv' | 'images' | 'fileName' | 'actorId' | 'actorEmail'> | null> {
      const [row] = await db
        .select({ csv: catalogueImports.csv, images: catalogueImports.images, fileName: catalogueImports.fileName, actorId: catalogueImports.actorId, actorEmail: catalogueImports.actorEmail })
        .from(catalogueImports)
        .where(eq(catalogueImports.id, id))
        .limit(1);
      return row ?? null;
    },

    async imageHashes(id: string): Promise<Record<string, string>> {
      const [row] = await db.select({ h: catalogueImports.imageHashes }).from(catalogueImports).where(eq(catalogueImports.id, id)).limit(1);
      return (row?.h as Record<string, string> | null) ?? {};
    },

    async recent(limit = 20): Promise<ImportView[]> {
      return (await db.select(shown).from(catalogueImports).orderBy(desc(catalogueImports.createdAt), desc(catalogueImports.id)).limit(limit)) as ImportView[];
    },
  };
}
export type ImportRows = ReturnType<typeof createImportRows>;
