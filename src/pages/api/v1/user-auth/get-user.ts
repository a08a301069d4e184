import { userIdQuerySchema } from '@/lib/domain/accounts';
import { assertSameUser, requireUser } from '@/lib/server/accounts/auth';
import { endpoint, json, readQuery } from '@/lib/server/infra/http';

export const GET = endpoint(async ({ locals, url }) => {
  const user = requireUser(locals);
  assertSameUser(user, readQuery(url, userIdQuerySchema).userId);
  const data = await locals.services.accounts.getUser(user);
  return json({ status: true, statusCode: 200, message: 'User found', data });
});
