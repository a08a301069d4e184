import { favouriteSchema } from '../../../../lib/domain/favourites';
import { assertSameUser, requireUser } from '../../../../lib/server/auth';
import { endpoint, json, readJson } from '../../../../lib/server/http';

const remove = endpoint(async ({ locals, request }) => {
  const user = requireUser(locals);
  const { productId, userId } = await readJson(request, favouriteSchema);
  assertSameUser(user, userId);
  await locals.services.favourites.remove(user.id, productId);
  return json({ status: true, message: 'Removed from favourites', data: { productId, favourite: false } });
});
export const DELETE = remove;
export const POST = remove;
