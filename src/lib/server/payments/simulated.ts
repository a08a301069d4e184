import { randomBytes } from 'node:crypto';
import { PaymentFailed } from '@/lib/domain/errors';
import type { PaymentProvider, PaymentRecords, Refund, Verification } from './port';

/**
 * A provider that runs inside the app: its payment page is /pay/simulated/{reference}, and the
 * shopper's choice there (Pay or Decline) is kept on the payment row by the payment service
 * (answerSimulated), so it works across several app servers; this adapter only reads it back through
 * the port. The page is on the origin of the callback URL: the store's public origin that the
 * shopper uses (src/lib/server/checkout/checkout.ts).
 */
export function createSimulatedProvider({ records }: { records: PaymentRecords }): PaymentProvider {
  return {
    name: 'simulated',
    async initialize({ reference, callbackUrl }) {
      return { authorizationUrl: new URL(`/pay/simulated/${encodeURIComponent(reference)}`, callbackUrl).toString() };
    },
    async verify(reference): Promise<Verification> {
      const row = await records.find(reference);
      if (!row) return { status: 'unknown', amountMinor: 0, currency: '' };
      const status = row.status === 'initialized' || row.status === 'abandoned' ? 'abandoned' : row.status === 'failed' ? 'failed' : 'success';
      return { status, amountMinor: row.amountMinor, currency: row.currency };
    },
    /** Like Paystack: only a paid payment, at most what is left of it; the refund itself is recorded on the payment by the payment service. */
    async refund(reference, amountMinor): Promise<Refund> {
      const row = await records.find(reference);
      if (!row) throw new PaymentFailed('The payment provider refused the refund: Transaction not found');
      if (row.status === 'initialized' || row.status === 'failed' || row.status === 'abandoned') {
        throw new PaymentFailed('The payment provider refused the refund: Transaction was not successful');
      }
      const left = row.amountMinor - row.refundedMinor;
      const amount = amountMinor ?? left;
      if (left <= 0) throw new PaymentFailed('The payment provider refused the refund: Transaction has been fully reversed');
      if (amount <= 0 || amount > left) throw new PaymentFailed('The payment provider refused the refund: Refund amount cannot be more than the amount left');
      return { refundId: `SIM-RF-${randomBytes(6).toString('hex')}`, amountMinor: amount };
    },
  };
}
