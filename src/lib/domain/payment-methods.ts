/**
 * How shoppers pay, defined once: the online channels Paystack offers per market, pay on
 * delivery, and how staff collect at the door. Labels are what order pages, mail and the API show.
 */
import type { MarketCode } from './markets';
import type { DeliveryOption } from './shipping';

/** Paystack's channel names (https://paystack.com/docs/payments/payment-channels/). */
export const ONLINE_CHANNELS = ['card', 'bank_transfer', 'ussd', 'bank', 'eft', 'capitec_pay'] as const;
export type OnlineChannel = (typeof ONLINE_CHANNELS)[number];

/** What an order records as its payment method: an online channel, pay on delivery (a deposit, if any, went online), or store credit covering it all. */
export const PAYMENT_METHODS = [...ONLINE_CHANNELS, 'on_delivery', 'store_credit'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  card: 'Card',
  bank_transfer: 'Bank transfer',
  ussd: 'USSD',
  bank: 'Bank',
  eft: 'Instant EFT',
  capitec_pay: 'Capitec Pay',
  on_delivery: 'Pay on delivery',
  store_credit: 'Store credit',
};

/** The channels each market's Paystack checkout offers, in the order shown. */
export const MARKET_CHANNELS: Record<MarketCode, readonly OnlineChannel[]> = {
  NG: ['card', 'bank_transfer', 'ussd', 'bank'],
  ZA: ['card', 'eft', 'capitec_pay'],
};

/** The shopper's choice on /place-order ("Payment method"). */
export const CHECKOUT_PAYMENT_CHOICES = ['online', 'on_delivery'] as const;
export type CheckoutPaymentChoice = (typeof CHECKOUT_PAYMENT_CHOICES)[number];
export const CHECKOUT_PAYMENT_CHOICE_LABELS: Record<CheckoutPaymentChoice, string> = {
  online: 'Pay online',
  on_delivery: 'Pay on delivery',
};

/** How staff record money taken at the door ("Delivered and paid"). */
export const COLLECTION_METHODS = ['cash', 'card', 'transfer'] as const;
export type CollectionMethod = (typeof COLLECTION_METHODS)[number];
export const COLLECTION_METHOD_LABELS: Record<CollectionMethod, string> = { cash: 'Cash', card: 'Card at the door', transfer: 'Transfer' };

/**
 * How each market's couriers take the money at the door (and the boutique at the counter), in
 * the order the shopper reads them; staff record a collection with one of these.
 */
export const MARKET_COLLECTION_METHODS: Record<MarketCode, readonly CollectionMethod[]> = {
  NG: ['cash', 'card', 'transfer'],
  ZA: ['cash', 'card', 'transfer'],
};

/** A shopper's words for each way to pay at the door. */
const DOOR_PAYMENT_WORDS: Record<CollectionMethod, string> = { cash: 'cash', card: 'card on a POS terminal', transfer: 'bank transfer' };

/**
 * The sentence checkout and the order confirmation mail use to say how an order paid on delivery is
 * paid at the door (or at the pickup point): "Our courier accepts cash, card on a POS terminal or
 * bank transfer at your door." Empty when the market names no method.
 */
