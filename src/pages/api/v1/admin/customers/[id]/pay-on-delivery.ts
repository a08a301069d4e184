import { message } from '@/lib/domain/messages';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { liftRefusalsSchema } from '@/lib/domain/collection';

/** Staff lift a shopper's pay-on-delivery block: their refused deliveries count from 0 again (audited). `{ refusedBefore }`: the count the page showed (409 if it changed). */
export const POST = formEndpoint(async ({ locals, request, params }) => {
  const user = requireStaff(locals);
  const { refusedBefore } = await readInput(request, liftRefusalsSchema);
  const { before } = await locals.services.collection.liftRefusals(asActor(user), params.id ?? '', refusedBefore);
  return { body: { status: true, message: message('refusals-lifted'), data: { before, refusedDeliveries: 0 } } };
});
