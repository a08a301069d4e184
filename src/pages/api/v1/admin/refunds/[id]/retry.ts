import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint } from '@/lib/server/infra/form-posts';
import { parseWith } from '@/lib/server/infra/http';
import { keyParam } from '@/lib/domain/validation';

/** A failed or stuck refund owed again, due now (audited); the worker pays it, starting here. */
export const POST = formEndpoint(async ({ locals, params }) => {
  const user = requireStaff(locals);
  const id = parseWith(keyParam('Refund not found'), params.id);
  await locals.services.owedRefunds.retry(id);
  await locals.services.audit.record(asActor(user), { action: 'refund.retry', entity: 'owed_refund', entityId: id, details: {} });
  await locals.services.owedRefunds.runDue().catch(() => undefined);
  return { body: { status: true, message: 'The refund will be tried again', data: { id } }, next: '/admin/refunds' };
});
