import { z } from 'zod';
import { message } from '@/lib/domain/messages';
import { apiOrder } from '@/lib/domain/orders';
import { keyParam } from '@/lib/domain/validation';
import { requireUser } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { parseWith } from '@/lib/server/infra/http';

/**
 * "Cancel order" (the shopper's own pending order): the stock returns, and what was paid online
 * is refunded. JSON for the island and API clients; a plain form post goes back to the order's page.
 */
export const POST = formEndpoint(async ({ locals, request, params }) => {
  const user = requireUser(locals);
  // The form sends only its CSRF field; a JSON body, if any, carries nothing either.
  await readInput(request, z.object({}).passthrough());
  const id = parseWith(keyParam(message('order-not-found')), params.id);
  const order = await locals.services.orders.cancelByShopper(user.id, id);
  return { body: { status: true, message: message('order-cancelled-by-shopper'), data: apiOrder(order) }, next: `/order-details/${order.id}` };
});
