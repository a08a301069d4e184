import { z } from 'zod';
import { deliveryOptionField, deliverySpeedField } from '@/lib/domain/cart-input';
import { failureText } from '@/lib/domain/messages';
import { text } from '@/lib/domain/validation';
import { CHECKOUT_PAYMENT_CHOICES } from '@/lib/domain/payment-methods';
import { TOASTS } from '@/lib/domain/toasts';
import { requireUser } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';

/** email and amount are accepted for old clients and ignored: the payer is the session user, the amount comes from the cart. */
const initiateSchema = z.object({
  email: z.unknown().optional(),
  amount: z.unknown().optional(),
  callbackUrl: z.preprocess((v) => (v === '' || v === null ? undefined : v), text('callbackUrl', 500).optional()),
  /** The checkout form sends the Delivery / Pickup choice with PAY & PLACE ORDER. */
  deliveryOption: deliveryOptionField.optional(),
  /** …and the delivery's speed: Express, Standard or Economy. */
  deliverySpeed: deliverySpeedField,
  /** "Payment method": Pay online (the default) or Pay on delivery. */
  paymentMethod: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.enum(CHECKOUT_PAYMENT_CHOICES).optional()),
  /** "Use my store credit": a JSON boolean, or the checkbox's value. */
  useStoreCredit: z.preprocess((v) => v === true || v === 'true' || v === 'on', z.boolean()).optional(),
});

/** JSON for the island and API clients; the checkout's plain form post is sent on to the provider's page (303). */
export const POST = formEndpoint(
  async ({ locals, request }) => {
    const user = requireUser(locals);
    const input = await readInput(request, initiateSchema);
    const data = await locals.services.checkout.initiate(user, {
      callbackUrl: input.callbackUrl,
      deliveryOption: input.deliveryOption,
      deliverySpeed: input.deliverySpeed,
      market: locals.market,
      site: locals.publicOrigin,
      paymentMethod: input.paymentMethod,
      useStoreCredit: input.useStoreCredit,
    });
    // Paid wholly on delivery or with store credit, the order is placed already: the "payment page" is the return page.
    const placed = (input.paymentMethod === 'on_delivery' || input.useStoreCredit === true) && data.amount === 0;
    return { body: { status: 'success', message: placed ? TOASTS['order-placed'] : 'Authorization URL created', data }, location: data.authorization_url };
  },
  { failure: (reason) => failureText('payment-init-failed', reason) },
);
