import { statusChangeSchema } from '@/lib/domain/admin';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { parseWith } from '@/lib/server/infra/http';
import { keyParam } from '@/lib/domain/validation';
import { message } from '@/lib/domain/messages';

/** Moves the order along the allowed transitions (e-mails the shopper; cancelling returns the stock and owes back what was paid online, to `refundTo`). */
export const POST = formEndpoint(async ({ locals, request, params }) => {
  const user = requireStaff(locals);
  const { status, deliveredOn, refundTo } = await readInput(request, statusChangeSchema);
  const { order, from } = await locals.services.orders.setStatus(parseWith(keyParam(message('order-not-found')), params.id), status, asActor(user), { deliveredOn, refundTo });
  return {
    body: { status: true, message: status === 'cancelled' ? message('order-cancelled') : message('order-now', order.status), data: { from, to: order.status } },
    next: `/admin/orders/${order.id}`,
  };
});
