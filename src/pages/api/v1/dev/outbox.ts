import { z } from 'zod';
import { endpoint, json, readQuery } from '../../../../lib/server/http';

/**
 * Dev mail outbox for testers (DESIGN.md "Mail"): a JSON array, newest first, of
 * {to, subject, text, html, createdAt}; off in production unless STORE_DEV_MAILBOX=true.
 */
export const GET = endpoint(async ({ locals, url }) => {
  if (!locals.services.config.devMailboxEnabled) return json({ status: false, message: 'Not found' }, { status: 404 });
  const { to } = readQuery(url, z.object({ to: z.string().trim().max(254).optional() }));
  return json(await locals.services.outbox.list(to || undefined));
});
