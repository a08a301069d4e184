import type { LockerOffer } from '@/lib/domain/lockers';
import type { CheckoutPaymentChoice, PayOnDeliveryRefusal, PayOnDeliveryRules, PayOnDeliveryStanding } from '@/lib/domain/payment-methods';
import type { ApiDeliveryOption } from '@/lib/domain/shipping';

/** What the server made of the return from the provider (?reference=), shown with or without scripts. */
export interface ReturnOutcome {
  placed?: { id: string; trackingNumber: string };
  error?: string;
  /** The payment is pending (a bank transfer on its way): the order appears once the provider confirms it. */
  waiting?: Waiting;
  /** The server ran fulfil(reference) for this return: the island shows the outcome and does not place the order again. */
  answered: boolean;
}

/** A payment waiting for its money: the amount as shown and its reference (to ask whether it arrived). */
export interface Waiting {
  amount: string;
  reference: string;
}

/** Pay on delivery for this shopper in this market: the rules, the account's standing, and the text of each refusal. */
export interface PayOnDeliveryOffer {
  rules: PayOnDeliveryRules;
  standing: PayOnDeliveryStanding;
  refusals: Record<PayOnDeliveryRefusal, string>;
  /** The choice the page opened with (?payment=on_delivery). */
  initial: CheckoutPaymentChoice;
  /** How the courier, or the boutique, takes the money (doorPaymentSentence for the market). */
  doorPayment: Record<ApiDeliveryOption, string>;
}

/** "Collect from a PUDO locker": the lockers nearest the delivery address, and the one the page came back with. */
export interface LockersAtCheckout {
  offer: LockerOffer;
  chosen: string | null;
}