export function doorPaymentSentence(methods: readonly CollectionMethod[], where: DeliveryOption): string {
  const words = [...new Set(methods)].map((m) => DOOR_PAYMENT_WORDS[m]);
  if (words.length === 0) return '';
  const list = words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]!}`;
  return where === 'collect' ? `The pickup point accepts ${list}.` : `Our courier accepts ${list} at your door.`;
}

export const COLLECTION_OUTCOMES = ['paid', 'refused'] as const;
export type CollectionOutcome = (typeof COLLECTION_OUTCOMES)[number];

/** Pay on delivery is not offered to a shopper with this many refused deliveries, until staff lift it. */
export const MAX_REFUSED_DELIVERIES = 2;

/**
 * A market's pay-on-delivery rules (minor units). They apply to a shopper's open pay-on-delivery
 * orders together with the new one: while they come to no more than `capMinor`, the whole order is
 * paid at the door; above it, up to `ceilingMinor`, `depositPercent` of the new order's total is
 * paid online first; above the ceiling, online only. At most `maxOpenOrders` may be open at once.
 * Staff change them in the back office (market_settings); these are the defaults.
 */
export interface PayOnDeliveryRules {
  enabled: boolean;
  capMinor: number;
  ceilingMinor: number;
  depositPercent: number;
  maxOpenOrders: number;
}

/** How many pay-on-delivery orders a shopper may have open at once, unless staff set otherwise. */
export const DEFAULT_MAX_OPEN_POD_ORDERS = 2;

export const DEFAULT_PAY_ON_DELIVERY_RULES: Record<MarketCode, PayOnDeliveryRules> = {
  // ₦250,000 whole on delivery; up to ₦3,000,000 with 30% paid first.
  NG: { enabled: true, capMinor: 25_000_000, ceilingMinor: 300_000_000, depositPercent: 30, maxOpenOrders: DEFAULT_MAX_OPEN_POD_ORDERS },
  // R3,000 whole on delivery; up to R40,000 with 30% paid first (the seed's rand prices are about naira / 80).
  ZA: { enabled: true, capMinor: 300_000, ceilingMinor: 4_000_000, depositPercent: 30, maxOpenOrders: DEFAULT_MAX_OPEN_POD_ORDERS },
};

/**
 * What the shopper's account says about pay on delivery: a verified phone, deliveries refused at
 * the door (the account's or its number's, whichever is more), and the pay-on-delivery orders still
 * open in the market (neither settled at the door nor cancelled, with payments on their way to
 * becoming one) and what they come to (their totals less store credit).
 */
export interface PayOnDeliveryStanding {
  phoneVerified: boolean;
  refusedDeliveries: number;
  openOrders: number;
  openMinor: number;
}

/** Why pay on delivery is not offered for an order (each with its text in messages.ts). */
export const POD_REFUSALS = ['pod-disabled', 'pod-above-ceiling', 'pod-refused-deliveries', 'pod-open-orders', 'pod-open-above-ceiling', 'phone-not-verified'] as const;
export type PayOnDeliveryRefusal = (typeof POD_REFUSALS)[number];

export type PayOnDeliveryTerms =
  /** `depositMinor` is paid online first (0 up to the cap), `dueMinor` at the door; they add up to the total. */
  | { allowed: true; depositMinor: number; dueMinor: number }
  | { allowed: false; reason: PayOnDeliveryRefusal };

/**
 * Whether an order of `totalMinor` may be paid on delivery under a market's rules, and how, counting
 * the shopper's open pay-on-delivery orders with it: while together they stay within the cap,
 * wholly at the door; above it, up to the ceiling, a deposit of `depositPercent` of this order's
 * total (rounded up to the minor unit) online first; above the ceiling, or with `maxOpenOrders`
 * open already, online only. Not for a shopper with MAX_REFUSED_DELIVERIES refusals, nor without a
 * verified phone (asked last: verifying it must be the one thing left to do when it is the reason).
 */
export function payOnDeliveryTerms(totalMinor: number, rules: PayOnDeliveryRules, standing: PayOnDeliveryStanding): PayOnDeliveryTerms {
  if (!rules.enabled) return { allowed: false, reason: 'pod-disabled' };
  if (totalMinor > rules.ceilingMinor) return { allowed: false, reason: 'pod-above-ceiling' };
  if (standing.refusedDeliveries >= MAX_REFUSED_DELIVERIES) return { allowed: false, reason: 'pod-refused-deliveries' };
  if (standing.openOrders >= rules.maxOpenOrders) return { allowed: false, reason: 'pod-open-orders' };
  const togetherMinor = standing.openMinor + totalMinor;
  if (togetherMinor > rules.ceilingMinor) return { allowed: false, reason: 'pod-open-above-ceiling' };
  if (!standing.phoneVerified) return { allowed: false, reason: 'phone-not-verified' };
  const depositMinor = togetherMinor > rules.capMinor ? Math.min(totalMinor, Math.ceil((totalMinor * rules.depositPercent) / 100)) : 0;
  return { allowed: true, depositMinor, dueMinor: totalMinor - depositMinor };
}

/** The id of checkout's PAY & PLACE ORDER button: what a step finished by a plain form post (the phone's code) comes back to. */
export const CHECKOUT_PAY_BUTTON = 'place-order-pay';
