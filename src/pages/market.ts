import { z } from 'zod';
import { MARKET_CODES, MARKET_COOKIE, type MarketCode } from '@/lib/domain/markets';
import { isHttpsOrigin } from '@/lib/domain/public-origin';
import { localRedirectPath } from '@/lib/domain/redirects';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { message } from '@/lib/domain/messages';

const input = z.object({
  market: z.enum(MARKET_CODES, { message: message('market-invalid') }),
  /** The page the "Shop in" form was on (a local path). */
  back: z.string().max(2000).optional(),
});

/** A local path to go back to, with its ?market= (if any) set to the new market so the URL agrees with the choice. */
function backTo(back: string | undefined, market: MarketCode, origin: string): string {
  const path = localRedirectPath(back, origin);
  if (!path) return '/';
  const url = new URL(path, origin);
  if (url.searchParams.has('market')) url.searchParams.set('market', market);
  url.searchParams.delete('notice');
  url.searchParams.delete('error');
  return url.pathname + url.search;
}

/**
 * The header's "Shop in" control (a real form: it works without JavaScript): keeps the choice in
 * the market cookie and, for a signed-in shopper, re-prices the cart on the server and says so.
 */
export const POST = formEndpoint(async ({ locals, request, cookies }) => {
  const { market, back } = await readInput(request, input);
  cookies.set(MARKET_COOKIE, market, { path: '/', maxAge: 365 * 86_400, httpOnly: true, sameSite: 'lax', secure: isHttpsOrigin(locals.publicOrigin) });
  locals.market = market;
  let text = message('market-chosen', market);
  const user = locals.session?.user;
  if (user) {
    const priced = await locals.services.cart.price(user, market);
    if (priced.repricedFrom) text = message('market-chosen-repriced', market, priced.currency);
    // The cart's discount code is checked again in the new market: one that no longer applies came off, and the shopper is told.
    if (priced.repricedFrom && priced.discountDropped) text = message('market-chosen-code-dropped', market, priced.currency, market);
  }
  return { body: { status: true, message: text, data: { market } }, next: backTo(back, market, locals.publicOrigin) };
});
