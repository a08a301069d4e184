import type { OnlineChannel } from '@/lib/domain/payment-methods';
import type { CurrencyCode } from '@/lib/domain/money';
import type { OrderDto } from '@/lib/domain/orders';
import type { Tx } from '@/lib/server/infra/db/client';
import type { PaymentSnapshot } from './snapshots';
import { PAYMENT_STATUSES } from '@/lib/domain/payments';

/**
 * What the payment service and its callers share: what a payment becomes (Fulfilment,
 * DifferenceFulfilment), how checkout starts one (CheckoutStart), what it holds and whom a refund
 * tells (PaymentHolds, RefundLedger), and what its calls answer.
 */

/** What a paid exchange difference becomes: its return marked paid (src/lib/server/aftersales/returns/). */
export interface DifferenceFulfilment {
  /** Inside the payment's row lock: records the difference paid on the return and returns its order's id; CannotFulfil when the return no longer waits for it. */
  place(tx: Tx, payment: { id: string; returnId: string; amountMinor: number; currency: string }): Promise<string>;
  /** The order of a return (in `tx` when given). */
  orderOfReturn(returnId: string, tx?: Tx): Promise<string | null>;
  /** The order as its owner sees it. */
  order(orderId: string): Promise<OrderDto>;
}

/** A payment the provider confirmed, as its fulfilment needs it. */
export interface ConfirmedPayment {
  id: string;
  reference: string;
  userId: string;
  cartId: string;
  currency: string;
  snapshot: PaymentSnapshot;
  /** The channel the provider reports it was paid through (null: not reported). */
  channel: OnlineChannel | null;
}

/** Why a confirmed payment cannot become what it paid for (logged, so the operator reads the real cause). */
export type CannotFulfilReason =
  | 'out_of_stock'
  /** The checkout's promotion code: its held place went to a newer payment and none is left. */
  | 'code_taken'
  /** The store credit the checkout spent was given back meanwhile. */
  | 'credit_given_back'
  /** An exchange difference for a return that no longer waits for it. */
  | 'return_not_waiting'
  /** Pay on delivery: the shopper's other orders placed meanwhile took the open-orders limit or the ceiling. */
  | 'pod_limit';

/** The payment cannot become what it paid for (`label` sold out while paying): it goes to refund. */
export class CannotFulfil extends Error {
  constructor(
    readonly reason: CannotFulfilReason,
    readonly label?: string,
  ) {
    super(label ? `${reason}: ${label}` : reason);
  }
}

/** What a confirmed payment becomes: the checkout's order (src/lib/server/checkout/checkout.ts). */
export interface Fulfilment {
  /** The order already made from this payment, if any (in `tx` when given: under the payment's row lock). */
  orderOf(paymentId: string, tx?: Tx): Promise<OrderDto | null>;
  /** Inside the payment's row lock: makes the order and returns its id; throws CannotFulfil when it cannot. */
  place(tx: Tx, payment: ConfirmedPayment): Promise<string>;
  /** After the commit, once, for the call that made the order (mail, caches): the order as its owner sees it. */
  placed(orderId: string, payment: ConfirmedPayment): Promise<OrderDto>;
}

/**
 * One attempt at a checkout (docs/decisions/0020): the shopper's key for it, if the form or client
 * sent one (a resend with the key answers the payment it started), a digest of what it asked for
 * (the same key asking for something else is refused), and the cart's row lock, taken first in the
 * transaction that creates the payment so that two starts of one cart go one after the other.
 */
export interface CheckoutAttempt {
  key: string | null;
  /** What the attempt asked for (its choices, not the cart): kept as a digest beside the key. */
  request: Record<string, unknown>;
  /** Takes the cart's row lock and returns what the cart holds now. */
  lockCart(tx: Tx): Promise<{ variantId: number; quantity: number }[]>;
}

/** A checkout's payment, as checkout starts it. */
export interface CheckoutStart {
  userId: string;
  email: string;
  currency: CurrencyCode;
  snapshot: PaymentSnapshot;
  /** Runs in the transaction that creates the payment row (a discount code's place, store credit); throwing refuses the payment. */
  hold?: ((tx: Tx, paymentId: string) => Promise<void>) | undefined;
  /** Pay on delivery's limits in that transaction: `lock` first of all (the shopper's row, before the cart's), `check` before the payment row; throwing refuses the payment. */
  guard?: CheckoutGuard | undefined;
  attempt?: CheckoutAttempt | undefined;
}

export interface CheckoutGuard {
  lock(tx: Tx): Promise<void>;
  check(tx: Tx): Promise<void>;
}

/** How a checkout is paid now: online through the provider, or nothing now (wholly on delivery, or store credit covering it). */
export type CheckoutCharge = 'online' | 'on_delivery' | 'store_credit';

/** The payment a key started, as a resend of that attempt needs it. */
export interface StartedAttempt {
  reference: string;
  provider: string;
  userId: string;
  requestDigest: string | null;
}

export interface InitiateResult {
  reference: string;
  authorization_url: string;
  amount: number;
  currency: CurrencyCode;
}

export interface RefundResult {
  reference: string;
  status: typeof PAYMENT_STATUSES.refunded | typeof PAYMENT_STATUSES.partially_refunded;
  /** Paid, refunded in total so far, and refunded by this call (0 when it was already refunded), in minor units. */
  amountMinor: number;
  refundedMinor: number;
  refundedNowMinor: number;
  currency: string;
  refundId: string | null;
  refundedAt: Date | null;
}

/**
 * What a waiting payment holds besides its row: a discount code's place under its limits
 * (src/lib/server/promotions/limits.ts). Taken in the transaction that creates the payment
 * (initiate's `hold`), given back in the transaction that settles a payment without an order
 * (failed, declined, abandoned, or paid but impossible to fulfil). Idempotent.
 */
export interface PaymentHolds {
  release(tx: Tx, paymentId: string): Promise<void>;
}
export const NO_HOLDS: PaymentHolds = { release: async () => {} };

/**
 * The account of what a refund gives back (the order's money, src/lib/server/orders/order-money.ts):
 * told, in the payment's own transactions, when a refund is claimed (it may refuse: more than the
 * order has left), let go, and recorded with the amount the provider refunded.
 */
export interface RefundLedger {
  claimed(tx: Tx, payment: { id: string; currency: string }, amountMinor: number): Promise<void>;
  released(tx: Tx, payment: { id: string; currency: string }, amountMinor: number): Promise<void>;
  recorded(tx: Tx, payment: { id: string; currency: string }, claimedMinor: number, refundedMinor: number): Promise<void>;
}
export const NO_LEDGER: RefundLedger = { claimed: async () => {}, released: async () => {}, recorded: async () => {} };

/** Runs inside a refund claim's transaction, with the amount claimed (see refund). */
export type RefundClaimHook = (tx: Tx, claim: { amountMinor: number }) => Promise<void>;

