import { assertSameUser, requireUser } from '@/lib/server/accounts/auth';
import { endpoint, json } from '@/lib/server/infra/http';

export const GET = endpoint(async ({ locals, params }) => {
  const user = requireUser(locals);
  assertSameUser(user, params.userId);
  const data = await locals.services.cart.view(user, locals.market);
  return json({ status: true, message: 'Cart found', data });
});
