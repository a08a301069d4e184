import { message } from '@/lib/domain/messages';
import { requirePageEditor } from '@/lib/server/accounts/auth';
import { editorOf, pageSlug, revisionParam } from '@/lib/server/content/route-input';
import { endpoint, json } from '@/lib/server/infra/http';

/** A revision's text back as the page's newest draft (a revision of another page is 404). */
export const POST = endpoint(async ({ locals, params }) => {
  const user = requirePageEditor(locals);
  const data = await locals.services.contentPages.restore(editorOf(user), pageSlug(params.slug), revisionParam(params.id));
  return json({ status: true, message: message('page-restored'), data });
});
