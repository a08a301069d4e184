import { deliveryOptionSchema } from '@/lib/domain/cart-input';
import { requireUser } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { parseWith } from '@/lib/server/infra/http';
import { keyParam } from '@/lib/domain/validation';
import { message } from '@/lib/domain/messages';

export const PUT = formEndpoint(
  async ({ locals, request, params }) => {
    const user = requireUser(locals);
    const { deliveryOption, deliverySpeed } = await readInput(request, deliveryOptionSchema);
    const cartId = parseWith(keyParam(message('cart-not-found')), params.cartId);
    const data = await locals.services.cart.setDeliveryOption(user, cartId, deliveryOption, locals.market, deliverySpeed);
    return { body: { status: true, message: message('delivery-updated'), data }, next: '/place-order' };
  },
  { failure: () => message('delivery-update-failed') },
);
/** HTML forms can only POST: the checkout's Delivery / Pickup choice without scripts. */
export const POST = PUT;
