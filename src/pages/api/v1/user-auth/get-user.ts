import { userIdQuerySchema } from '@/lib/domain/accounts';
import { assertSameUser, requireUser } from '@/lib/server/accounts/auth';
import { endpoint, json, readQuery } from '@/lib/server/infra/http';
import { MARKETS } from '@/lib/domain/markets';

export const GET = endpoint(async ({ locals, url }) => {
  const user = requireUser(locals);
  assertSameUser(user, readQuery(url, userIdQuerySchema).userId);
  const data = await locals.services.accounts.getUser(user);
  // Store credit: in the market's currency (major units), and every currency held.
  const { storeCredit, storeCredits } = await locals.services.storeCredit.summary(user.id, MARKETS[locals.market].currency);
  return json({ status: true, statusCode: 200, message: 'User found', data: { ...data, storeCredit, storeCredits } });
});
