import { endpoint, json } from '@/lib/server/infra/http';
import { cacheForAnonymous } from '@/lib/server/storefront/page-cache';

export const GET = endpoint(async (ctx) => {
  const { locals } = ctx;
  const data = await locals.services.catalogue.parentCategories();
  return json({ status: true, data: { data } }, { headers: cacheForAnonymous(ctx, []) });
});
