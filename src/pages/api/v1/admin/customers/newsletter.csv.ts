import { requireStaff } from '@/lib/server/accounts/auth';
import { csvDownload, endpoint } from '@/lib/server/infra/http';

/** Export CSV of the newsletter subscribers. */
export const GET = endpoint(async ({ locals }) => {
  requireStaff(locals);
  return new Response(await locals.services.newsletter.exportCsv(), csvDownload('newsletter-subscribers.csv'));
});
