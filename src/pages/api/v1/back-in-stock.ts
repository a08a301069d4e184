import { z } from 'zod';
import { message } from '@/lib/domain/messages';
import { clientIp } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';

const id = z.coerce.number().int().positive().max(2_147_483_647);
const askSchema = z.object({
  productId: id,
  variantId: id,
  email: z
    .string({ error: message('email-missing') })
    .trim()
    .min(1, message('email-missing'))
    .max(254, message('invalid-email'))
    .pipe(z.email({ error: message('invalid-email') })),
});

/**
 * POST {productId, variantId, email}: "Email me when it is back" for a sold-out choice, signed
 * in or not (src/lib/server/catalogue/back-in-stock.ts: double opt-in, a confirm mail). The answer
 * is the same whether or not the address asked before. JSON for the island; a plain form post goes
 * back to the product page with the notice (or the error).
 */
export const POST = formEndpoint(async (ctx) => {
  const { request, locals } = ctx;
  const ask = await readInput(request, askSchema);
  await locals.services.backInStock.request(ask, ask.email, { market: locals.market, site: locals.publicOrigin, clientIp: clientIp(ctx) });
  return { status: 202, body: { status: true, message: message('back-in-stock-sent') }, next: `/product/${ask.productId}` };
});
