import { deliveryOptionSchema } from '../../../../../lib/domain/cart-input';
import { requireUser } from '../../../../../lib/server/auth';
import { formEndpoint, readInput } from '../../../../../lib/server/form-posts';
import { parseWith } from '../../../../../lib/server/http';
import { keyParam } from '../../../../../lib/domain/validation';

export const PUT = formEndpoint(
  async ({ locals, request, params }) => {
    const user = requireUser(locals);
    const { deliveryOption } = await readInput(request, deliveryOptionSchema);
    const data = await locals.services.cart.setDeliveryOption(user, parseWith(keyParam('Cart not found'), params.cartId), deliveryOption, locals.market);
    return { body: { status: true, message: 'Delivery option updated', data }, next: '/place-order' };
  },
  { failure: () => 'Failed to update delivery option.' },
);
/** HTML forms can only POST: the checkout's Delivery / Pickup choice without scripts. */
export const POST = PUT;
