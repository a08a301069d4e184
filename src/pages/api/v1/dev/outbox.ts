import { z } from 'zod';
import { text } from '@/lib/domain/validation';
import { endpoint, json, readQuery } from '@/lib/server/infra/http';

const MISSING_TO = 'Add ?to=EMAIL to read one recipient\'s mail';

/**
 * Dev mail outbox for testers (DESIGN.md "Mail"): a JSON array, newest first, of
 * {to, subject, text, html, createdAt}; demo mode only, one recipient at a time
 * (`?to=` is required, so nobody can list everyone's codes).
 */
export const GET = endpoint(async ({ locals, url }) => {
  if (!locals.services.config.devMailboxEnabled) return json({ status: false, message: 'Not found' }, { status: 404 });
  const { to } = readQuery(url, z.object({ to: z.string({ error: MISSING_TO }).pipe(text('to', 254).min(3, MISSING_TO)) }));
  return json(await locals.services.outbox.list(to));
});
