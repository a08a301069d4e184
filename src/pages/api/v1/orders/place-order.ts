import { z } from 'zod';
import { keyParam, text } from '@/lib/domain/validation';
import { Forbidden } from '@/lib/domain/errors';
import { assertSameUser, requireUser } from '@/lib/server/accounts/auth';
import { endpoint, json, readJson } from '@/lib/server/infra/http';
import { message } from '@/lib/domain/messages';
import { apiOrder } from '@/lib/domain/orders';

const placeOrderSchema = z.object({
  paymentReference: keyParam(message('payment-not-found')).pipe(text('paymentReference', 100).min(1, message('payment-not-found'))),
  cartId: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.string().max(64).optional()),
  userId: z.string().max(64).optional(),
});

export const POST = endpoint(async ({ locals, request }) => {
  const user = requireUser(locals);
  const input = await readJson(request, placeOrderSchema);
  assertSameUser(user, input.userId);
  if (input.cartId) {
    const { cartId } = await locals.services.cart.price(user, locals.market);
    if (cartId !== input.cartId) throw new Forbidden(message('cart-other-account'));
  }
  const { order, created } = await locals.services.payments.fulfil(input.paymentReference, { userId: user.id });
  return json({ status: true, message: message('order-placed'), data: apiOrder(order), created });
});
