import { requireStaff } from '@/lib/server/accounts/auth';
import { endpoint, json } from '@/lib/server/infra/http';

export const GET = endpoint(async ({ locals }) => {
  requireStaff(locals);
  return json({ status: true, data: await locals.services.adminReports.dashboard() });
});
