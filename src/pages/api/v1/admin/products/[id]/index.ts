import { z } from 'zod';
import { idParam } from '@/lib/domain/validation';
import { otherMarketPrices, parseProductForm } from '@/lib/domain/admin';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { endpoint, json, parseWith } from '@/lib/server/infra/http';
import { message } from '@/lib/domain/messages';

const idSchema = idParam(message('product-not-found'));

export const GET = endpoint(async ({ locals, params }) => {
  requireStaff(locals);
  const data = await locals.services.catalogueAdmin.getProduct(parseWith(idSchema, params.id));
  return json({ status: true, data });
});

/** Save: name, description, category, active/draft and the variant grid (stock, SKU, prices per market); a `price` sets every variant's. */
export const POST = formEndpoint(async ({ locals, request, params }) => {
  const user = requireStaff(locals);
  const id = parseWith(idSchema, params.id);
  const input = await readInput(request, z.record(z.string(), z.unknown()));
  const { product, grid } = parseProductForm(input);
  await locals.services.catalogueAdmin.saveProduct(
    asActor(user),
    id,
    { name: product.name, description: product.description, priceMinor: product.price, prices: otherMarketPrices(input), categoryId: product.categoryId, active: product.active, dimensionsCm: product.dimensionsCm, designerId: product.designerId },
    grid,
  );
  return { body: { status: true, message: message('saved') }, next: `/admin/products/${id}` };
});
