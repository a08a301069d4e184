import { count, desc } from 'drizzle-orm';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { auditLog } from '@/lib/server/infra/db/schema';

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

    async list(opts: { page: number; pageSize?: number }): Promise<{ rows: AuditRow[]; total: number }> {
      const pageSize = opts.pageSize ?? 50;
      const rows = await db
        .select()
        .from(auditLog)
        .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
        .limit(pageSize)
        .offset((Math.max(1, opts.page) - 1) * pageSize);
      const [t] = await db.select({ n: count() }).from(auditLog);
      return {
        rows: rows.map((r) => ({ ...r, details: (r.details ?? {}) as Record<string, unknown> })),
        total: t?.n ?? 0,
      };
    },
  };
}
export type AuditLog = ReturnType<typeof createAuditLog>;
