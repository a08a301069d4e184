import { z } from 'zod';
import { message } from '@/lib/domain/messages';
import { parsePromotionInput } from '@/lib/domain/promotion-input';
import { idParam } from '@/lib/domain/validation';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint, isFormPost, readInput } from '@/lib/server/infra/form-posts';
import { endpoint, json, parseWith } from '@/lib/server/infra/http';

const idSchema = idParam(message('promotion-not-found'));

export const GET = endpoint(async ({ locals, params }) => {
  requireStaff(locals);
  return json({ status: true, data: await locals.services.promotions.get(parseWith(idSchema, params.id)) });
});

/** Changes the fields it names (the welcome promotion's apply to codes issued from now on). */
const save = formEndpoint(async ({ locals, request, params }) => {
  const user = requireStaff(locals);
  const id = parseWith(idSchema, params.id);
  const raw = await readInput(request, z.record(z.string(), z.unknown()));
  const data = await locals.services.promotions.update(asActor(user), id, parsePromotionInput(raw, { form: isFormPost(request) }));
  return { body: { status: true, message: message('promotion-saved'), data }, next: `/admin/promotions?edit=${id}` };
});
export const PATCH = save;
export const PUT = save;
export const POST = save;
