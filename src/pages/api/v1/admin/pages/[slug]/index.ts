import { draftInputSchema } from '@/lib/domain/content-pages';
import { message } from '@/lib/domain/messages';
import { requirePageEditor } from '@/lib/server/accounts/auth';
import { editorOf, PAGE_BODY_LIMIT, pageSlug } from '@/lib/server/content/route-input';
import { readInput } from '@/lib/server/infra/form-posts';
import { endpoint, json } from '@/lib/server/infra/http';

/** A page as its editor sees it: `published`, `draft`, `scheduled` and its `revisions` (newest first, each with an `id`). */
export const GET = endpoint(async ({ locals, params }) => {
  requirePageEditor(locals);
  return json({ status: true, data: await locals.services.contentPages.state(pageSlug(params.slug)) });
});

/**
 * Saves a draft: `{ title, description, updated, contact, body, baseRevision }`, where
 * `baseRevision` is the revision the text was written on; 409 when the page changed since.
 */
export const PUT = endpoint(async ({ locals, params, request }) => {
  const user = requirePageEditor(locals);
  const slug = pageSlug(params.slug);
  const { fields, baseRevision } = await readInput(request, draftInputSchema, PAGE_BODY_LIMIT);
  const data = await locals.services.contentPages.saveDraft(editorOf(user), slug, fields, baseRevision);
  return json({ status: true, message: message('page-draft-saved'), data });
});
