import { z } from 'zod';
import { message } from '@/lib/domain/messages';
import { parsePromotionInput } from '@/lib/domain/promotion-input';
import { idParam } from '@/lib/domain/validation';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint, isFormPost, readInput } from '@/lib/server/infra/form-posts';
import { endpoint, json, parseWith } from '@/lib/server/infra/http';

const idSchema = idParam(message('promotion-not-found'));

/** Every promotion with its uses, discount given and sales per currency. */
export const GET = endpoint(async ({ locals }) => {
  requireStaff(locals);
  return json({ status: true, data: await locals.services.promotions.list() });
});

/**
 * Creates a promotion (201 with it): `{ code, percentOff, usageLimit }` is enough for an active
 * percentage code. The back office's form posts here too, with `id` to save an existing one.
 */
export const POST = formEndpoint(async ({ locals, request }) => {
  const user = requireStaff(locals);
  const raw = await readInput(request, z.record(z.string(), z.unknown()));
  const input = parsePromotionInput(raw, { form: isFormPost(request) });
  if (raw.id !== undefined && raw.id !== '') {
    const id = parseWith(idSchema, raw.id);
    const data = await locals.services.promotions.update(asActor(user), id, input);
    return { body: { status: true, message: message('promotion-saved'), data }, next: `/admin/promotions?edit=${id}` };
  }
  const data = await locals.services.promotions.create(asActor(user), input);
  return { status: 201, body: { status: true, message: message('promotion-created'), data }, next: `/admin/promotions?edit=${data.id}` };
});
