import { message } from '@/lib/domain/messages';
import { releasePhoneSchema } from '@/lib/domain/collection';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { parseWith } from '@/lib/server/infra/http';
import { keyParam } from '@/lib/domain/validation';

/** Staff release a number the customer's account verified: another account may verify it now, its refused deliveries staying with it (audited). `{ phone }`. */
export const POST = formEndpoint(async ({ locals, request, params }) => {
  const user = requireStaff(locals);
  const { phone } = await readInput(request, releasePhoneSchema);
  const customerId = parseWith(keyParam(message('customer-not-found')), params.id);
  await locals.services.phoneVerification.release(asActor(user), customerId, phone);
  return { body: { status: true, message: message('phone-released'), data: { phone } } };
});
