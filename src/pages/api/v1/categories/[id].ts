import { idParam } from '@/lib/domain/validation';
import { endpoint, json, parseWith } from '@/lib/server/infra/http';
import { cacheForAnonymous } from '@/lib/server/storefront/page-cache';
import { message } from '@/lib/domain/messages';

export const GET = endpoint(async (ctx) => {
  const { locals, params } = ctx;
  const id = parseWith(idParam(message('category-not-found')), params.id);
  const data = await locals.services.catalogue.getCategory(id);
  return json({ status: true, data }, { headers: cacheForAnonymous(ctx, []) });
});
