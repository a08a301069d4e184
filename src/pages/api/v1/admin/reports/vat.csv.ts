import { requireStaff } from '@/lib/server/accounts/auth';
import { csvDownload, endpoint, streamed } from '@/lib/server/infra/http';

/** Every document of the VAT report's period, one row each: number, kind, date, order, net, VAT, gross. */
export const GET = endpoint(async ({ locals, url }) => {
  requireStaff(locals);
  const query = Object.fromEntries(url.searchParams);
  const q = locals.services.books.vatReport.parse(query);
  return streamed(locals.services.books.vatReport.csv(q), csvDownload(`vat-${q.market}-${q.from}-${q.to}.csv`));
});
