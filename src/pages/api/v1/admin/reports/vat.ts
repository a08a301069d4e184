import { requireStaff } from '@/lib/server/accounts/auth';
import { endpoint, json } from '@/lib/server/infra/http';

/** The VAT report's totals for `?market=ZA&from=2026-11-01&to=2026-11-30`: sales, credit notes and VAT due, by rate (major units). */
export const GET = endpoint(async ({ locals, url }) => {
  requireStaff(locals);
  return json({ status: true, data: await locals.services.books.vatReport.totals(Object.fromEntries(url.searchParams)) });
});
