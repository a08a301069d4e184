import { emailOnlySchema } from '@/lib/domain/accounts';
import { clientIp } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { message } from '@/lib/domain/messages';

export const POST = formEndpoint(async (ctx) => {
  const { email } = await readInput(ctx.request, emailOnlySchema);
  await ctx.locals.services.accounts.forgotPassword(email, clientIp(ctx));
  return {
    body: { success: true, status: true, statusCode: 200, message: message('otp-sent') },
    next: '/reset-password',
    nextParams: { email },
  };
});
