import { z } from 'zod';
import { asActor, requireStaff } from '../../../../../../../lib/server/auth';
import { readImageUpload } from '../../../../../../../lib/server/admin/upload';
import { formEndpoint } from '../../../../../../../lib/server/form-posts';
import { parseWith } from '../../../../../../../lib/server/http';

/** Upload a product picture (multipart field "image", optional "alt"): checked and re-encoded with sharp. */
export const POST = formEndpoint(
  async ({ locals, request, params }) => {
    const user = requireStaff(locals);
    const id = parseWith(z.coerce.number().int().positive().max(2 ** 31 - 1), params.id);
    const { bytes, fields } = await readImageUpload(request);
    const alt = parseWith(z.string().trim().max(300).default(''), fields.alt ?? '');
    const data = await locals.services.catalogueAdmin.addImage(asActor(user), id, bytes, alt);
    return { body: { status: true, message: 'Image uploaded', data }, status: 201, next: `/admin/products/${id}` };
  },
  { failure: (reason) => `Failed to upload image: ${reason}` },
);
