import { idParam } from '../../../../lib/domain/validation';
import { endpoint, json, parseWith } from '../../../../lib/server/http';
import { cacheForAnonymous } from '../../../../lib/server/page-cache';

export const GET = endpoint(async (ctx) => {
  const { locals, params } = ctx;
  const id = parseWith(idParam('Category not found'), params.id);
  const data = await locals.services.catalogue.getCategory(id);
  return json({ status: true, data }, { headers: cacheForAnonymous(ctx, []) });
});
