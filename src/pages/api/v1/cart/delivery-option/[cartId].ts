import { deliveryOptionSchema, lockerField } from '@/lib/domain/cart-input';
import { requireUser } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { parseWith } from '@/lib/server/infra/http';
import { keyParam } from '@/lib/domain/validation';
import { message } from '@/lib/domain/messages';

export const PUT = formEndpoint(
  async ({ locals, request, params }) => {
    const user = requireUser(locals);
    // `pickupPoint` is the locker's former name, still read from clients that send it.
    const input = await readInput(request, deliveryOptionSchema.extend({ locker: lockerField, pickupPoint: lockerField }));
    const { deliveryOption, deliverySpeed } = input;
    const locker = input.locker ?? input.pickupPoint;
    const cartId = parseWith(keyParam(message('cart-not-found')), params.cartId);
    const data = await locals.services.cart.setDeliveryOption(user, cartId, deliveryOption, locals.market, deliverySpeed);
    // The checkout without scripts: a PUDO locker chosen comes back with the page, which prices it (the order keeps it only once placed).
    const next = deliveryOption === 'delivery' && locker ? `/place-order?locker=${encodeURIComponent(locker)}` : '/place-order';
    return { body: { status: true, message: message('delivery-updated'), data }, next };
  },
  { failure: () => message('delivery-update-failed') },
);
/** HTML forms can only POST: the checkout's Delivery / Pickup choice without scripts. */
export const POST = PUT;
