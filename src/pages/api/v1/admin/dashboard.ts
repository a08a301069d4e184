import { requireStaff } from '../../../../lib/server/auth';
import { endpoint, json } from '../../../../lib/server/http';

export const GET = endpoint(async ({ locals }) => {
  requireStaff(locals);
  return json({ status: true, data: await locals.services.adminReports.dashboard() });
});
