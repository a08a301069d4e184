import { favouriteSchema } from '@/lib/domain/favourites';
import { assertSameUser, requireUser } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { message } from '@/lib/domain/messages';

/** JSON for the heart's script; its plain form post goes back to the page (the action's ?back=); a signed-out visitor's goes to /login and back. */
const remove = formEndpoint(async ({ locals, request }) => {
  const user = requireUser(locals, message('login-required'));
  const { productId, userId } = await readInput(request, favouriteSchema);
  assertSameUser(user, userId);
  await locals.services.favourites.remove(user.id, productId);
  return { body: { status: true, message: message('favourite-removed'), data: { productId, favourite: false } } };
}, { signInFirst: 'favourites-sign-in' });
export const DELETE = remove;
export const POST = remove;
