import { message } from '@/lib/domain/messages';
import { phoneVerifiedNext, verifyPhoneSchema } from '@/lib/domain/phone-verification';
import { clientIp, requireUser } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';

/**
 * "Verify" (Verify your phone): `{ code }`, the texted code. JSON answers `data: { phone,
 * phoneVerified: true }`; a plain form post goes back to `back` (a local path) with the notice.
 */
export const POST = formEndpoint(async (ctx) => {
  const user = requireUser(ctx.locals);
  const { code, back } = await readInput(ctx.request, verifyPhoneSchema);
  const { phone } = await ctx.locals.services.phoneVerification.verify(user, code, clientIp(ctx));
  return {
    body: { status: true, statusCode: 200, message: message('phone-verified'), data: { phone, phoneVerified: true } },
    next: phoneVerifiedNext(back, ctx.url.searchParams.get('back'), ctx.locals.publicOrigin),
  };
});
