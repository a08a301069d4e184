import { clientIp, requireUser } from '@/lib/server/accounts/auth';
import { formEndpoint } from '@/lib/server/infra/form-posts';
import { message } from '@/lib/domain/messages';

/** Sends a new step-up code to the signed-in staff user (at most once a minute). */
export const POST = formEndpoint(async (ctx) => {
  const user = requireUser(ctx.locals);
  await ctx.locals.services.staff.resendDeviceCode(user, clientIp(ctx));
  return { body: { status: true, message: message('device-code-resent') } };
});
