import { pageOf, type Page } from '@/lib/server/infra/db/paging';
import type { PageAt } from '@/lib/domain/paging';
import { count, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { auditLog } from '@/lib/server/backoffice/tables';

/** Who did a staff write: the signed-in staff user (or a command-line operator). */
export interface Actor {
  id: string | null;
  email: string;
}

export interface AuditEntry {
  action: string;
  entity: string;
  entityId?: string | number | null;
  /** A before/after summary or the input that was applied. */
  details?: Record<string, unknown>;
}

export interface AuditRow {
  id: number;
  actorEmail: string;
  action: string;
  entity: string;
  entityId: string | null;
  details: Record<string, unknown>;
  createdAt: Date;
}

/** The audit log of staff writes: the one module that writes (and reads) the audit_log table. */
export function createAuditLog({ db, clock }: { db: Db; clock: () => Date }) {
  return {
    /** Records one staff write; pass the transaction that made the change so both commit together. */
    async record(actor: Actor, entry: AuditEntry, tx: Db | Tx = db): Promise<void> {
      await tx.insert(auditLog).values({
        actorId: actor.id,
        actorEmail: actor.email,
        action: entry.action,
        entity: entry.entity,
        entityId: entry.entityId === undefined || entry.entityId === null ? null : String(entry.entityId),
        details: entry.details ?? {},
        createdAt: clock(),
      });
    },

    /** Newest first, 50 a page, paged by key (infra/db/paging.ts). */
    async list(opts: PageAt & { pageSize?: number }): Promise<Page<AuditRow>> {
      const shown = await pageOf(
        (w) => db.select().from(auditLog).where(w.where).orderBy(...w.orderBy).limit(w.limit).offset(w.offset),
        { table: auditLog, id: auditLog.id, idKind: 'int', idOf: (r) => r.id, keys: [{ column: auditLog.createdAt, desc: true }, { column: auditLog.id, desc: true }] },
        async () => (await db.select({ n: count() }).from(auditLog))[0]?.n ?? 0,
        opts,
        opts.pageSize ?? 50,
      );
      return { ...shown, rows: shown.rows.map((r) => ({ ...r, details: (r.details ?? {}) as Record<string, unknown> })) };
    },
  };
}
export type AuditLog = ReturnType<typeof createAuditLog>;

/**
 * An account's deletion: the person's e-mail, phone and name are replaced by "[erased]" wherever
 * the audit log wrote them (a staff change's summary, the record it names); who did what stays.
 */
export async function scrubAuditOf(tx: Db | Tx, identifiers: string[]): Promise<void> {
  for (const id of identifiers.filter((s) => s.length >= 3)) {
    await tx
      .update(auditLog)
      .set({
        details: sql`replace(${auditLog.details}::text, ${id}::text, '[erased]')::jsonb`,
        entityId: sql`replace(${auditLog.entityId}, ${id}::text, '[erased]')`,
        actorEmail: sql`replace(${auditLog.actorEmail}, ${id}::text, '[erased]')`,
      })
      .where(or(sql`strpos(${auditLog.details}::text, ${id}::text) > 0`, sql`strpos(coalesce(${auditLog.entityId}, ''), ${id}::text) > 0`, sql`strpos(${auditLog.actorEmail}, ${id}::text) > 0`));
  }
}
