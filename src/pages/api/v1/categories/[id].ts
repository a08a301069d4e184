import { idParam } from '../../../../lib/domain/validation';
import { endpoint, json, parseWith, publicCache } from '../../../../lib/server/http';

export const GET = endpoint(async ({ locals, params }) => {
  const id = parseWith(idParam('Category not found'), params.id);
  const data = await locals.services.catalogue.getCategory(id);
  return json({ status: true, data }, { headers: publicCache });
});
