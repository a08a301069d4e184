import { message } from '@/lib/domain/messages';
import { requireStaff } from '@/lib/server/accounts/auth';
import { staffEventSchema } from '@/lib/server/delivery/shipments';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';

/** Staff add an event to a parcel of the store's own courier (picked up, out for delivery with the rider, delivered…). */
export const POST = formEndpoint(async ({ locals, request, params }) => {
  const user = requireStaff(locals);
  const input = await readInput(request, staffEventSchema);
  const { orderId } = await locals.services.shipments.addStaffEvent(params.id ?? '', input, user.id);
  // Back to the page the form is on (the order's, or the return's for its collection and replacement).
  return { body: { status: true, message: message('shipment-event-added'), data: { orderId } } };
});
