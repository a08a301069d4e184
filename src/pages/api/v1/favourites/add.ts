import { favouriteSchema } from '@/lib/domain/favourites';
import { assertSameUser, requireUser } from '@/lib/server/accounts/auth';
import { backPath, formEndpoint, readInput, wantsPage } from '@/lib/server/infra/form-posts';
import { message } from '@/lib/domain/messages';

/**
 * JSON for the heart's script; its plain form post goes back to the page (the action's ?back=). A
 * signed-out visitor's goes to /login, keeping the heart: signing in (or registering) keeps the
 * favourite and comes back to the page.
 */
export const POST = formEndpoint(async (ctx) => {
  const { locals, request } = ctx;
  if (!locals.session?.user && wantsPage(request)) {
    const { productId } = await readInput(request, favouriteSchema);
    return locals.services.afterSignIn.signInFirst(ctx, { kind: 'favourite', productId, color: null, size: null, back: backPath(ctx) }, 'favourites-sign-in');
  }
  const user = requireUser(locals, message('login-required'));
  const { productId, userId } = await readInput(request, favouriteSchema);
  assertSameUser(user, userId);
  await locals.services.favourites.add(user.id, productId);
  return { body: { status: true, message: message('favourite-added'), data: { productId, favourite: true } } };
}, { signInFirst: 'favourites-sign-in' });
