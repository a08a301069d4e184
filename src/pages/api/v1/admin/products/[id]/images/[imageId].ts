import { idParam } from '@/lib/domain/validation';
import { imageEditSchema } from '@/lib/domain/admin';
import { Invalid } from '@/lib/domain/errors';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { parseWith } from '@/lib/server/infra/http';
import { message } from '@/lib/domain/messages';

/** One image: op=alt (with alt), colour (with colorId; empty for every colour), up, down or delete. */
export const POST = formEndpoint(async ({ locals, request, params }) => {
  const user = requireStaff(locals);
  const productId = parseWith(idParam(message('product-not-found')), params.id);
  const imageId = parseWith(idParam(message('image-not-found')), params.imageId);
  const { op, alt, colorId } = await readInput(request, imageEditSchema);
  if (op === 'alt' && alt === undefined) throw new Invalid(message('alt-required'));
  await locals.services.catalogueAdmin.editImage(
    asActor(user),
    productId,
    imageId,
    op === 'alt' ? { alt: alt! } : op === 'colour' ? { colorId: colorId ?? null } : op === 'delete' ? { remove: true } : { move: op },
  );
  const done = ({ alt: 'alt-saved', colour: 'image-colour-saved', up: 'image-moved', down: 'image-moved', delete: 'image-deleted' } as const)[op];
  return { body: { status: true, message: message(done) }, next: `/admin/products/${productId}` };
});
