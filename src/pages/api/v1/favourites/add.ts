import { favouriteSchema } from '../../../../lib/domain/favourites';
import { assertSameUser, requireUser } from '../../../../lib/server/auth';
import { endpoint, json, readJson } from '../../../../lib/server/http';

export const POST = endpoint(async ({ locals, request }) => {
  const user = requireUser(locals);
  const { productId, userId } = await readJson(request, favouriteSchema);
  assertSameUser(user, userId);
  await locals.services.favourites.add(user.id, productId);
  return json({ status: true, message: 'Added to favourites', data: { productId, favourite: true } });
});
