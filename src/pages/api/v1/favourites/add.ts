import { favouriteSchema } from '../../../../lib/domain/favourites';
import { assertSameUser, requireUser } from '../../../../lib/server/auth';
import { formEndpoint, readInput } from '../../../../lib/server/form-posts';

/** JSON for the heart's script; its plain form post goes back to the page (the action's ?back=). */
export const POST = formEndpoint(async ({ locals, request }) => {
  const user = requireUser(locals, 'Please create an account or login');
  const { productId, userId } = await readInput(request, favouriteSchema);
  assertSameUser(user, userId);
  await locals.services.favourites.add(user.id, productId);
  return { body: { status: true, message: 'Added to favourites', data: { productId, favourite: true } } };
});
