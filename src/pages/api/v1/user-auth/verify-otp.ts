import { verifyOtpSchema } from '@/lib/domain/accounts';
import { clientIp } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { message } from '@/lib/domain/messages';

export const POST = formEndpoint(async (ctx) => {
  const { email, otp } = await readInput(ctx.request, verifyOtpSchema);
  await ctx.locals.services.accounts.verifyEmail(email, otp, clientIp(ctx));
  return { body: { status: true, statusCode: 200, message: message('email-verified') }, next: '/login' };
});
