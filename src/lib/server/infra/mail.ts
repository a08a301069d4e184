import { desc, eq, ilike, lt, or } from 'drizzle-orm';
import { STORE_NAME } from '@/lib/domain/brand';
import type { Config } from './config';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { mailOutbox } from '@/lib/server/infra/tables';
import type { Logger } from './log';
import { escapeHtml } from '@/lib/domain/html';
import { maskEmail } from '@/lib/domain/gift-returns';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra header fields (List-Unsubscribe); sent by SMTP, not kept by the dev outbox. */
  headers?: Record<string, string>;
}

export interface OutboxEntry extends Omit<MailMessage, 'headers'> {
  createdAt: string;
}

/** Sends store mail: by SMTP when SMTP_URL is set, otherwise into the dev outbox (and the log). */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export function createMailer({ config, db, log }: { config: Config; db: Db; log: Logger }): Mailer {
  if (config.SMTP_URL) {
    const smtpUrl = config.SMTP_URL;
    let transport: Promise<import('nodemailer').Transporter> | undefined;
    return {
      async send(message) {
        transport ??= import('nodemailer').then((m) => m.default.createTransport(smtpUrl));
        const sent = (await (await transport).sendMail({ from: config.MAIL_FROM, ...message })) as { messageId?: string };
        // Never the subject or body (they carry one-time codes), nor the address: the mail's id, the address masked.
        log.info('mail sent', { messageId: sent.messageId ?? null, to: maskEmail(message.to) });
      },
    };
  }
  return {
    async send({ to, subject, text, html }) {
      const [stored] = await db.insert(mailOutbox).values({ to, subject, text, html }).returning({ id: mailOutbox.id });
      // Never the subject or body (they carry one-time codes), nor the address; /dev/mailbox shows the mail in demo mode.
      log.info('mail stored in dev outbox', { mailId: stored?.id ?? null, to: maskEmail(to) });
    },
  };
}

export function createOutboxReader({ db }: { db: Db }) {
  return {
    /** Newest first. */
    async list(to?: string, limit = 50): Promise<OutboxEntry[]> {
      const rows = await db
        .select()
        .from(mailOutbox)
        .where(to ? eq(mailOutbox.to, to.trim().toLowerCase()) : undefined)
        .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
        .limit(limit);
      return rows.map((r) => ({ to: r.to, subject: r.subject, text: r.text, html: r.html, createdAt: r.createdAt.toISOString() }));
    },
  };
}

/** Wraps a message body in the store's simple, mail-client-safe HTML frame. */
/** A mail's one call to action, as a dark button (mail clients read no stylesheet). */
export function mailButton(href: string, label: string): string {
  return `<p style="margin:24px 0"><a href="${escapeHtml(href)}" style="background:#1b1b1b;color:#fff;padding:12px 20px;text-decoration:none">${escapeHtml(label)}</a></p>`;
}

export function mailHtml(title: string, bodyHtml: string): string {
  return `<!doctype html><html><body style="margin:0;background:#f6f3ee;font-family:Georgia,serif;color:#1b1b1b">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="background:#fff;max-width:560px">
<tr><td style="padding:24px 32px;border-bottom:1px solid #e8e2d8;font-size:20px;letter-spacing:4px;text-transform:uppercase">${STORE_NAME}</td></tr>
<tr><td style="padding:32px;font-family:Arial,sans-serif;font-size:15px;line-height:1.6"><h1 style="font-family:Georgia,serif;font-weight:normal;font-size:22px;margin:0 0 16px">${title}</h1>${bodyHtml}</td></tr>
<tr><td style="padding:16px 32px;border-top:1px solid #e8e2d8;font-family:Arial,sans-serif;font-size:12px;color:#6b6b6b">${STORE_NAME} · Luxury fashion for Lagos, Abuja, Johannesburg and Cape Town</td></tr>
</table></td></tr></table></body></html>`;
}

export { escapeHtml };

/** A 4-digit code as the code mails show it: large, spaced, bold (mail clients know no CSS variables). */
export function codeHtml(code: string): string {
  return `<p style="font-size:32px;letter-spacing:10px;font-weight:bold;margin:16px 0">${escapeHtml(code)}</p>`;
}

/** An account's deletion deletes the kept mails sent to its e-mail, or naming it (a staff copy). */
export async function eraseMailsOf(tx: Db | Tx, email: string): Promise<void> {
  const named = `%${email.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  await tx
    .delete(mailOutbox)
    .where(or(eq(mailOutbox.to, email), ilike(mailOutbox.subject, named), ilike(mailOutbox.text, named), ilike(mailOutbox.html, named)));
}

/** Retention: deletes the outbox's mails written before `cutoff`; answers how many. */
export async function purgeMailOutboxBefore(db: Db, cutoff: Date): Promise<number> {
  const gone = await db.delete(mailOutbox).where(lt(mailOutbox.createdAt, cutoff)).returning({ id: mailOutbox.id });
  return gone.length;
}
