import { changeQuantitySchema } from '../../../../lib/domain/cart-input';
import { assertSameUser, requireUser } from '../../../../lib/server/auth';
import { endpoint, json, readJson } from '../../../../lib/server/http';

/** Sets a line's quantity (body.quantity is the new quantity; without it, one more). */
export const PATCH = endpoint(async ({ locals, request }) => {
  const user = requireUser(locals);
  const input = await readJson(request, changeQuantitySchema);
  assertSameUser(user, input.userId);
  const data = await locals.services.cart.changeQuantity(user, input, 'increase');
  return json({ status: true, message: 'Quantity updated', data });
});
