import { z } from 'zod';
import { NotFound } from '@/lib/domain/errors';
import { parseMarket, type MarketCode } from '@/lib/domain/markets';
import { message } from '@/lib/domain/messages';
import { toMajor, toMinor } from '@/lib/domain/money';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { endpoint, json } from '@/lib/server/infra/http';

function marketParam(value: string | undefined): MarketCode {
  const market = parseMarket(value);
  if (!market) throw new NotFound(message('not-found'));
  return market;
}

const feeSchema = z.object({ fee: z.coerce.number({ error: message('gift-wrap-range') }).min(0, message('gift-wrap-range')).max(1_000_000_000, message('gift-wrap-range')) });

/** A market's gift wrapping fee (major units). */
export const GET = endpoint(async ({ locals, params }) => {
  requireStaff(locals);
  return json({ status: true, data: { fee: toMajor(await locals.services.onDelivery.giftWrapFee(marketParam(params.market))) } });
});

/** Staff set it: `{ fee }` in major units. */
export const POST = formEndpoint(async ({ locals, request, params }) => {
  const user = requireStaff(locals);
  const market = marketParam(params.market);
  const input = await readInput(request, feeSchema);
  const minor = await locals.services.onDelivery.setGiftWrapFee(asActor(user), market, { giftWrapMinor: toMinor(input.fee) });
  return { body: { status: true, message: message('gift-wrap-saved'), data: { fee: toMajor(minor) } } };
});
