import { resetPasswordSchema } from '@/lib/domain/accounts';
import { clientIp } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { message } from '@/lib/domain/messages';

export const POST = formEndpoint(async (ctx) => {
  const { email, otp, newPassword } = await readInput(ctx.request, resetPasswordSchema);
  await ctx.locals.services.accounts.resetPassword(email, otp, newPassword, clientIp(ctx));
  return { body: { status: true, statusCode: 200, message: message('password-reset') }, next: '/login' };
});
