import { z } from 'zod';
import { assertSameUser, requireUser } from '@/lib/server/accounts/auth';
import { endpoint, json, readQuery } from '@/lib/server/infra/http';
import { apiOrder } from '@/lib/domain/orders';

const querySchema = z.object({
  userId: z.string().max(64).optional(),
  id: z.string().max(64).optional(),
});

/** ?id= one order (404 unknown, 403 another user's); otherwise the session user's orders. */
export const GET = endpoint(async ({ locals, url }) => {
  const user = requireUser(locals);
  const query = readQuery(url, querySchema);
  assertSameUser(user, query.userId);
  if (query.id) {
    const order = await locals.services.orders.getForUser(user.id, query.id);
    // Its returns and exchanges, each with its id and status.
    const returns = await locals.services.returns.forOrder(order.id);
    return json({ status: true, message: 'Order found', data: { data: { ...apiOrder(order), returns } } });
  }
  const list = await locals.services.orders.listForUser(user.id);
  return json({ status: true, message: 'Orders found', data: { data: list.map(apiOrder) } });
});
