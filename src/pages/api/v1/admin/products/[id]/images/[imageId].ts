import { idParam } from '../../../../../../../lib/domain/validation';
import { imageEditSchema } from '../../../../../../../lib/domain/admin';
import { Invalid } from '../../../../../../../lib/domain/errors';
import { asActor, requireStaff } from '../../../../../../../lib/server/auth';
import { formEndpoint, readInput } from '../../../../../../../lib/server/form-posts';
import { parseWith } from '../../../../../../../lib/server/http';


/** One image: op=alt (with alt), up, down or delete. */
export const POST = formEndpoint(async ({ locals, request, params }) => {
  const user = requireStaff(locals);
  const productId = parseWith(idParam('Product not found'), params.id);
  const imageId = parseWith(idParam('Image not found'), params.imageId);
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
