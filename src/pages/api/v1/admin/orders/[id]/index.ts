import { requireStaff } from '../../../../../../lib/server/auth';
import { endpoint, json } from '../../../../../../lib/server/http';

export const GET = endpoint(async ({ locals, params }) => {
  requireStaff(locals);
  return json({ status: true, data: await locals.services.orders.adminDetail(params.id ?? '') });
});
