import { z } from 'zod';
import { imageEditSchema } from '../../../../../../../lib/domain/admin';
import { Invalid } from '../../../../../../../lib/domain/errors';
import { asActor, requireStaff } from '../../../../../../../lib/server/auth';
import { formEndpoint, readInput } from '../../../../../../../lib/server/form-posts';
import { parseWith } from '../../../../../../../lib/server/http';

const id = z.coerce.number().int().positive().max(2 ** 31 - 1);

/** One image: op=alt (with alt), up, down or delete. */
export const POST = formEndpoint(async ({ locals, request, params }) => {
  const user = requireStaff(locals);
  const productId = parseWith(id, params.id);
  const imageId = parseWith(id, params.imageId);
  const { op, alt } = await readInput(request, imageEditSchema);
  if (op === 'alt' && alt === undefined) throw new Invalid('Describe the picture (alt text)');
  await locals.services.catalogueAdmin.editImage(
    asActor(user),
    productId,
    imageId,
    op === 'alt' ? { alt: alt! } : op === 'delete' ? { remove: true } : { move: op },
  );
  const message = { alt: 'Alt text saved', up: 'Image moved', down: 'Image moved', delete: 'Image deleted' }[op];
  return { body: { status: true, message }, next: `/admin/products/${productId}` };
});
