import { message } from '@/lib/domain/messages';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint } from '@/lib/server/infra/form-posts';

/** Staff mark an export request answered, once the copy went to the shopper (audited). */
export const POST = formEndpoint(async ({ locals, params }) => {
  const user = requireStaff(locals);
  await locals.services.dataRequests.markAnswered(asActor(user), params.id ?? '');
  return { body: { status: true, message: message('done') }, next: `/admin/data-requests/${params.id ?? ''}` };
});
