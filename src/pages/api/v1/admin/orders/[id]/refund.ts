import { refundSchema } from '@/lib/domain/admin';
import { Invalid } from '@/lib/domain/errors';
import { formatMoney, toMajor, toMinor, type CurrencyCode } from '@/lib/domain/money';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { parseWith } from '@/lib/server/infra/http';
import { keyParam } from '@/lib/domain/validation';
import { message } from '@/lib/domain/messages';

/**
 * Refunds an order's payment through the provider: all that is left, `amount` (major units), or
 * `line` + `quantity` (what was paid for those units of that line, its discount share taken off).
 */
export const POST = formEndpoint(async ({ locals, request, params }) => {
  const user = requireStaff(locals);
  const { amount, refundedBefore, line, quantity } = await readInput(request, refundSchema);
  if (line !== undefined && amount !== undefined) throw new Invalid(message('refund-amount-or-line'));
  const r = await locals.services.orderRefunds.refund(parseWith(keyParam(message('order-not-found')), params.id), amount === undefined ? undefined : toMinor(amount), asActor(user), {
    refundedBefore,
    ...(line !== undefined ? { line: { position: line, quantity: quantity ?? 1 } } : {}),
  });
  const money = (minor: number) => formatMoney(toMajor(minor), r.currency as CurrencyCode);
  const text = r.refundedNowMinor > 0 ? `Refunded ${money(r.refundedNowMinor)} (${money(r.refundedMinor)} of ${money(r.amountMinor)} in all)` : message('already-refunded');
  return {
    body: { status: true, message: text, data: { ...r, amount: toMajor(r.amountMinor), refunded: toMajor(r.refundedMinor), refundedNow: toMajor(r.refundedNowMinor) } },
    next: `/admin/orders/${params.id}`,
  };
});
