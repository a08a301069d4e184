import { assertSameUser, requireUser } from '@/lib/server/accounts/auth';
import { endpoint, json } from '@/lib/server/infra/http';

export const GET = endpoint(async ({ locals, params }) => {
  const user = requireUser(locals);
  assertSameUser(user, params.userId);
  const list = await locals.services.addresses.list(user.id);
  return json({ status: true, statusCode: 200, message: 'Addresses fetched successfully', list });
});
