import { otherMarketPrices, productFilterSchema, productSchema, variantSchema } from '@/lib/domain/admin';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { endpoint, json, parseWith, readQuery } from '@/lib/server/infra/http';
import { message } from '@/lib/domain/messages';

/** GET: the product list (JSON). POST: a new product with its first variant, priced per market; then its edit page. */
export const GET = endpoint(async ({ locals, url }) => {
  requireStaff(locals);
  const data = await locals.services.catalogueAdmin.listProducts(readQuery(url, productFilterSchema));
  return json({ status: true, data });
});

export const POST = formEndpoint(async ({ locals, request }) => {
  const user = requireStaff(locals);
  const input = await readInput(request, productSchema.loose());
  const { price, ...rest } = input;
  const product = { name: rest.name, description: rest.description, categoryId: rest.categoryId, active: rest.active, dimensionsCm: rest.dimensionsCm, designerId: rest.designerId, priceMinor: price, prices: otherMarketPrices(input as Record<string, unknown>) };
  const raw = input as Record<string, unknown>;
  // Prices belong to variants, so a new product always has its first variant (no stock yet unless given).
  const first = parseWith(variantSchema, { colorId: raw.colorId, sizeId: raw.sizeId, stock: raw.stock === undefined || raw.stock === '' ? 0 : raw.stock, sku: raw.sku });
  const { id } = await locals.services.catalogueAdmin.createProduct(asActor(user), product, first);
  return { body: { status: true, message: message('product-created'), data: { id } }, status: 201, next: `/admin/products/${id}` };
});
