import { formatMoney, toMajor, type CurrencyCode } from '@/lib/domain/money';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint } from '@/lib/server/infra/form-posts';
import { parseWith } from '@/lib/server/infra/http';
import { keyParam } from '@/lib/domain/validation';
import { message } from '@/lib/domain/messages';

/** Refunds a payment from the refund queue in full, through the provider (never twice). */
export const POST = formEndpoint(async ({ locals, params }) => {
  const user = requireStaff(locals);
  const r = await locals.services.orderRefunds.refundPayment(parseWith(keyParam(message('payment-unknown')), params.reference), asActor(user));
  const money = (minor: number) => formatMoney(toMajor(minor), r.currency as CurrencyCode);
  return {
    body: { status: true, message: r.refundedNowMinor > 0 ? `Refunded ${money(r.refundedNowMinor)}` : message('already-refunded'), data: { ...r, refunded: toMajor(r.refundedMinor) } },
    next: '/admin/orders',
  };
});
