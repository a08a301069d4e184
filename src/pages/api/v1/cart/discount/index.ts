import { discountCodeSchema } from '@/lib/domain/cart-input';
import { clientIp, requireUser } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { message } from '@/lib/domain/messages';

/**
 * Applies a discount code to the shopper's cart: the cart as it is now priced, with the code's
 * discount, or 400 with the reason the code does not apply (messages.ts: code-not-valid, code-expired…); 429 with Retry-After
 * once the shopper or their address has had too many codes refused (createCodeTries). A plain form post
 * goes back to the page it came from (?back=) with ?notice= or ?error=.
 */
export const POST = formEndpoint(async (ctx) => {
  const { locals, request } = ctx;
  const user = requireUser(locals);
  const { code } = await readInput(request, discountCodeSchema);
  const data = await locals.services.cart.applyCode(user, code, locals.market, clientIp(ctx));
  return { body: { status: true, message: message('discount-applied'), data } };
});

/** Takes the code off the cart. */
export const DELETE = formEndpoint(async ({ locals }) => {
  const user = requireUser(locals);
  const data = await locals.services.cart.removeCode(user, locals.market);
  return { body: { status: true, message: message('discount-removed'), data } };
});
