import { z } from 'zod';
import { endpoint, json, readQuery } from '../../../../lib/server/http';

/** Dev mail outbox for testers (DESIGN.md "Mail"): newest first; off in production unless STORE_DEV_MAILBOX=true. */
export const GET = endpoint(async ({ locals, url }) => {
  if (!locals.services.config.devMailboxEnabled) return json({ status: false, message: 'Not found' }, { status: 404 });
  const { to } = readQuery(url, z.object({ to: z.string().trim().max(254).optional() }));
  const data = await locals.services.outbox.list(to || undefined);
  return json({ status: true, data });
});
