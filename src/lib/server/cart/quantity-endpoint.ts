import { changeQuantitySchema } from '@/lib/domain/cart-input';
import { failureText, message } from '@/lib/domain/messages';
import { assertSameUser, requireUser } from '@/lib/server/accounts/auth';
import { cartNoticeParams, formEndpoint, readInput } from '@/lib/server/infra/form-posts';

/**
 * The cart's minus and plus endpoints (api/v1/cart/decrease-quantity and update-quantity): the signed-in
 * shopper's own line, body.quantity the new quantity (without it, one less or one more), then the cart.
 */
export function changeQuantityEndpoint(direction: 'increase' | 'decrease') {
  return formEndpoint(
    async ({ locals, request }) => {
      const user = requireUser(locals);
      const input = await readInput(request, changeQuantitySchema);
      assertSameUser(user, input.userId);
      const data = await locals.services.cart.changeQuantity(user, input, direction, locals.market);
      return { body: { status: true, message: message('quantity-updated'), data }, next: '/cart', nextParams: cartNoticeParams(data) };
    },
    { failure: (reason) => failureText('quantity-update-failed', reason) },
  );
}
