import { lineKeySchema } from '../../../../lib/domain/cart-input';
import { assertSameUser, requireUser } from '../../../../lib/server/auth';
import { endpoint, json, readJson } from '../../../../lib/server/http';

export const DELETE = endpoint(async ({ locals, request }) => {
  const user = requireUser(locals);
  const input = await readJson(request, lineKeySchema);
  assertSameUser(user, input.userId);
  const data = await locals.services.cart.remove(user, input);
  return json({ status: true, message: 'Item removed', data });
});
