import { changeQuantitySchema } from '@/lib/domain/cart-input';
import { assertSameUser, requireUser } from '@/lib/server/accounts/auth';
import { cartNoticeParams, formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { failureText, message } from '@/lib/domain/messages';

/** Sets a line's quantity (body.quantity is the new quantity; without it, one more). */
export const PATCH = formEndpoint(
  async ({ locals, request }) => {
    const user = requireUser(locals);
    const input = await readInput(request, changeQuantitySchema);
    assertSameUser(user, input.userId);
    const data = await locals.services.cart.changeQuantity(user, input, 'increase', locals.market);
    return { body: { status: true, message: message('quantity-updated'), data }, next: '/cart', nextParams: cartNoticeParams(data) };
  },
  { failure: (reason) => failureText('quantity-update-failed', reason) },
);
/** HTML forms can only POST: the cart's minus and plus buttons without scripts. */
export const POST = PATCH;
