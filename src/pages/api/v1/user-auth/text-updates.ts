import { orderUpdatesSchema } from '@/lib/domain/accounts';
import { message } from '@/lib/domain/messages';
import { assertSameUser, requireUser } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';

const SAID = { text: 'text-updates-on', whatsapp: 'whatsapp-updates-on', none: 'text-updates-off' } as const;

/**
 * "Order updates" (/settings): `{ updates: 'text' | 'whatsapp' | 'none' }` as JSON or the settings
 * form's choice (`{ textUpdates: true | false }` from earlier clients). Answers
 * `data: { updates, textUpdates }`.
 */
export const PATCH = formEndpoint(async ({ locals, request }) => {
  const user = requireUser(locals);
  const { userId, channel } = await readInput(request, orderUpdatesSchema);
  assertSameUser(user, userId);
  const chosen = await locals.services.accounts.setUpdatesChannel(user, channel);
  return { body: { status: true, statusCode: 200, message: message(SAID[chosen]), data: { updates: chosen, textUpdates: chosen === 'text' } }, next: '/settings' };
});
/** HTML forms can only POST: the settings form before scripts load. */
export const POST = PATCH;
