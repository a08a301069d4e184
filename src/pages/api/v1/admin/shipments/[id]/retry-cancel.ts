import { message } from '@/lib/domain/messages';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint } from '@/lib/server/infra/form-posts';

/** A parcel the courier would not cancel, asked to be cancelled again now (audited once however often pressed); the worker cancels it, starting here. */
export const POST = formEndpoint(async ({ locals, params }) => {
  const user = requireStaff(locals);
  const id = params.id ?? '';
  const { orderId, queued } = await locals.services.shipments.retryCancel(id);
  if (queued) await locals.services.audit.record(asActor(user), { action: 'shipment.retry-cancel', entity: 'shipment', entityId: id, details: { orderId } });
  await locals.services.shipments.runDue().catch(() => undefined);
  return { body: { status: true, message: message('shipment-cancel-retry-queued'), data: { id } }, next: `/admin/orders/${orderId}` };
});
