import { idParam, text } from '@/lib/domain/validation';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { readImageUpload } from '@/lib/server/backoffice/upload';
import { formEndpoint } from '@/lib/server/infra/form-posts';
import { parseWith } from '@/lib/server/infra/http';
import { failureText, message } from '@/lib/domain/messages';

/** Upload a product picture (multipart field "image", optional "alt"): checked and re-encoded with sharp. */
export const POST = formEndpoint(
  async ({ locals, request, params }) => {
    const user = requireStaff(locals);
    const id = parseWith(idParam(message('product-not-found')), params.id);
    const { bytes, fields } = await readImageUpload(request);
    const alt = parseWith(text('alt', 300), fields.alt ?? '');
    const data = await locals.services.catalogueAdmin.addImage(asActor(user), id, bytes, alt);
    return { body: { status: true, message: message('image-uploaded'), data }, status: 201, next: `/admin/products/${id}` };
  },
  { failure: (reason) => failureText('upload-failed', reason) },
);
