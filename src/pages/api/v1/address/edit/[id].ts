import { z } from 'zod';
import { addressInputSchema, isMakeDefaultEdit, makeDefaultSchema, uuidParam } from '@/lib/domain/accounts';
import { assertSameUser, requireUser } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { parseWith } from '@/lib/server/infra/http';
import { message } from '@/lib/domain/messages';

/** Replaces the address fields, or with only `{active: true}` makes it the default. */
export const PATCH = formEndpoint(async ({ locals, request, params }) => {
  const user = requireUser(locals);
  const id = parseWith(uuidParam(message('address-not-found')), params.id);
  const body = await readInput(request, z.record(z.string(), z.unknown()));
  const { addresses } = locals.services;
  if (isMakeDefaultEdit(body)) {
    const { userId } = parseWith(makeDefaultSchema, body);
    assertSameUser(user, userId);
    const data = await addresses.setDefault(user.id, id);
    return { body: { status: true, statusCode: 200, message: message('address-default'), data }, next: '/address-history' };
  }
  const input = parseWith(addressInputSchema, body);
  assertSameUser(user, input.userId);
  const data = await addresses.update(user.id, id, input);
  return { body: { status: true, statusCode: 200, message: message('address-updated'), data }, next: '/address-history' };
});
/** HTML forms can only POST: the edit form before scripts load. */
export const POST = PATCH;
