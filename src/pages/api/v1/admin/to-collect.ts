import { toCollectQuerySchema } from '@/lib/domain/collection';
import { toMajor } from '@/lib/domain/money';
import { requireStaff } from '@/lib/server/accounts/auth';
import { endpoint, json, readQuery } from '@/lib/server/infra/http';

/** The "To collect" list: pay-on-delivery orders with money still due (amounts in major units). */
export const GET = endpoint(async ({ locals, url }) => {
  requireStaff(locals);
  const list = await locals.services.collection.toCollect(readQuery(url, toCollectQuerySchema));
  return json({ status: true, data: { ...list, rows: list.rows.map((r) => ({ ...r, total: toMajor(r.totalMinor), due: toMajor(r.dueMinor) })) } });
});
