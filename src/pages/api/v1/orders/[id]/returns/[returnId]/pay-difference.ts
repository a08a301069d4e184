import { failureText, message } from '@/lib/domain/messages';
import { keyParam } from '@/lib/domain/validation';
import { requireUser } from '@/lib/server/accounts/auth';
import { formEndpoint } from '@/lib/server/infra/form-posts';
import { parseWith } from '@/lib/server/infra/http';

/**
 * "Pay the difference" of a dearer exchange: starts an online payment for it. JSON gets
 * the provider's page (`authorization_url`); the order page's plain form is sent on to it (303).
 * The provider sends the shopper back to the order's page, which confirms the payment.
 */
export const POST = formEndpoint(
  async ({ locals, params }) => {
    const user = requireUser(locals);
    const orderId = parseWith(keyParam(message('order-not-found')), params.id);
    const returnId = parseWith(keyParam(message('return-not-found')), params.returnId);
    const data = await locals.services.returns.payDifference(user.id, orderId, returnId, locals.publicOrigin);
    return { body: { status: 'success', message: 'Authorization URL created', data }, location: data.authorization_url };
  },
  { failure: (reason) => failureText('payment-init-failed', reason) },
);
