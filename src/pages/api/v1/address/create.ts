import { addressInputSchema } from '@/lib/domain/accounts';
import { assertSameUser, requireUser } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { message } from '@/lib/domain/messages';
import { localRedirectPath } from '@/lib/domain/redirects';

export const POST = formEndpoint(async ({ locals, request, url }) => {
  const user = requireUser(locals);
  const input = await readInput(request, addressInputSchema);
  assertSameUser(user, input.userId);
  const data = await locals.services.addresses.create(user.id, input);
  // Added from checkout's "Delivery address" (?forOrder=1): this order goes there, default or not.
  if (url.searchParams.get('forOrder') === '1') await locals.services.cart.chooseDeliveryAddress(user, data.id, locals.market);
  // A form sent from checkout's "add a shipping address" goes back there (local paths only).
  const next = localRedirectPath(url.searchParams.get('next'), locals.publicOrigin) ?? '/address-history';
  return { body: { status: true, statusCode: 201, message: message('address-saved'), data }, status: 201, next };
});
