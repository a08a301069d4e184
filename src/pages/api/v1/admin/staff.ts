import { staffChangeSchema } from '@/lib/domain/admin';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { endpoint, json } from '@/lib/server/infra/http';

/** Owners manage staff: GET the list, POST {email, role: staff|owner|customer}. */
export const GET = endpoint(async ({ locals }) => {
  requireStaff(locals, { owner: true });
  return json({ status: true, data: await locals.services.staff.list() });
});

export const POST = formEndpoint(async ({ locals, request }) => {
  const user = requireStaff(locals, { owner: true });
  const { email, role } = await readInput(request, staffChangeSchema);
  const r = role === 'customer' ? await locals.services.staff.revoke(asActor(user), email) : await locals.services.staff.grant(asActor(user), email, role);
  return { body: { status: true, message: `${r.email} is now ${r.to}`, data: r }, next: '/admin/staff' };
});
