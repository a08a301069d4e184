import { idParam } from '../../../../../lib/domain/validation';
import { endpoint, json, parseWith, publicCache } from '../../../../../lib/server/http';

export const GET = endpoint(async ({ locals, params }) => {
  const id = parseWith(idParam('Category not found'), params.id);
  const docs = await locals.services.catalogue.subCategories(id);
  return json({ status: true, data: { docs } }, { headers: publicCache });
});
