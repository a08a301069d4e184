import { requireStaff } from '@/lib/server/accounts/auth';
import { keyParam } from '@/lib/domain/validation';
import { endpoint, json, parseWith } from '@/lib/server/infra/http';
import { message } from '@/lib/domain/messages';

export const GET = endpoint(async ({ locals, params }) => {
  requireStaff(locals);
  return json({ status: true, data: await locals.services.orders.adminDetail(parseWith(keyParam(message('order-not-found')), params.id)) });
});
