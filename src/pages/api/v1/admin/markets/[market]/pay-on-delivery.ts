import { podRulesSchema } from '@/lib/domain/collection';
import { NotFound } from '@/lib/domain/errors';
import { parseMarket, type MarketCode } from '@/lib/domain/markets';
import { message } from '@/lib/domain/messages';
import { toMajor, toMinor } from '@/lib/domain/money';
import type { PayOnDeliveryRules } from '@/lib/domain/payment-methods';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { endpoint, json } from '@/lib/server/infra/http';

function marketParam(value: string | undefined): MarketCode {
  const market = parseMarket(value);
  if (!market) throw new NotFound(message('not-found'));
  return market;
}

const shown = (r: PayOnDeliveryRules) => ({ enabled: r.enabled, cap: toMajor(r.capMinor), ceiling: toMajor(r.ceilingMinor), depositPercent: r.depositPercent, maxOpenOrders: r.maxOpenOrders });

/** A market's pay-on-delivery rules (amounts in major units). */
export const GET = endpoint(async ({ locals, params }) => {
  requireStaff(locals);
  return json({ status: true, data: shown(await locals.services.onDelivery.rules(marketParam(params.market))) });
});

/** Staff set them: `{ enabled, cap, ceiling, depositPercent, maxOpenOrders }` (a form's unticked box is off). */
export const POST = formEndpoint(async ({ locals, request, params }) => {
  const user = requireStaff(locals);
  const market = marketParam(params.market);
  const input = await readInput(request, podRulesSchema);
  const rules: PayOnDeliveryRules = { enabled: input.enabled, capMinor: toMinor(input.cap), ceilingMinor: toMinor(input.ceiling), depositPercent: input.depositPercent, maxOpenOrders: input.maxOpenOrders };
  await locals.services.onDelivery.setRules(asActor(user), market, rules);
  return { body: { status: true, message: message('pod-rules-saved'), data: shown(rules) } };
});
