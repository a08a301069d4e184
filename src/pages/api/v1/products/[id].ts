import { idParam } from '@/lib/domain/validation';
import { endpoint, json, parseWith } from '@/lib/server/infra/http';
import { cacheForAnonymous, cacheTags } from '@/lib/server/storefront/page-cache';
import { message } from '@/lib/domain/messages';

export const GET = endpoint(async (ctx) => {
  const { locals, params } = ctx;
  const id = parseWith(idParam(message('product-not-found')), params.id);
  const data = await locals.services.catalogue.getProduct(id, locals.market);
  return json({ status: true, data, message: 'Product found' }, { headers: cacheForAnonymous(ctx, [cacheTags.product(id)]) });
});
