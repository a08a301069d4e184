import { message } from '@/lib/domain/messages';
import { dataRequestInput } from '@/lib/domain/privacy';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';

/** Staff record a data request that came by mail or phone: `{ email, kind, channel, note }` (audited; its deadline from the market). */
export const POST = formEndpoint(async ({ locals, request }) => {
  const user = requireStaff(locals);
  const input = await readInput(request, dataRequestInput);
  const row = await locals.services.dataRequests.record(asActor(user), input);
  return { body: { status: true, message: message('data-request-recorded'), data: { id: row.id, dueAt: row.dueAt.toISOString() } }, next: `/admin/data-requests/${row.id}` };
});
