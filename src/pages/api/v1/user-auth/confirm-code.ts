import { fill } from '@/lib/domain/messages';
import { clientIp, requireSession } from '@/lib/server/accounts/auth';
import { formEndpoint } from '@/lib/server/infra/form-posts';

/**
 * Mails the signed-in user a 4-digit code to confirm it is them (a data download, an account's
 * deletion, staff answering a data request). A plain form goes back to `?back=` with the notice.
 */
export const POST = formEndpoint(async (ctx) => {
  const session = requireSession(ctx.locals);
  await ctx.locals.services.privacy.sendCode(session, clientIp(ctx));
  return { body: { status: true, statusCode: 200, message: fill('confirm-code-sent', session.user.email) } };
});
