import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint } from '@/lib/server/infra/form-posts';
import { parseWith } from '@/lib/server/infra/http';
import { keyParam } from '@/lib/domain/validation';
import { message } from '@/lib/domain/messages';

/** A failed or stuck refund owed again, due now (audited); the worker pays it, starting here. */
export const POST = formEndpoint(async ({ locals, params }) => {
  const user = requireStaff(locals);
  const id = parseWith(keyParam(message('owed-refund-not-found')), params.id);
  await locals.services.owedRefunds.retry(id);
  await locals.services.audit.record(asActor(user), { action: 'refund.retry', entity: 'owed_refund', entityId: id, details: {} });
  await locals.services.owedRefunds.runDue().catch(() => undefined);
  return { body: { status: true, message: message('refund-retry-queued'), data: { id } }, next: '/admin/refunds' };
});
