import { creditGrantSchema } from '@/lib/domain/after-sales-input';
import { message } from '@/lib/domain/messages';
import { toMajor } from '@/lib/domain/money';
import { keyParam } from '@/lib/domain/validation';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { parseWith } from '@/lib/server/infra/http';

/** Staff grant or remove store credit: `{ amount, currency, reason }`, amount in major units, negative to remove (audited, the shopper mailed; never below zero). */
export const POST = formEndpoint(async ({ locals, request, params }) => {
  const user = requireStaff(locals);
  const customerId = parseWith(keyParam(message('customer-not-found')), params.id);
  const input = await readInput(request, creditGrantSchema);
  const { balanceMinor } = await locals.services.storeCredit.grant(asActor(user), customerId, { amountMinor: input.amount, currency: input.currency, reason: input.reason });
  return { body: { status: true, message: message('credit-updated'), data: { currency: input.currency, balance: toMajor(balanceMinor) } }, next: `/admin/customers/${customerId}` };
});
