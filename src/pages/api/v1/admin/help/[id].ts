import { helpStaffSchema } from '@/lib/domain/after-sales-input';
import { message } from '@/lib/domain/messages';
import { keyParam } from '@/lib/domain/validation';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { parseWith } from '@/lib/server/infra/http';

/** Staff answer a help request (`{ message }`, mailed to the shopper) or close it (`{ action: 'close' }`). */
export const POST = formEndpoint(async ({ locals, request, params }) => {
  const user = requireStaff(locals);
  const id = parseWith(keyParam(message('help-not-found')), params.id);
  const input = await readInput(request, helpStaffSchema);
  if ('action' in input) {
    await locals.services.help.close(asActor(user), id);
    return { body: { status: true, message: message('help-closed') }, next: `/admin/help/${id}` };
  }
  const thread = await locals.services.help.answer(asActor(user), id, input.message);
  return { body: { status: true, message: message('help-answered'), data: thread }, next: `/admin/help/${id}` };
});
