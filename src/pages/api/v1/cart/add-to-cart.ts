import { addToCartSchema } from '../../../../lib/domain/cart-input';
import { assertSameUser, requireUser } from '../../../../lib/server/auth';
import { endpoint, json, readJson } from '../../../../lib/server/http';

/** Adds a product x colour x size; a client price is ignored: the server prices the line. */
export const POST = endpoint(async ({ locals, request }) => {
  const user = requireUser(locals);
  const input = await readJson(request, addToCartSchema);
  assertSameUser(user, input.userId);
  const data = await locals.services.cart.add(user, input);
  return json({ status: true, message: 'Product added to cart successfully!', data });
});
