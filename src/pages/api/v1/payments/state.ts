import { z } from 'zod';
import { requireUser } from '@/lib/server/accounts/auth';
import { endpoint, json, readQuery } from '@/lib/server/infra/http';
import { keyParam, text } from '@/lib/domain/validation';
import { message } from '@/lib/domain/messages';

const querySchema = z.object({ reference: keyParam(message('payment-not-found')).pipe(text('reference', 100).min(1, message('payment-not-found'))) });

/**
 * Where the shopper's checkout payment stands: `waiting` (a transfer the provider has not
 * confirmed), `placed` (with the order's id) or `none`. The checkout's waiting view asks it every
 * few seconds; it reads the store's record and never calls the provider.
 */
export const GET = endpoint(async ({ locals, url }) => {
  const user = requireUser(locals);
  const { reference } = readQuery(url, querySchema);
  const data = await locals.services.payments.checkoutState(reference, user.id);
  return json({ status: true, message: 'Payment state', data });
});
