import type { OnlineChannel } from '@/lib/domain/payment-methods';

/** The payment provider port: the checkout talks to this, never to a provider directly. */
export interface InitializeInput {
  reference: string;
  email: string;
  /** Integer minor units (kobo, cents), as Paystack expects. */
  amountMinor: number;
  currency: string;
  callbackUrl: string;
  /** The channels the payment page offers: the market's (MARKET_CHANNELS). */
  channels: readonly OnlineChannel[];
}

export type VerificationStatus = 'success' | 'failed' | 'abandoned' | 'pending' | 'reversed' | 'unknown';

export interface Verification {
  status: VerificationStatus;
  amountMinor: number;
  currency: string;
  /** The channel the shopper paid (or is paying) through, as the provider reports it; null when unknown. */
  channel?: OnlineChannel | null;
}

export interface Refund {
  /** The provider's id for the refund. */
  refundId: string;
  /** What the provider will return to the shopper, in minor units. */
  amountMinor: number;
}

export interface PaymentProvider {
  readonly name: 'simulated' | 'paystack';
  initialize(input: InitializeInput): Promise<{ authorizationUrl: string }>;
  /** `currency` is the payment's: a provider with one account per market verifies through that market's. */
  verify(reference: string, currency?: string): Promise<Verification>;
  /**
   * Refunds a successful payment: in full without an amount, otherwise that many minor units.
   * Throws PaymentFailed when the provider refuses, and AppError 'unavailable' when it cannot
   * be reached (the refund may or may not have been made then).
   *
   * `key`: the store's key for this refund (an owed refund's id). Asked again with the same key (the
   * store died before it recorded the answer), the provider answers the refund it made, never a second.
   */
  refund(reference: string, amountMinor?: number, currency?: string, key?: string): Promise<Refund>;
}

/** A payment as the store keeps it (minor units). */
export interface PaymentRecord {
  status: string;
  amountMinor: number;
  refundedMinor: number;
  currency: string;
  channel: OnlineChannel | null;
  /** When the record last changed: a pending transfer's clock starts here. */
  updatedAt: Date;
}

/**
 * The store's payment records, read-only: what a provider that runs inside the store (the simulated
 * one) reads back instead of a provider's own state. Only the payment service writes payments
 * (their owner, src/lib/server/payments/rows.ts): the simulated page's Pay or Decline goes through
 * it (simulated-answers.ts).
 */
export interface PaymentRecords {
  find(reference: string): Promise<PaymentRecord | null>;
}
