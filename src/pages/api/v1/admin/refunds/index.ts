import { refundsQuerySchema } from '@/lib/domain/admin';
import { toMajor } from '@/lib/domain/money';
import { requireStaff } from '@/lib/server/accounts/auth';
import { endpoint, json, readQuery } from '@/lib/server/infra/http';

/** Refunds the store owes or has paid (newest first, amounts in major units), with the provider's last answer. */
export const GET = endpoint(async ({ locals, url }) => {
  requireStaff(locals);
  const rows = await locals.services.owedRefunds.list(readQuery(url, refundsQuerySchema));
  return json({ status: true, data: rows.map(({ amountMinor, ...r }) => ({ ...r, amount: toMajor(amountMinor) })) });
});
