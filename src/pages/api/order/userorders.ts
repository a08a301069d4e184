import { requireUser } from '@/lib/server/accounts/auth';
import { endpoint, json } from '@/lib/server/infra/http';

/**
 * Legacy call of the older /orders screen: POST with an empty body and a `token` header
 * (the session cookie or a bearer token work too). Answers {success, orders}.
 */
export const POST = endpoint(async ({ locals, request }) => {
  const legacyToken = request.headers.get('token');
  const session = locals.session ?? (legacyToken ? await locals.services.sessions.resolve(legacyToken) : null);
  const user = requireUser({ ...locals, session });
  const orders = await locals.services.orders.listForUser(user.id);
  return json({ success: true, status: true, orders });
});
