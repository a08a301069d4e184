import { helpRequestSchema } from '@/lib/domain/after-sales-input';
import { message } from '@/lib/domain/messages';
import { keyParam } from '@/lib/domain/validation';
import { requireUser } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { parseWith } from '@/lib/server/infra/http';

/** "Get help with this order": `{ topic, message }` about the shopper's own order (JSON, or the order page's plain form). */
export const POST = formEndpoint(async ({ locals, request, params }) => {
  const user = requireUser(locals);
  const orderId = parseWith(keyParam(message('order-not-found')), params.id);
  const input = await readInput(request, helpRequestSchema);
  const thread = await locals.services.help.ask(user.id, orderId, input);
  return { status: 201, body: { status: true, message: message('help-sent'), data: thread }, next: `/order-details/${orderId}` };
});
