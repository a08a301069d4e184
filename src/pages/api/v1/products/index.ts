import { productQuerySchema } from '@/lib/domain/catalogue';
import { endpoint, json, readQuery } from '@/lib/server/infra/http';
import { cacheForAnonymous, cacheTags } from '@/lib/server/infra/page-cache';

export const GET = endpoint(async (ctx) => {
  const { locals, url } = ctx;
  const query = readQuery(url, productQuerySchema);
  const data = await locals.services.catalogue.listProducts(query, locals.market);
  // A search (q) is answered and recorded each time, like the collection page's; listings are cached.
  const headers = query.q ? { 'cache-control': 'no-store' } : cacheForAnonymous(ctx, [cacheTags.listing, ...data.docs.map((p) => cacheTags.product(p.id))]);
  return json({ status: true, data }, { headers });
});
