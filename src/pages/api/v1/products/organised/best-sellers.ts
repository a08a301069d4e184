import { endpoint, json } from '@/lib/server/infra/http';
import { cacheForAnonymous, cacheTags } from '@/lib/server/storefront/page-cache';

export const GET = endpoint(async (ctx) => {
  const { locals } = ctx;
  const docs = await locals.services.catalogue.bestSellers(undefined, locals.market);
  return json({ status: true, data: { docs } }, { headers: cacheForAnonymous(ctx, [cacheTags.listing, ...docs.map((p) => cacheTags.product(p.id))]) });
});
