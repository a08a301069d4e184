import { profileUpdateSchema } from '@/lib/domain/accounts';
import { assertSameUser, requireUser } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { message } from '@/lib/domain/messages';

/** Saves the settings profile fields (names, phone, country). E-mail changes are not offered. */
export const PATCH = formEndpoint(async ({ locals, request }) => {
  const user = requireUser(locals);
  const { userId, ...patch } = await readInput(request, profileUpdateSchema);
  assertSameUser(user, userId);
  const data = await locals.services.accounts.updateProfile(user, patch);
  return { body: { status: true, statusCode: 200, message: message('profile-updated'), data }, next: '/settings' };
});
/** HTML forms can only POST: the settings form before scripts load. */
export const POST = PATCH;
