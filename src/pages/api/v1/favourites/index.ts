import { z } from 'zod';
import { assertSameUser, requireUser } from '@/lib/server/accounts/auth';
import { endpoint, json, readQuery } from '@/lib/server/infra/http';

/** The session user's favourites; ?ids=true answers just the product ids (for the hearts). */
export const GET = endpoint(async ({ locals, url }) => {
  const user = requireUser(locals);
  const query = readQuery(url, z.object({ userId: z.string().max(64).optional(), ids: z.enum(['true', 'false']).optional() }));
  assertSameUser(user, query.userId);
  if (query.ids === 'true') {
    return json({ status: true, data: { ids: await locals.services.favourites.ids(user.id) } });
  }
  const docs = await locals.services.favourites.list(user.id, locals.market);
  return json({ status: true, data: { docs } });
});
