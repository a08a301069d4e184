/**
 * A payment's states (the `payments.status` column), by name: code compares and sets
 * `PAYMENT_STATUSES.paid`, never the bare word, so a state is found, and renamed, in one place.
 *
 * initialized → paid → fulfilled; or failed; or abandoned (never paid, given up by
 * reconciliation); or needs_refund when the order cannot be made after the money came (sold out
 * meanwhile). A refund makes it partially_refunded or refunded. pending: the shopper says the
 * money is on its way (a bank transfer); the provider confirms it later.
 */
export const PAYMENT_STATUSES = {
  /** Started: the shopper is on (or on the way to) the provider's page. */
  initialized: 'initialized',
  /** The shopper says the money is on its way (a transfer); the provider has not confirmed it yet. */
  pending: 'pending',
  /** The provider confirmed the money (or the payment charges nothing); the order is not made yet. */
  paid: 'paid',
  /** The order was made from it. */
  fulfilled: 'fulfilled',
  /** Declined, or given up before any money came. */
  failed: 'failed',
  /** Never paid: reconciliation gave up on it, or the transfer's window expired. */
  abandoned: 'abandoned',
  /** Money came but no order can be made (sold out meanwhile, a wrong amount): it is to be refunded. */
  needs_refund: 'needs_refund',
  /** Part of it went back. */
  partially_refunded: 'partially_refunded',
  /** All of it went back. */
  refunded: 'refunded',
} as const;

export type PaymentStatus = (typeof PAYMENT_STATUSES)[keyof typeof PAYMENT_STATUSES];

/** Every state, in the order above: the column's enum. */
export const PAYMENT_STATUS_LIST = Object.values(PAYMENT_STATUSES) as [PaymentStatus, ...PaymentStatus[]];

const { initialized, pending, paid, fulfilled, needs_refund, partially_refunded, refunded } = PAYMENT_STATUSES;

/** Still in motion: not yet an order nor settled without one (reconciliation looks at these; a cart with one is not cleaned away). */
export const OPEN_PAYMENT_STATUSES = [initialized, pending, paid] as const;
/** States that can have an order; an order found for one is the answer to fulfil. */
export const MAY_HAVE_ORDER = [fulfilled, partially_refunded, refunded] as const;
/** States that will never become an order (their money goes back). */
export const REFUND_STATES = [needs_refund, partially_refunded, refunded] as const;
/** States staff may refund from (what is left of them). */
export const REFUNDABLE = [fulfilled, needs_refund, partially_refunded] as const;

/** Whether `status` is one of `list` (a payment row's status is typed as its column's enum). */
export const isPaymentStatusIn = <T extends PaymentStatus>(list: readonly T[], status: string): status is T => (list as readonly string[]).includes(status);
