/**
 * The checkout's totals, pure and in minor units: the cart as the server priced it (its quote),
 * with the choices made at checkout on top. The server charges by this rule (checkout's initiate)
 * and the checkout island shows its answer, so the figure shown is the figure charged.
 */
import { creditToUse } from './after-sales';

/** The cart's figures as the server priced them (minor units of the cart's currency). */
export interface CartQuote {
  subtotalMinor: number;
  discountMinor: number;
  deliveryFeeMinor: number;
  /** subtotal - discount + delivery fee. */
  totalMinor: number;
}

/** What the shopper chose at checkout that changes the money. */
export interface CheckoutChoices {
  /** A PUDO locker's fee, which stands in for the delivery speed's; null when delivering to the door. */
  lockerFeeMinor: number | null;
  /** Gift wrapping's fee when asked for; 0 otherwise. */
  giftWrapMinor: number;
  /** The store credit the shopper chose to use (their balance), 0 when not used. */
  storeCreditMinor: number;
}

export interface CheckoutTotals extends CartQuote {
  giftWrapMinor: number;
  /** The store credit that comes off the total: at most the total. */
  creditMinor: number;
  /** What is left to pay (online or on delivery) once the credit is used. */
  leftMinor: number;
}

export function checkoutTotals(quote: CartQuote, choices: CheckoutChoices): CheckoutTotals {
  const deliveryFeeMinor = choices.lockerFeeMinor ?? quote.deliveryFeeMinor;
  const totalMinor = quote.totalMinor - quote.deliveryFeeMinor + deliveryFeeMinor + choices.giftWrapMinor;
  const creditMinor = creditToUse(choices.storeCreditMinor, totalMinor);
  return {
    subtotalMinor: quote.subtotalMinor,
    discountMinor: quote.discountMinor,
    deliveryFeeMinor,
    giftWrapMinor: choices.giftWrapMinor,
    totalMinor,
    creditMinor,
    leftMinor: totalMinor - creditMinor,
  };
}
