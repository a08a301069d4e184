import { message } from '@/lib/domain/messages';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint } from '@/lib/server/infra/form-posts';

/** A failed booking, or one waiting after unanswered calls, asked for again now (audited); the worker books it, starting here. */
export const POST = formEndpoint(async ({ locals, params }) => {
  const user = requireStaff(locals);
  const id = params.id ?? '';
  const { orderId } = await locals.services.shipments.retry(id);
  await locals.services.audit.record(asActor(user), { action: 'shipment.retry', entity: 'shipment', entityId: id, details: { orderId } });
  await locals.services.shipments.runDue().catch(() => undefined);
  // Back to the page the form is on (the order's, or the return's).
  return { body: { status: true, message: message('shipment-retry-queued'), data: { id } } };
});
