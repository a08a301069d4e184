import { addToCartSchema } from '@/lib/domain/cart-input';
import { assertSameUser, requireUser } from '@/lib/server/accounts/auth';
import { pieceUrl } from '@/lib/server/accounts/after-sign-in';
import { formEndpoint, readInput, wantsPage } from '@/lib/server/infra/form-posts';
import { message } from '@/lib/domain/messages';

/**
 * Adds a product x colour x size; a client price is ignored: the server prices the line.
 * JSON for the island and API clients; the product page's plain form post goes on to /cart.
 * Signed out, the plain form post keeps the choice and goes to /login: signing in (or
 * registering) puts the piece in the bag and comes back to it.
 */
export const POST = formEndpoint(async (ctx) => {
  const { locals, request } = ctx;
  if (!locals.session?.user && wantsPage(request)) {
    const { productId, color = null, size = null } = await readInput(request, addToCartSchema);
    return locals.services.afterSignIn.signInFirst(ctx, { kind: 'cart', productId, color, size, back: pieceUrl(productId, color, size) }, 'login-required');
  }
  const user = requireUser(locals, message('login-required'));
  const input = await readInput(request, addToCartSchema);
  assertSameUser(user, input.userId);
  const data = await locals.services.cart.add(user, input, locals.market);
  return { body: { status: true, message: message('cart-added'), data }, next: '/cart' };
});
