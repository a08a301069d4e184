import { PAGE_SLUGS } from '@/lib/domain/content-pages';
import { requirePageEditor } from '@/lib/server/accounts/auth';
import { endpoint, json } from '@/lib/server/infra/http';

/** The editable pages, each as GET /api/v1/admin/pages/{slug} answers it. */
export const GET = endpoint(async ({ locals }) => {
  requirePageEditor(locals);
  return json({ status: true, data: await Promise.all(PAGE_SLUGS.map((slug) => locals.services.contentPages.state(slug))) });
});
