import type { Db } from '@/lib/server/infra/db/client';
import type { Logger } from '@/lib/server/infra/log';
import { createStartPayment } from './attempts';
import { createCheckouts } from './checkouts';
import { createFulfilling } from './fulfil';
import type { PaymentProvider } from './port';
import { createPaymentQueues } from './queues';
import { createRefunds } from './refunds';
import { createPaymentRows } from './rows';
import { createSimulatedAnswers } from './simulated-answers';
import { NO_HOLDS, NO_LEDGER, type DifferenceFulfilment, type Fulfilment, type PaymentHolds, type RefundLedger } from './types';

/**
 * Payments (docs/decisions/0038): a payment is started (checkouts.ts, once per attempt through
 * attempts.ts), turned once into what it paid for (fulfil.ts), refunded (refunds.ts), answered on
 * the simulated page (simulated-answers.ts), and listed for reconciliation and the back office
 * (queues.ts, reconciliation.ts calls these). Every write of the payments table is a named step in
 * rows.ts, its one owner. Providers are adapters behind the port; they never write the table.
 * This puts the pieces together, each given only what it needs, as the one service callers hold.
 */

export interface PaymentServiceDeps {
  db: Db;
  provider: PaymentProvider;
  fulfilment: Fulfilment;
  log: Logger;
  clock: () => Date;
  holds?: PaymentHolds | undefined;
  /** Exchange differences; without it, such payments cannot be fulfilled. */
  differences?: DifferenceFulfilment | undefined;
  /** The order's money account, told of every refund (ADR 0021). */
  refundLedger?: RefundLedger | undefined;
}

export function createPaymentService(deps: PaymentServiceDeps) {
  const { db, provider, log, clock } = deps;
  const rows = createPaymentRows({ db, clock, holds: deps.holds ?? NO_HOLDS });
  const { fulfil, existingOrder } = createFulfilling({ db, provider, fulfilment: deps.fulfilment, differences: deps.differences, log, rows });
  const checkouts = createCheckouts({ db, provider, rows, startPayment: createStartPayment({ db, clock, rows }), fulfil });
  const queues = createPaymentQueues({ db, rows, existingOrder });
  const refunds = createRefunds({ db, provider, log, rows, refundLedger: deps.refundLedger ?? NO_LEDGER });
  const simulated = createSimulatedAnswers({ db, provider, rows });
  return { ...checkouts, fulfil, ...queues, ...refunds, ...simulated };
}
export type PaymentService = ReturnType<typeof createPaymentService>;
