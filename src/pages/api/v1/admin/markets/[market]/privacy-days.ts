import { NotFound } from '@/lib/domain/errors';
import { parseMarket } from '@/lib/domain/markets';
import { message } from '@/lib/domain/messages';
import { privacyDaysInput } from '@/lib/domain/privacy';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';

/** Owners set the days a market's data requests must be answered in: `{ days }` (1 to 90; audited). */
export const POST = formEndpoint(async ({ locals, request, params }) => {
  const user = requireStaff(locals, { owner: true });
  const market = parseMarket(params.market);
  if (!market) throw new NotFound(message('not-found'));
  const { days } = await readInput(request, privacyDaysInput);
  await locals.services.dataRequests.setAnswerDays(asActor(user), market, days);
  return { body: { status: true, message: message('privacy-days-saved'), data: { market, days } } };
});
