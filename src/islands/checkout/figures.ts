import { checkoutTotals, type CheckoutTotals } from '@/lib/domain/checkout-totals';
import { payOnDeliveryTerms, type PayOnDeliveryTerms } from '@/lib/domain/payment-methods';
import type { GiftOffer } from '@/components/GiftFields';
import type { CheckoutState } from './store';
import type { LockersAtCheckout, PayOnDeliveryOffer } from './types';

/** What the page offers at checkout, as the server sent it (fees and balances in minor units). */
export interface CheckoutOffers {
  lockers: LockersAtCheckout | null;
  gift: GiftOffer | null;
  /** The shopper's store credit in the market's currency; 0 without any. */
  storeCreditMinor: number;
  payOnDelivery: PayOnDeliveryOffer | null;
  /** "incl. VAT" beside the total where the market is registered. */
  vatNote: string | null;
}

export interface CheckoutFigures {
  /** The locker the parcel goes to: one is ticked and Delivery is chosen. */
  toLocker: string | undefined;
  /** The totals as the server charges them, the store credit the shopper may use included. */
  totals: CheckoutTotals;
  /** The credit that comes off when "Use my store credit" is ticked. */
  creditUsed: number;
  creditCoversAll: boolean;
  /** What paying on delivery means for this total (it follows the delivery choice). */
  terms: PayOnDeliveryTerms | null;
  /** Pay on delivery is chosen and nothing is paid now. */
  wholeOnDelivery: boolean;
}

/** The locker the parcel goes to: one is ticked and Delivery is chosen. */
export function lockerFor(s: Pick<CheckoutState, 'option' | 'locker'>): string | undefined {
  return s.option === 'delivery' && s.locker !== null ? s.locker : undefined;
}

/** The checkout's figures for the choices made: the server's quote and the server's rule (checkoutTotals), in minor units. */
export function checkoutFigures(s: CheckoutState, offers: CheckoutOffers): CheckoutFigures {
  const { lockers, gift, payOnDelivery } = offers;
  const toLocker = lockerFor(s);
  const totals = checkoutTotals(s.cart.quote, {
    lockerFeeMinor: toLocker && lockers ? lockers.offer.feeMinor : null,
    giftWrapMinor: gift && s.gift.on && s.gift.wrap ? gift.wrapFeeMinor : 0,
    storeCreditMinor: offers.storeCreditMinor,
  });
  const creditUsed = s.useCredit ? totals.creditMinor : 0;
  const creditCoversAll = creditUsed > 0 && creditUsed >= totals.totalMinor;
  const terms = payOnDelivery ? payOnDeliveryTerms(totals.totalMinor, payOnDelivery.rules, payOnDelivery.standing) : null;
  const wholeOnDelivery = s.method === 'on_delivery' && terms?.allowed === true && terms.depositMinor === 0;
  return { toLocker, totals, creditUsed, creditCoversAll, terms, wholeOnDelivery };
}
