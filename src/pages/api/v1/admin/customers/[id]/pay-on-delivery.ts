import { message } from '@/lib/domain/messages';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint } from '@/lib/server/infra/form-posts';

/** Staff lift a shopper's pay-on-delivery block: their refused deliveries count from 0 again (audited). */
export const POST = formEndpoint(async ({ locals, params }) => {
  const user = requireStaff(locals);
  const { before } = await locals.services.collection.liftRefusals(asActor(user), params.id ?? '');
  return { body: { status: true, message: message('refusals-lifted'), data: { before, refusedDeliveries: 0 } } };
});
