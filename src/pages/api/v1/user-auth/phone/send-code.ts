import { message } from '@/lib/domain/messages';
import { phoneCodeSentNext, sendPhoneCodeSchema } from '@/lib/domain/phone-verification';
import { clientIp, requireUser } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';

/**
 * "Send code" (Verify your phone): texts a 4-digit code to the shopper's mobile number. JSON
 * answers `data: { phone }`; a plain form post goes back to `back` (a local path) with the notice, at the code field.
 */
export const POST = formEndpoint(async (ctx) => {
  const user = requireUser(ctx.locals);
  const { back } = await readInput(ctx.request, sendPhoneCodeSchema);
  const { phone } = await ctx.locals.services.phoneVerification.sendCode(user, clientIp(ctx));
  return {
    body: { status: true, statusCode: 200, message: message('phone-code-sent', phone), data: { phone } },
    next: phoneCodeSentNext(back, ctx.url.searchParams.get('back'), ctx.locals.publicOrigin),
  };
});
