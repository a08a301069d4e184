import { requireStaff } from '@/lib/server/accounts/auth';
import { endpoint } from '@/lib/server/infra/http';

/** Export CSV of the newsletter subscribers. */
export const GET = endpoint(async ({ locals }) => {
  requireStaff(locals);
  return new Response(await locals.services.newsletter.exportCsv(), {
    headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="newsletter-subscribers.csv"', 'cache-control': 'no-store' },
  });
});
