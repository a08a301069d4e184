import { message } from '@/lib/domain/messages';
import { deleteAccountInput } from '@/lib/domain/privacy';
import { isHttpsOrigin } from '@/lib/domain/public-origin';
import { clearSessionCookie, requireSession } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';

/**
 * "Delete my account" (/settings?delete=account): `{ code, giveUpCredit }`, the code mailed by
 * /api/v1/user-auth/confirm-code. The person is erased and the books kept (privacy/erasure.ts);
 * refused with the reason while an order is on its way, a return is open, or credit is left
 * without `giveUpCredit`. A plain form goes home with the notice, signed out.
 */
export const POST = formEndpoint(async (ctx) => {
  const session = requireSession(ctx.locals);
  const { code, giveUpCredit } = await readInput(ctx.request, deleteAccountInput);
  await ctx.locals.services.privacy.deleteOwnAccount(session, code, giveUpCredit);
  clearSessionCookie(ctx.cookies, isHttpsOrigin(ctx.locals.publicOrigin));
  return { body: { status: true, statusCode: 200, message: message('account-deleted') }, next: '/' };
});
export const DELETE = POST;
