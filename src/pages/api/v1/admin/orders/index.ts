import { orderFilterSchema } from '@/lib/domain/admin';
import { requireStaff } from '@/lib/server/accounts/auth';
import { endpoint, json, readQuery } from '@/lib/server/infra/http';

export const GET = endpoint(async ({ locals, url }) => {
  requireStaff(locals);
  return json({ status: true, data: await locals.services.orders.adminList(readQuery(url, orderFilterSchema)) });
});
