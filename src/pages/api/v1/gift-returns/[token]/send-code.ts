import { message } from '@/lib/domain/messages';
import { clientIp } from '@/lib/server/accounts/auth';
import { formEndpoint } from '@/lib/server/infra/form-posts';

/** "Send code": texts a code to the gift's recipient phone (the order's; never a number typed in). */
export const POST = formEndpoint(async (ctx) => {
  await ctx.locals.services.giftReturns.sendCode(ctx.params.token, clientIp(ctx));
  return { body: { status: true, message: message('gift-return-code-sent') }, next: `/gift-return/${ctx.params.token}#gift-return-code` };
});
