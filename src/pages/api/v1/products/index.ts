import { productQuerySchema } from '@/lib/domain/catalogue';
import { endpoint, json, readQuery } from '@/lib/server/infra/http';
import { cacheForAnonymous, cacheTags, searchedNote } from '@/lib/server/storefront/page-cache';

export const GET = endpoint(async (ctx) => {
  const { locals, url } = ctx;
  const query = readQuery(url, productQuerySchema);
  const data = await locals.services.catalogue.listProducts(query, locals.market);
  // Searches are cached like listings, and recorded each time the stored answer serves one (as the collection page's).
  const headers = cacheForAnonymous(ctx, [cacheTags.listing, ...data.docs.map((p) => cacheTags.product(p.id))], searchedNote(data, locals.market));
  return json({ status: true, data }, { headers });
});
