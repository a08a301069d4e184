import { desc, eq, lt } from 'drizzle-orm';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { textOutbox } from '@/lib/server/infra/db/schema';
import type { Logger } from '@/lib/server/infra/log';
import type { TextSender } from './port';

/** A text as the dev outbox lists it (like mail: newest first). */
export interface TextOutboxEntry {
  to: string;
  text: string;
  createdAt: string;
}

/** Without an SMS provider, texts are kept here (and logged without their body, which may carry a code). */
export function createTextOutboxSender({ db, log }: { db: Db; log: Logger }): TextSender {
  return {
    name: 'outbox',
    async send({ to, body }) {
      await db.insert(textOutbox).values({ to, body });
      log.info('text stored in dev outbox');
      return { messageId: null };
    },
  };
}

export function createTextOutboxReader({ db }: { db: Db }) {
  return {
    /** One number's texts (E.164), newest first. */
    async list(to: string, limit = 50): Promise<TextOutboxEntry[]> {
      const rows = await db.select().from(textOutbox).where(eq(textOutbox.to, to)).orderBy(desc(textOutbox.createdAt), desc(textOutbox.id)).limit(limit);
      return rows.map((r) => ({ to: r.to, text: r.body, createdAt: r.createdAt.toISOString() }));
    },
  };
}
export type TextOutboxReader = ReturnType<typeof createTextOutboxReader>;

/** An account's deletion deletes the kept texts sent to its phone. */
export async function eraseTextsTo(tx: Db | Tx, phone: string): Promise<void> {
  if (phone) await tx.delete(textOutbox).where(eq(textOutbox.to, phone));
}

/** Retention: deletes the outbox's texts written before `cutoff`; answers how many. */
export async function purgeTextOutboxBefore(db: Db, cutoff: Date): Promise<number> {
  const gone = await db.delete(textOutbox).where(lt(textOutbox.createdAt, cutoff)).returning({ id: textOutbox.id });
  return gone.length;
}
