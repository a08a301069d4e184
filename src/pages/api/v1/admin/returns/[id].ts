import { returnActionSchema } from '@/lib/domain/after-sales-input';
import { message } from '@/lib/domain/messages';
import { keyParam } from '@/lib/domain/validation';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { endpoint, json, parseWith } from '@/lib/server/infra/http';

const DONE = {
  approve: 'return-approved',
  reject: 'return-rejected',
  receive: 'return-received',
  refund: 'return-refunded',
  credit: 'return-credited',
  ship: 'return-shipped',
} as const;

/** One return for staff (the back office's detail, as JSON). */
export const GET = endpoint(async ({ locals, params }) => {
  requireStaff(locals);
  const detail = await locals.services.returns.adminDetail(parseWith(keyParam(message('return-not-found')), params.id));
  return json({ status: true, data: detail });
});

/** Staff move a return: `{ action: 'approve' | 'reject' | 'receive' | 'refund' | 'credit' | 'ship', ... }` (JSON or the back office's forms). */
export const POST = formEndpoint(async ({ locals, request, params }) => {
  const user = requireStaff(locals);
  const id = parseWith(keyParam(message('return-not-found')), params.id);
  const input = await readInput(request, returnActionSchema);
  const ret = await locals.services.returns.act(asActor(user), id, input);
  return { body: { status: true, message: message(DONE[input.action]), data: ret }, next: `/admin/returns/${ret.id}` };
});
