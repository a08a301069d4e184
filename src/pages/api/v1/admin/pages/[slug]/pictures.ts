import { message } from '@/lib/domain/messages';
import { requirePageEditor } from '@/lib/server/accounts/auth';
import { readImageUpload } from '@/lib/server/backoffice/upload';
import { editorOf, pageSlug } from '@/lib/server/content/route-input';
import { endpoint, json } from '@/lib/server/infra/http';

/**
 * A picture for the page: multipart with `image` (JPEG, PNG or WebP under 5 MB) and `alt`
 * (required). Answers 201 with the `markdown` that shows it, for the editor to put in the text.
 */
export const POST = endpoint(async ({ locals, params, request }) => {
  const user = requirePageEditor(locals);
  const slug = pageSlug(params.slug);
  const { bytes, fields } = await readImageUpload(request);
  const data = await locals.services.contentPages.addPicture(editorOf(user), slug, bytes, fields.alt ?? '');
  return json({ status: true, message: message('page-picture-added'), data }, { status: 201 });
});
