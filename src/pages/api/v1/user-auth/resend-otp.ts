import { emailOnlySchema } from '../../../../lib/domain/accounts';
import { clientIp } from '../../../../lib/server/auth';
import { formEndpoint, readInput } from '../../../../lib/server/form-posts';

export const POST = formEndpoint(async (ctx) => {
  const { email } = await readInput(ctx.request, emailOnlySchema);
  await ctx.locals.services.accounts.resendVerification(email, clientIp(ctx));
  return { body: { status: true, statusCode: 200, message: 'OTP resent successfully!' }, next: '/verify-otp', nextParams: { email } };
});
