import { z } from 'zod';
import { deliveryOptionField } from '@/lib/domain/cart-input';
import { failureText } from '@/lib/domain/messages';
import { text } from '@/lib/domain/validation';
import { requireUser } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';

/** email and amount are accepted for old clients and ignored: the payer is the session user, the amount comes from the cart. */
const initiateSchema = z.object({
  email: z.unknown().optional(),
  amount: z.unknown().optional(),
  callbackUrl: z.preprocess((v) => (v === '' || v === null ? undefined : v), text('callbackUrl', 500).optional()),
  /** The checkout form sends the Delivery / Pickup choice with PAY & PLACE ORDER. */
  deliveryOption: deliveryOptionField.optional(),
});

/** JSON for the island and API clients; the checkout's plain form post is sent on to the provider's page (303). */
export const POST = formEndpoint(
  async ({ locals, request }) => {
    const user = requireUser(locals);
    const input = await readInput(request, initiateSchema);
    const data = await locals.services.checkout.initiate(user, {
      callbackUrl: input.callbackUrl,
      deliveryOption: input.deliveryOption,
      market: locals.market,
      site: locals.publicOrigin,
    });
    return { body: { status: 'success', message: 'Authorization URL created', data }, location: data.authorization_url };
  },
  { failure: (reason) => failureText('payment-init-failed', reason) },
);
