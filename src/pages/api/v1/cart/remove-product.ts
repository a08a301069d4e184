import { lineKeySchema } from '@/lib/domain/cart-input';
import { assertSameUser, requireUser } from '@/lib/server/accounts/auth';
import { cartNoticeParams, formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { message } from '@/lib/domain/messages';

export const DELETE = formEndpoint(
  async ({ locals, request }) => {
    const user = requireUser(locals);
    const input = await readInput(request, lineKeySchema);
    assertSameUser(user, input.userId);
    const data = await locals.services.cart.remove(user, input, locals.market);
    return { body: { status: true, message: message('cart-item-removed'), data }, next: '/cart', nextParams: cartNoticeParams(data) };
  },
  { failure: () => message('cart-remove-failed') },
);
/** HTML forms can only POST: the cart's remove button without scripts. */
export const POST = DELETE;
