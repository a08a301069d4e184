import { desc, eq, lt } from 'drizzle-orm';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { textOutbox, whatsappOutbox } from '@/lib/server/notifications/tables';
import type { Logger } from '@/lib/server/infra/log';
import type { TextSender, WhatsAppSender } from './port';

/** A text as the dev outbox lists it (like mail: newest first). */
export interface TextOutboxEntry {
  to: string;
  text: string;
  createdAt: string;
}

/** A WhatsApp message as the dev outbox lists it, among the number's texts. */
export interface WhatsAppOutboxEntry extends TextOutboxEntry {
  channel: 'whatsapp';
  template: string;
  params: string[];
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

/** With WHATSAPP=outbox, WhatsApp messages are kept here, listed by the dev outbox with the number's texts. */
export function createWhatsAppOutboxSender({ db, log }: { db: Db; log: Logger }): WhatsAppSender {
  return {
    name: 'outbox',
    async send({ to, template, params, body }) {
      await db.insert(whatsappOutbox).values({ to, template, params, body });
      log.info('whatsapp message stored in dev outbox', { template });
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
    /** One number's WhatsApp messages (E.164), newest first. */
    async listWhatsApp(to: string, limit = 50): Promise<WhatsAppOutboxEntry[]> {
      const rows = await db.select().from(whatsappOutbox).where(eq(whatsappOutbox.to, to)).orderBy(desc(whatsappOutbox.createdAt), desc(whatsappOutbox.id)).limit(limit);
      return rows.map((r) => ({ to: r.to, text: r.body, createdAt: r.createdAt.toISOString(), channel: 'whatsapp', template: r.template, params: r.params }));
    },
    /** Both, newest first: what the dev outbox shows for a number. */
    async listAll(to: string, limit = 50): Promise<(TextOutboxEntry | WhatsAppOutboxEntry)[]> {
      const [texts, whatsapp] = await Promise.all([this.list(to, limit), this.listWhatsApp(to, limit)]);
      return [...texts, ...whatsapp].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, limit);
    },
  };
}
export type TextOutboxReader = ReturnType<typeof createTextOutboxReader>;

/** An account's deletion deletes the kept texts and WhatsApp messages sent to its phone. */
export async function eraseTextsTo(tx: Db | Tx, phone: string): Promise<void> {
  if (!phone) return;
  await tx.delete(textOutbox).where(eq(textOutbox.to, phone));
  await tx.delete(whatsappOutbox).where(eq(whatsappOutbox.to, phone));
}

/** Retention: deletes the outbox's texts and WhatsApp messages written before `cutoff`; answers how many. */
export async function purgeTextOutboxBefore(db: Db, cutoff: Date): Promise<number> {
  const gone = await db.delete(textOutbox).where(lt(textOutbox.createdAt, cutoff)).returning({ id: textOutbox.id });
  const goneWhatsApp = await db.delete(whatsappOutbox).where(lt(whatsappOutbox.createdAt, cutoff)).returning({ id: whatsappOutbox.id });
  return gone.length + goneWhatsApp.length;
}
