import { giftReturnProof } from '@/lib/server/aftersales/gift-return-cookie';
import { endpoint, json } from '@/lib/server/infra/http';

/**
 * A gift's return as its recipient sees it (ADR 0045): the pieces (no prices), the window, the
 * masked number a code goes to, whether it is proven (the cookie) and the account the credit goes
 * to. 404 for a link that is not a gift's.
 */
export const GET = endpoint(async ({ locals, params, cookies }) => {
  const data = await locals.services.giftReturns.view(params.token, giftReturnProof(cookies));
  return json({ status: true, data, message: 'Gift found' }, { headers: { 'cache-control': 'no-store' } });
});
