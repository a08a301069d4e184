import { idParam } from '@/lib/domain/validation';
import { endpoint, json, parseWith } from '@/lib/server/infra/http';
import { cacheForAnonymous } from '@/lib/server/storefront/page-cache';
import { message } from '@/lib/domain/messages';

export const GET = endpoint(async (ctx) => {
  const { locals, params } = ctx;
  const id = parseWith(idParam(message('category-not-found')), params.id);
  const docs = await locals.services.catalogue.subCategories(id);
  return json({ status: true, data: { docs } }, { headers: cacheForAnonymous(ctx, []) });
});
