import { draftInputSchema } from '@/lib/domain/content-pages';
import { requirePageEditor } from '@/lib/server/accounts/auth';
import { PAGE_BODY_LIMIT, pageSlug } from '@/lib/server/content/route-input';
import { readInput } from '@/lib/server/infra/form-posts';
import { endpoint, json } from '@/lib/server/infra/http';

/** The draft's fields rendered as the live page renders them: `{ html }` is the body's sanitized HTML. */
export const POST = endpoint(async ({ locals, params, request }) => {
  requirePageEditor(locals);
  const slug = pageSlug(params.slug);
  const { fields } = await readInput(request, draftInputSchema, PAGE_BODY_LIMIT);
  return json({ status: true, data: await locals.services.contentPages.preview(slug, fields) });
});
