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

const feeSchema = z.object({ fee: z.coerce.number({ error: message('locker-fee-range') }).min(0, message('locker-fee-range')).max(1_000_000_000, message('locker-fee-range')) });

/** A market's fee for delivery to a PUDO locker (major units; null: the market offers none). */
export const GET = endpoint(async ({ locals, params }) => {
  requireStaff(locals);
  const minor = await locals.services.onDelivery.lockerFee(marketParam(params.market));
  return json({ status: true, data: { fee: minor === null ? null : toMajor(minor) } });
});

/** Staff set it: `{ fee }` in major units; orders already placed keep theirs. */
export const POST = formEndpoint(async ({ locals, request, params }) => {
  const user = requireStaff(locals);
  const market = marketParam(params.market);
  const input = await readInput(request, feeSchema);
  const minor = await locals.services.onDelivery.setLockerFee(asActor(user), market, { lockerFeeMinor: toMinor(input.fee) });
  return { body: { status: true, message: message('locker-fee-saved'), data: { fee: toMajor(minor) } } };
});
