import { requireStaff } from '../../../../../../lib/server/auth';
import { keyParam } from '../../../../../../lib/domain/validation';
import { endpoint, json, parseWith } from '../../../../../../lib/server/http';

export const GET = endpoint(async ({ locals, params }) => {
  requireStaff(locals);
  return json({ status: true, data: await locals.services.orders.adminDetail(parseWith(keyParam('Order not found'), params.id)) });
});
