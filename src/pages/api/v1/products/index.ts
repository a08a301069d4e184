import { productQuerySchema } from '../../../../lib/domain/catalogue';
import { endpoint, json, publicCache, readQuery } from '../../../../lib/server/http';

export const GET = endpoint(async ({ locals, url }) => {
  const query = readQuery(url, productQuerySchema);
  const data = await locals.services.catalogue.listProducts(query);
  return json({ status: true, data }, { headers: publicCache });
});
