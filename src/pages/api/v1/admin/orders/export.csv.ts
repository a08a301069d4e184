import { orderFilterSchema } from '@/lib/domain/admin';
import { requireStaff } from '@/lib/server/accounts/auth';
import { csvDownload, endpoint, readQuery, streamed } from '@/lib/server/infra/http';

/** Export CSV: every order matching the list's filters. */
export const GET = endpoint(async ({ locals, url }) => {
  requireStaff(locals);
  return streamed(locals.services.orders.exportCsv(readQuery(url, orderFilterSchema)), csvDownload('orders.csv'));
});
