import { z } from 'zod';
import { message, type MessageCode } from '@/lib/domain/messages';
import { requireUser } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';

/** The settings checkbox (value "yes" when ticked; absent when not), or a boolean from an API client. */
const preferenceSchema = z.object({ newsletter: z.union([z.literal('yes'), z.boolean()]).optional() });

/**
 * POST {newsletter}: the signed-in shopper's newsletter choice on /settings. Ticked subscribes the
 * account's e-mail (source 'settings', double opt-in: the confirm mail goes out); unticked
 * unsubscribes it. JSON for the island, a redirect back to /settings for a plain form post.
 */
export const POST = formEndpoint(async ({ locals, request }) => {
  const user = requireUser(locals);
  const { newsletter } = await readInput(request, preferenceSchema);
  if (newsletter === 'yes' || newsletter === true) {
    const { status } = await locals.services.newsletter.subscribe(user.email, { source: 'settings', site: locals.publicOrigin });
    const said: MessageCode = status === 'confirmed' ? 'newsletter-already' : 'newsletter-confirm-sent';
    return { body: { status: true, data: { newsletter: status }, message: message(said) }, next: '/settings' };
  }
  const changed = await locals.services.newsletter.unsubscribeAccount(user.email);
  const status = await locals.services.newsletter.statusOf(user.email);
  const said: MessageCode = changed ? 'newsletter-unsubscribed' : 'newsletter-not-subscribed';
  return { body: { status: true, data: { newsletter: status }, message: message(said) }, next: '/settings' };
});
