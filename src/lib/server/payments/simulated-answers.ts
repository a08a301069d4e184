import { eq } from 'drizzle-orm';
import { Conflict, Invalid, NotFound } from '@/lib/domain/errors';
import type { OnlineChannel } from '@/lib/domain/payment-methods';
import { toMajor, type CurrencyCode } from '@/lib/domain/money';
import { message } from '@/lib/domain/messages';
import type { Db } from '@/lib/server/infra/db/client';
import { payments } from '@/lib/server/payments/tables';
import { channelsOf, returnUrl } from './pages';
import type { PaymentProvider } from './port';
import type { PaymentRows } from './rows';
import { differenceSnapshotSchema, paymentSnapshotSchema } from './snapshots';
import { PAYMENT_STATUSES } from '@/lib/domain/payments';

/**
 * The simulated provider's payment page: what it shows, and the shopper's answer kept on the
 * payment, which the simulated provider reads back through the port (simulated.ts).
 */
export function createSimulatedAnswers({ db, provider, rows }: { db: Db; provider: PaymentProvider; rows: PaymentRows }) {
  /** What the simulated payment page shows. */
  async function simulatedPayment(reference: string) {
    if (provider.name !== 'simulated') throw new NotFound(message('payment-unknown'));
    const [payment] = await db.select().from(payments).where(eq(payments.reference, reference)).limit(1);
    if (!payment) throw new NotFound(message('payment-unknown'));
    const snapshot = payment.purpose === 'checkout' ? paymentSnapshotSchema.parse(payment.snapshot) : differenceSnapshotSchema.parse(payment.snapshot);
    return {
      reference,
      email: payment.email,
      amount: toMajor(payment.amountMinor),
      currency: payment.currency as CurrencyCode,
      status: payment.status,
      itemCount: 'lines' in snapshot ? snapshot.lines.reduce((n, l) => n + l.quantity, 0) : 1,
      callbackUrl: snapshot.callbackUrl,
      channel: payment.channel,
      channels: channelsOf(payment.currency),
    };
  }

  /**
   * Pay (through one of the market's channels), "I have sent the money" (a bank transfer: pending
   * until the simulated provider confirms it), or Decline on the simulated page, kept on the
   * payment (so every app server sees it; the simulated provider reads it back through the port).
   * Only an unanswered payment changes. Returns where to send the shopper (like Paystack: ?trxref=&reference=).
   */
  async function answerSimulated(reference: string, outcome: 'pay' | 'sent' | 'decline', channel: OnlineChannel = outcome === 'sent' ? 'bank_transfer' : 'card'): Promise<string> {
    const payment = await simulatedPayment(reference);
    if (!payment.channels.includes(channel) || (outcome === 'sent') !== (channel === 'bank_transfer')) {
      throw new Invalid(message('payment-channel-not-offered'));
    }
    let answered: boolean;
    if (outcome === 'decline') {
      answered = await rows.settleWithoutOrder(eq(payments.reference, reference), PAYMENT_STATUSES.failed, eq(payments.status, PAYMENT_STATUSES.initialized));
    } else {
      answered = await rows.answer(reference, outcome === 'sent' ? PAYMENT_STATUSES.pending : PAYMENT_STATUSES.paid, channel);
    }
    if (!answered) throw new Conflict(message('payment-already-answered'));
    return returnUrl(payment.callbackUrl, reference);
  }

  return { simulatedPayment, answerSimulated };
}
