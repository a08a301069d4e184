import { z } from 'zod';
import { endpoint, json, readQuery } from '../../../../lib/server/http';

/**
 * Dev mail outbox for testers (DESIGN.md "Mail"): a JSON array, newest first, of
 * {to, subject, text, html, createdAt}; demo mode only, one recipient at a time
 * (`?to=` is required, so nobody can list everyone's codes).
 */
export const GET = endpoint(async ({ locals, url }) => {
  if (!locals.services.config.devMailboxEnabled) return json({ status: false, message: 'Not found' }, { status: 404 });
  const { to } = readQuery(url, z.object({ to: z.string({ error: 'Add ?to=EMAIL to read one recipient\'s mail' }).trim().min(3, 'Add ?to=EMAIL to read one recipient\'s mail').max(254) }));
  return json(await locals.services.outbox.list(to));
});
