import { requirePageEditor } from '@/lib/server/accounts/auth';
import { pageSlug, revisionParam } from '@/lib/server/content/route-input';
import { endpoint, json } from '@/lib/server/infra/http';

/** One revision of the page, its whole text. */
export const GET = endpoint(async ({ locals, params }) => {
  requirePageEditor(locals);
  return json({ status: true, data: await locals.services.contentPages.revision(pageSlug(params.slug), revisionParam(params.id)) });
});
