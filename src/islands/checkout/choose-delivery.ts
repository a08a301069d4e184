import { api } from '@/lib/client/api';
import { sendAndShow } from '@/lib/client/forms';
import type { CartQuote } from '@/lib/domain/checkout-totals';
import type { ApiDeliveryOption, DeliverySpeedId } from '@/lib/domain/shipping';
import { TOASTS } from '@/lib/domain/toasts';
import type { Checkout } from './store';

interface Priced {
  status: boolean;
  data: { deliveryFee: number; totalFee: number; subtotal: number; quote: CartQuote };
}

/**
 * Delivery or pickup, and a delivery's speed: shown at once, priced by the server
 * (PUT /api/v1/cart/delivery-option/{cartId}), undone when it refuses.
 */
export async function chooseDelivery(checkout: Checkout, next: ApiDeliveryOption, nextSpeed?: DeliverySpeedId): Promise<void> {
  const { cart, option, speed } = checkout.$checkout.get();
  const toSpeed = nextSpeed ?? speed;
  if (next === option && toSpeed === speed) return;
  const previous = { option, speed };
  checkout.deliveryChosen(next, toSpeed);
  let priced = false;
  await sendAndShow<Priced>(
    () => api(`/cart/delivery-option/${encodeURIComponent(cart.id)}`, { method: 'PUT', body: { deliveryOption: next, deliverySpeed: toSpeed } }),
    {
      failed: TOASTS['delivery-update-failed'],
      toastId: 'delivery-option',
      onSuccess: ({ data }) => {
        priced = true;
        const now = checkout.$checkout.get().cart;
        checkout.deliveryPriced({ ...now, deliveryOption: next, deliverySpeed: toSpeed, deliveryFee: data.deliveryFee, total: data.totalFee, subtotal: data.subtotal, quote: data.quote });
        return { toast: null };
      },
      onFailure: () => checkout.deliveryPriced(null, previous),
      refusal: () => TOASTS['delivery-update-failed'],
    },
  );
  if (!priced) checkout.deliveryPriced(null);
}
