import { randomBytes } from 'node:crypto';
import { PaymentFailed } from '@/lib/domain/errors';
import type { Db } from '@/lib/server/infra/db/client';
import { runExclusively, scheduleJob, type ScheduledJob } from '@/lib/server/infra/jobs';
import type { Logger } from '@/lib/server/infra/log';
import type { PaymentProvider, PaymentRecords, Refund, Verification } from './port';
import type { PaymentService } from './service';
import { PAYMENT_STATUSES } from '@/lib/domain/payments';
import { fill } from '@/lib/domain/messages';

/** Paystack's own words for a refund it refuses, which the simulated provider answers alike. */
const PAYSTACK_SAYS = {
  notFound: 'Transaction not found',
  notSuccessful: 'Transaction was not successful',
  fullyReversed: 'Transaction has been fully reversed',
  tooMuch: 'Refund amount cannot be more than the amount left',
};

/** A simulated bank transfer is confirmed this long after the shopper says the money was sent, by default. */
export const DEFAULT_SIMULATED_TRANSFER_DELAY_MS = 5_000;

/**
 * A provider that runs inside the app: its payment page is /pay/simulated/{reference}, and the
 * shopper's choice there (a channel and Pay, "I have sent the money" for a bank transfer, or
 * Decline) is kept on the payment row by the payment service (answerSimulated), so it works across
 * several app servers; this adapter only reads it back through the port. The page is on the origin
 * of the callback URL: the store's public origin that the shopper uses (src/lib/server/checkout/checkout.ts).
 *
 * A bank transfer stays pending until `transferDelayMs` after the shopper said it was sent (the
 * moment is on the row, so every server agrees); from then on it verifies as paid, and the
 * simulated "webhook" (simulatedTransferConfirmations) turns it into an order.
 */
export function createSimulatedProvider({
  records,
  clock = () => new Date(),
  transferDelayMs = DEFAULT_SIMULATED_TRANSFER_DELAY_MS,
}: {
  records: PaymentRecords;
  clock?: () => Date;
  transferDelayMs?: number;
}): PaymentProvider {
  return {
    name: 'simulated',
    async initialize({ reference, callbackUrl }) {
      return { authorizationUrl: new URL(`/pay/simulated/${encodeURIComponent(reference)}`, callbackUrl).toString() };
    },
    async verify(reference): Promise<Verification> {
      const row = await records.find(reference);
      if (!row) return { status: 'unknown', amountMinor: 0, currency: '' };
      const status =
        row.status === PAYMENT_STATUSES.initialized || row.status === PAYMENT_STATUSES.abandoned
          ? 'abandoned'
          : row.status === PAYMENT_STATUSES.failed
            ? 'failed'
            : row.status === PAYMENT_STATUSES.pending && clock().getTime() < row.updatedAt.getTime() + transferDelayMs
              ? 'pending'
              : 'success';
      return { status, amountMinor: row.amountMinor, currency: row.currency, channel: row.channel };
    },
    /**
     * Like Paystack: only a paid payment, at most what is left of it; the refund itself is recorded on
     * the payment by the payment service. The store's records are this provider's only state, so a
     * keyed refund the store never recorded was never made: asked again, it answers the same id.
     */
    async refund(reference, amountMinor, _currency, key): Promise<Refund> {
      const row = await records.find(reference);
      if (!row) throw new PaymentFailed(fill('refund-refused-because', PAYSTACK_SAYS.notFound));
      if (row.status === PAYMENT_STATUSES.initialized || row.status === PAYMENT_STATUSES.failed || row.status === PAYMENT_STATUSES.abandoned || row.status === PAYMENT_STATUSES.pending) {
        throw new PaymentFailed(fill('refund-refused-because', PAYSTACK_SAYS.notSuccessful));
      }
      const left = row.amountMinor - row.refundedMinor;
      const amount = amountMinor ?? left;
      if (left <= 0) throw new PaymentFailed(fill('refund-refused-because', PAYSTACK_SAYS.fullyReversed));
      if (amount <= 0 || amount > left) throw new PaymentFailed(fill('refund-refused-because', PAYSTACK_SAYS.tooMuch));
      return { refundId: key ? `SIM-RF-${key}` : `SIM-RF-${randomBytes(6).toString('hex')}`, amountMinor: amount };
    },
  };
}

/** The advisory lock that lets one app server at a time send the simulated transfer confirmations ("MLST"). */
export const SIMULATED_TRANSFERS_LOCK_KEY = 0x4d4c5354;

/**
 * The simulated provider's webhook for bank transfers: pending transfers whose delay has passed
 * are fulfilled through the one `payments.fulfil` (order, stock, mail), as Paystack's
 * charge.success would. The due time is on the payment row, so a transfer confirmed by no one (a
 * crash, a restart) is picked up by the next run on any server; fulfil is exactly once, so two
 * servers running together still make one order. Reconciliation is the fallback.
 */
export function simulatedTransferConfirmations(deps: {
  db: Db;
  clock: () => Date;
  log: Logger;
  payments: Pick<PaymentService, 'pendingTransfers' | 'fulfil'>;
  transferDelayMs: number;
  useAdvisoryLock: boolean;
}) {
  const { db, clock, log, payments } = deps;
  async function confirmDue(): Promise<number> {
    let confirmed = 0;
    const due = await payments.pendingTransfers({ sentBefore: new Date(clock().getTime() - deps.transferDelayMs) });
    for (const { reference } of due) {
      try {
        if ((await payments.fulfil(reference)).created) confirmed++;
      } catch (err) {
        // Sold out meanwhile: fulfil queued the refund. Anything else is tried again next run.
        log.warn('simulated transfer confirmation did not place an order', { reference, err });
      }
    }
    return confirmed;
  }
  return {
    confirmDue(): Promise<number> {
      return runExclusively(db, { lockKey: SIMULATED_TRANSFERS_LOCK_KEY, useAdvisoryLock: deps.useAdvisoryLock, name: 'simulated transfers', log }, confirmDue, () => 0);
    },
  };
}

/** Runs the simulated transfer confirmations every so often (about half the delay, between 0.25 s and 2 s). */
export function startSimulatedTransferConfirmations(deps: Parameters<typeof simulatedTransferConfirmations>[0]): ScheduledJob {
  const job = simulatedTransferConfirmations(deps);
  const everyMs = Math.min(2_000, Math.max(250, deps.transferDelayMs / 2));
  return scheduleJob(() => job.confirmDue(), { log: deps.log, everyMinutes: everyMs / 60_000, name: 'simulated transfers' });
}
