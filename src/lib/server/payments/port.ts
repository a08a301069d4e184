/** The payment provider port: the checkout talks to this, never to a provider directly. */
export interface InitializeInput {
  reference: string;
  email: string;
  /** Integer minor units (kobo, cents), as Paystack expects. */
  amountMinor: number;
  currency: string;
  callbackUrl: string;
}

export type VerificationStatus = 'success' | 'failed' | 'abandoned' | 'pending' | 'reversed' | 'unknown';

export interface Verification {
  status: VerificationStatus;
  amountMinor: number;
  currency: string;
}

export interface PaymentProvider {
  readonly name: 'simulated' | 'paystack';
  initialize(input: InitializeInput): Promise<{ authorizationUrl: string }>;
  verify(reference: string): Promise<Verification>;
}
