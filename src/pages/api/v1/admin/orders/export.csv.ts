import { orderFilterSchema } from '@/lib/domain/admin';
import { requireStaff } from '@/lib/server/accounts/auth';
import { endpoint, readQuery, streamed } from '@/lib/server/infra/http';

/** Export CSV: every order matching the list's filters. */
export const GET = endpoint(async ({ locals, url }) => {
  requireStaff(locals);
  return streamed(locals.services.orders.exportCsv(readQuery(url, orderFilterSchema)), {
    headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="orders.csv"', 'cache-control': 'no-store' },
  });
});
