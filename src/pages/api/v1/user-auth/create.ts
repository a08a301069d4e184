import { registerSchema } from '@/lib/domain/accounts';
import { clientIp } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { message } from '@/lib/domain/messages';

export const POST = formEndpoint(async (ctx) => {
  const input = await readInput(ctx.request, registerSchema);
  const user = await ctx.locals.services.accounts.register(input, clientIp(ctx));
  return {
    body: { status: true, statusCode: 201, message: message('registered'), data: { user } },
    status: 201,
    next: '/verify-otp',
    nextParams: { email: user.email },
  };
});
