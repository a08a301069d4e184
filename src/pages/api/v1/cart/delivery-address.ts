import { deliveryAddressChoiceSchema } from '@/lib/domain/cart-input';
import { message } from '@/lib/domain/messages';
import { requireUser } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';

/**
 * Delivers the shopper's next order to one of their saved addresses (`{ addressId }`), without
 * making it their default; '' or null goes back to the default. Answers the cart as now priced; a
 * plain form post goes on to checkout.
 */
export const POST = formEndpoint(async ({ locals, request }) => {
  const user = requireUser(locals);
  const { addressId } = await readInput(request, deliveryAddressChoiceSchema);
  const data = await locals.services.cart.chooseDeliveryAddress(user, addressId, locals.market);
  return { body: { status: true, message: message('delivery-address-chosen'), data }, next: '/place-order' };
});
