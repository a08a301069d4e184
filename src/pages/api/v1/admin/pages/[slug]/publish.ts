import { message } from '@/lib/domain/messages';
import { requirePageEditor } from '@/lib/server/accounts/auth';
import { editorOf, pageSlug, publishSchema } from '@/lib/server/content/route-input';
import { readInput } from '@/lib/server/infra/form-posts';
import { endpoint, json } from '@/lib/server/infra/http';

/** Publishes the page's draft now, or with `{ at }` (an ISO time to come) at that time. */
export const POST = endpoint(async ({ locals, params, request }) => {
  const user = requirePageEditor(locals);
  const slug = pageSlug(params.slug);
  const { at } = await readInput(request, publishSchema);
  const data = await locals.services.contentPages.publish(editorOf(user), slug, at ? new Date(at) : undefined);
  return json({ status: true, message: message(data.at ? 'page-scheduled' : 'page-published'), data });
});
