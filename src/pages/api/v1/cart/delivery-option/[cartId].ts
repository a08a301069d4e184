import { deliveryOptionSchema } from '../../../../../lib/domain/cart-input';
import { requireUser } from '../../../../../lib/server/auth';
import { endpoint, json, readJson } from '../../../../../lib/server/http';

export const PUT = endpoint(async ({ locals, request, params }) => {
  const user = requireUser(locals);
  const { deliveryOption } = await readJson(request, deliveryOptionSchema);
  const data = await locals.services.cart.setDeliveryOption(user, params.cartId ?? '', deliveryOption);
  return json({ status: true, message: 'Delivery option updated', data });
});
