import { returnRequestSchema } from '@/lib/domain/after-sales-input';
import { message } from '@/lib/domain/messages';
import { keyParam } from '@/lib/domain/validation';
import { requireUser } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { parseWith } from '@/lib/server/infra/http';

/**
 * "Return or exchange" on the shopper's own delivered order, within its 3-day window: JSON
 * (`items: [{ orderItemId, quantity, exchangeVariantId? }]`, reason, resolution, method) or the
 * request page's plain form, answered 303 to the order's page with the confirmation.
 */
export const POST = formEndpoint(async ({ locals, request, params }) => {
  const user = requireUser(locals);
  const orderId = parseWith(keyParam(message('order-not-found')), params.id);
  const input = await readInput(request, returnRequestSchema);
  const ret = await locals.services.returns.request(user.id, orderId, input);
  return { status: 201, body: { status: true, message: message('return-requested'), data: ret }, next: `/order-details/${orderId}` };
});
