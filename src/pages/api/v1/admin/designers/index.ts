import { designerSchema } from '@/lib/domain/designers';
import { optionalId } from '@/lib/domain/validation';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { endpoint, json } from '@/lib/server/infra/http';
import { message } from '@/lib/domain/messages';

export const GET = endpoint(async ({ locals }) => {
  requireStaff(locals);
  return json({ status: true, data: await locals.services.catalogueAdmin.listDesigners() });
});

/** Create (no id) or update (id) a designer: name, slug (empty: made from the name), short text. */
export const POST = formEndpoint(async ({ locals, request }) => {
  const user = requireStaff(locals);
  const { id, ...rest } = await readInput(request, designerSchema.extend({ id: optionalId }));
  const saved = await locals.services.catalogueAdmin.saveDesigner(asActor(user), id ?? null, rest);
  return { body: { status: true, message: typeof id === 'number' ? message('designer-saved') : message('designer-created'), data: saved }, next: '/admin/designers' };
});
