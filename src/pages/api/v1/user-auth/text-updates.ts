import { textUpdatesSchema } from '@/lib/domain/accounts';
import { message } from '@/lib/domain/messages';
import { assertSameUser, requireUser } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';

/**
 * "Text me order updates" (/settings): `{ textUpdates: true | false }` as JSON, or the settings
 * form's checkbox. Answers `data: { textUpdates }`.
 */
export const PATCH = formEndpoint(async ({ locals, request }) => {
  const user = requireUser(locals);
  const { userId, textUpdates } = await readInput(request, textUpdatesSchema);
  assertSameUser(user, userId);
  const on = await locals.services.accounts.setTextUpdates(user, textUpdates);
  const said = message(on ? 'text-updates-on' : 'text-updates-off');
  return { body: { status: true, statusCode: 200, message: said, data: { textUpdates: on } }, next: '/settings' };
});
/** HTML forms can only POST: the settings form before scripts load. */
export const POST = PATCH;
