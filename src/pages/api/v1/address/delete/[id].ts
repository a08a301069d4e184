import { uuidParam } from '@/lib/domain/accounts';
import { requireUser } from '@/lib/server/accounts/auth';
import { formEndpoint } from '@/lib/server/infra/form-posts';
import { parseWith } from '@/lib/server/infra/http';
import { message } from '@/lib/domain/messages';

export const DELETE = formEndpoint(async ({ locals, params }) => {
  const user = requireUser(locals);
  const id = parseWith(uuidParam(message('address-not-found')), params.id);
  await locals.services.addresses.remove(user.id, id);
  return { body: { status: true, statusCode: 200, message: message('address-deleted') }, next: '/address-history' };
});
/** HTML forms can only POST: the confirmation form of /address-history without scripts. */
export const POST = DELETE;
