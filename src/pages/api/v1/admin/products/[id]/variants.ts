import { idParam } from '@/lib/domain/validation';
import { priceField, pricesFromForm, variantSchema } from '@/lib/domain/admin';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { parseWith } from '@/lib/server/infra/http';
import { message } from '@/lib/domain/messages';

/** Add variant: a colour x size cell with its opening stock, SKU and prices per market. */
export const POST = formEndpoint(async ({ locals, request, params }) => {
  const user = requireStaff(locals);
  const id = parseWith(idParam(message('product-not-found')), params.id);
  const input = await readInput(request, variantSchema.loose());
  const { colorId, sizeId, stock, sku } = input;
  // Its prices side by side (`price`, `price.ZA`); a market left out takes the product's "from" price.
  const prices = pricesFromForm(input as Record<string, unknown>, priceField);
  const created = await locals.services.catalogueAdmin.addVariant(asActor(user), id, { colorId, sizeId, stock, sku, prices });
  return { body: { status: true, message: message('variant-added'), data: created }, status: 201, next: `/admin/products/${id}` };
});
