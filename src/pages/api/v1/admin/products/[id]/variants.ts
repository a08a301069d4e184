import { z } from 'zod';
import { variantSchema } from '../../../../../../lib/domain/admin';
import { asActor, requireStaff } from '../../../../../../lib/server/auth';
import { formEndpoint, readInput } from '../../../../../../lib/server/form-posts';
import { parseWith } from '../../../../../../lib/server/http';

/** Add variant: a colour x size cell with its opening stock and SKU. */
export const POST = formEndpoint(async ({ locals, request, params }) => {
  const user = requireStaff(locals);
  const id = parseWith(z.coerce.number().int().positive().max(2 ** 31 - 1), params.id);
  const v = await readInput(request, variantSchema);
  const created = await locals.services.catalogueAdmin.addVariant(asActor(user), id, v);
  return { body: { status: true, message: 'Variant added', data: created }, status: 201, next: `/admin/products/${id}` };
});
