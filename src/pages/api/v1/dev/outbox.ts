import { z } from 'zod';
import { text } from '@/lib/domain/validation';
import { endpoint, json, readQuery } from '@/lib/server/infra/http';

const MISSING_TO = 'Add ?to=EMAIL to read one recipient\'s mail';
/**
 * A phone number in international form: `+2348031234567`, or the same with its + read as a space
 * (an unencoded + in a query string) or left out.
 */
const PHONE = /^\+?\d{8,15}$/;

/**
 * Dev outbox for testers (docs/accounts.md): a JSON array, newest first, of
 * {to, subject, text, html, createdAt} for an e-mail address, or of {to, text, createdAt} (text
 * messages) and {to, text, createdAt, channel: 'whatsapp', template, params} (WhatsApp messages)
 * for a phone number in E.164; demo mode only, one recipient at a time (`?to=` is
 * required, so nobody can list everyone's codes).
 */
export const GET = endpoint(async ({ locals, url }) => {
  if (!locals.services.config.devMailboxEnabled) return json({ status: false, message: 'Not found' }, { status: 404 });
  const { to } = readQuery(url, z.object({ to: z.string({ error: MISSING_TO }).pipe(text('to', 254).min(3, MISSING_TO)) }));
  if (PHONE.test(to)) return json(await locals.services.textOutbox.listAll(`+${to.replace(/^\+/, '')}`));
  return json(await locals.services.outbox.list(to));
});
