import { changePasswordSchema } from '@/lib/domain/accounts';
import { assertSameUser, requireUser } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { message } from '@/lib/domain/messages';

/** Changes the password and signs the user out everywhere else. */
export const PATCH = formEndpoint(async ({ locals, request, params }) => {
  const user = requireUser(locals);
  assertSameUser(user, params.userId);
  const { oldPassword, newPassword, userId } = await readInput(request, changePasswordSchema);
  assertSameUser(user, userId);
  await locals.services.accounts.changePassword(user, locals.session!.tokenHash, oldPassword, newPassword);
  return { body: { status: true, statusCode: 200, message: message('password-changed') }, next: '/settings' };
});
/** HTML forms can only POST: the settings form before scripts load. */
export const POST = PATCH;
