import { message } from '@/lib/domain/messages';
import { requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint } from '@/lib/server/infra/form-posts';

/** Applies a checked file without problems (202; the worker runs the checks again and writes it whole, or not at all). */
export const POST = formEndpoint(async ({ locals, params }) => {
  requireStaff(locals);
  const id = params.id ?? '';
  const data = await locals.services.catalogueImports.apply(id);
  return { body: { status: true, message: message('import-applying'), data }, status: 202, next: `/admin/imports/${data.id}` };
});
