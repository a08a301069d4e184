import { pageQuerySchema } from '@/lib/domain/admin';
import { requireStaff } from '@/lib/server/accounts/auth';
import { endpoint, json, readQuery } from '@/lib/server/infra/http';

/** The audit log: owners only. */
export const GET = endpoint(async ({ locals, url }) => {
  requireStaff(locals, { owner: true });
  const { page, after, before } = readQuery(url, pageQuerySchema);
  return json({ status: true, data: await locals.services.audit.list({ page, after, before }) });
});
