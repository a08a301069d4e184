import { idParam } from '../../../../lib/domain/validation';
import { endpoint, json, parseWith, publicCache } from '../../../../lib/server/http';

export const GET = endpoint(async ({ locals, params }) => {
  const id = parseWith(idParam('Product not found'), params.id);
  const data = await locals.services.catalogue.getProduct(id);
  return json({ status: true, data, message: 'Product found' }, { headers: publicCache });
});
