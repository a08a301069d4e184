import { addToCartSchema } from '@/lib/domain/cart-input';
import { assertSameUser, requireUser } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { message } from '@/lib/domain/messages';

/**
 * Adds a product x colour x size; a client price is ignored: the server prices the line.
 * JSON for the island and API clients; the product page's plain form post goes on to /cart.
 */
export const POST = formEndpoint(async ({ locals, request }) => {
  const user = requireUser(locals, message('login-required'));
  const input = await readInput(request, addToCartSchema);
  assertSameUser(user, input.userId);
  const data = await locals.services.cart.add(user, input, locals.market);
  return { body: { status: true, message: message('cart-added'), data }, next: '/cart' };
});
