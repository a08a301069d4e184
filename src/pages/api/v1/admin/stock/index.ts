import { z } from 'zod';
import { stockAdjustSchema } from '@/lib/domain/admin';
import { fill } from '@/lib/domain/messages';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { endpoint, json, readQuery } from '@/lib/server/infra/http';

/** GET: the low-stock list (?threshold=, default 3). POST: an adjustment with a reason. */
export const GET = endpoint(async ({ locals, url }) => {
  requireStaff(locals);
  const { threshold } = readQuery(url, z.object({ threshold: z.coerce.number().int().min(0).max(1000).catch(3).default(3) }));
  return json({ status: true, data: await locals.services.stock.lowStock(threshold) });
});

export const POST = formEndpoint(async ({ locals, request }) => {
  const user = requireStaff(locals);
  const input = await readInput(request, stockAdjustSchema);
  const data = await locals.services.stock.adjust(asActor(user), input);
  return { body: { status: true, message: fill('stock-now', data.stock), data } };
});
