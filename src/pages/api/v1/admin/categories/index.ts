import { optionalId } from '@/lib/domain/validation';
import { categorySchema } from '@/lib/domain/admin';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { endpoint, json } from '@/lib/server/infra/http';
import { message } from '@/lib/domain/messages';

export const GET = endpoint(async ({ locals }) => {
  requireStaff(locals);
  return json({ status: true, data: await locals.services.catalogueAdmin.listCategories() });
});

/** Create (no id) or update (id) a category or sub-category: name, description, order, parent. */
export const POST = formEndpoint(async ({ locals, request }) => {
  const user = requireStaff(locals);
  const input = await readInput(request, categorySchema.extend({ id: optionalId }));
  const { id, ...rest } = input;
  const saved = await locals.services.catalogueAdmin.saveCategory(asActor(user), id ?? null, rest);
  return { body: { status: true, message: typeof id === 'number' ? message('category-saved') : message('category-created'), data: saved }, next: '/admin/categories' };
});
