import { giftReturnAccountSchema } from '@/lib/domain/gift-returns';
import { message } from '@/lib/domain/messages';
import { clientIp } from '@/lib/server/accounts/auth';
import { giftReturnProof } from '@/lib/server/aftersales/gift-return-cookie';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';

/**
 * The recipient's account, when no account holds their proven number: sign-up's fields and rules
 * (an e-mailed code confirms the address), the number and country from the order, the number verified.
 */
export const POST = formEndpoint(async (ctx) => {
  const input = await readInput(ctx.request, giftReturnAccountSchema);
  const data = await ctx.locals.services.giftReturns.createAccount(ctx.params.token, giftReturnProof(ctx.cookies), input, clientIp(ctx));
  return { status: 201, body: { status: true, statusCode: 201, message: message('gift-return-account-created'), data }, next: `/gift-return/${ctx.params.token}` };
});
