import { idParam } from '@/lib/domain/validation';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { readImageUpload } from '@/lib/server/backoffice/upload';
import { formEndpoint } from '@/lib/server/infra/form-posts';
import { parseWith } from '@/lib/server/infra/http';
import { failureText, message } from '@/lib/domain/messages';

/** A category's banner image (multipart field "image"), checked and re-encoded with sharp. */
export const POST = formEndpoint(
  async ({ locals, request, params }) => {
    const user = requireStaff(locals);
    const id = parseWith(idParam(message('category-not-found')), params.id);
    const { bytes } = await readImageUpload(request);
    const data = await locals.services.catalogueAdmin.setCategoryBanner(asActor(user), id, bytes);
    return { body: { status: true, message: message('banner-uploaded'), data }, next: '/admin/categories' };
  },
  { failure: (reason) => failureText('upload-failed', reason) },
);
