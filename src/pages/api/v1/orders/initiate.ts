import { z } from 'zod';
import { requireUser } from '../../../../lib/server/auth';
import { endpoint, json, readJson } from '../../../../lib/server/http';

/** email and amount are accepted for old clients and ignored: the payer is the session user, the amount comes from the cart. */
const initiateSchema = z.object({
  email: z.unknown().optional(),
  amount: z.unknown().optional(),
  callbackUrl: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.string().max(500).optional()),
});

export const POST = endpoint(async ({ locals, request }) => {
  const user = requireUser(locals);
  const input = await readJson(request, initiateSchema);
  const data = await locals.services.checkout.initiate(user, { callbackUrl: input.callbackUrl });
  return json({ status: 'success', message: 'Authorization URL created', data });
});
