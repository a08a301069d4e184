import { emailOnlySchema } from '@/lib/domain/accounts';
import { clientIp } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { message } from '@/lib/domain/messages';

export const POST = formEndpoint(async (ctx) => {
  const { email } = await readInput(ctx.request, emailOnlySchema);
  await ctx.locals.services.accounts.resendVerification(email, clientIp(ctx));
  return { body: { status: true, statusCode: 200, message: message('otp-resent') }, next: '/verify-otp', nextParams: { email } };
});
