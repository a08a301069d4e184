import { DEFAULT_MARKET, marketOfCurrency } from '@/lib/domain/markets';
import { MARKET_CHANNELS, type OnlineChannel } from '@/lib/domain/payment-methods';

/** Where a payment sends the shopper: the channels its payment page offers, and the page it returns to. */

/** The return page of a payment (like Paystack's redirect: ?trxref=&reference=). */
export function returnUrl(callbackUrl: string, reference: string): string {
  const back = new URL(callbackUrl);
  back.searchParams.set('trxref', reference);
  back.searchParams.set('reference', reference);
  return back.toString();
}

/** The channels a payment in `currency` is offered: its market's. */
export const channelsOf = (currency: string): readonly OnlineChannel[] => MARKET_CHANNELS[marketOfCurrency(currency)?.code ?? DEFAULT_MARKET];
