import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { PaymentFailed } from '../../domain/errors';
import type { Db } from '../db/client';
import { payments } from '../db/schema';
import type { PaymentProvider, Refund, Verification } from './port';

/**
 * A provider that runs inside the app: its payment page is /pay/simulated/{reference},
 * and the shopper's choice there (Pay or Decline) is kept on the payment row, so it
 * works across several app servers. The page is on the origin of the callback URL: the store's
 * public origin that the shopper uses (src/lib/server/checkout.ts).
 */
export function createSimulatedProvider({ db }: { db: Db }): PaymentProvider {
  return {
    name: 'simulated',
    async initialize({ reference, callbackUrl }) {
      return { authorizationUrl: new URL(`/pay/simulated/${encodeURIComponent(reference)}`, callbackUrl).toString() };
    },
    async verify(reference): Promise<Verification> {
      const [row] = await db
        .select({ status: payments.status, amountMinor: payments.amountMinor, currency: payments.currency })
        .from(payments)
        .where(eq(payments.reference, reference))
        .limit(1);
      if (!row) return { status: 'unknown', amountMinor: 0, currency: '' };
      const status = row.status === 'initialized' || row.status === 'abandoned' ? 'abandoned' : row.status === 'failed' ? 'failed' : 'success';
      return { status, amountMinor: row.amountMinor, currency: row.currency };
    },
    /** Like Paystack: only a paid payment, at most what is left of it; the refund itself is recorded on the payment by the checkout. */
    async refund(reference, amountMinor): Promise<Refund> {
      const [row] = await db
        .select({ status: payments.status, amountMinor: payments.amountMinor, refundedMinor: payments.refundedMinor })
        .from(payments)
        .where(eq(payments.reference, reference))
        .limit(1);
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
    /** The shopper's answer on the payment page. Only an unanswered payment changes. */
    async recordOutcome(reference, outcome) {
      const rows = await db
        .update(payments)
        .set({ status: outcome === 'pay' ? 'paid' : 'failed', updatedAt: new Date() })
        .where(and(eq(payments.reference, reference), eq(payments.status, 'initialized')))
        .returning({ status: payments.status });
      return rows.length > 0;
    },
  };
}
