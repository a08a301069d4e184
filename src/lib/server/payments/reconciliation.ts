import { PaymentFailed } from '@/lib/domain/errors';
import type { Db } from '@/lib/server/infra/db/client';
import { runExclusively, scheduleJob, type ScheduledJob } from '@/lib/server/infra/jobs';
import type { Logger } from '@/lib/server/infra/log';
import type { OrderService } from '@/lib/server/orders/orders';
import type { PaymentService } from './service';
import { PAYMENT_STATUSES } from '@/lib/domain/payments';

/** The advisory lock that lets one app server at a time reconcile payments ("MLRC"). */
export const RECONCILIATION_LOCK_KEY = 0x4d4c5243;

export interface ReconcileReport {
  /** false when another app server holds the lock (it is doing the work). */
  ran: boolean;
  /** Orders placed for payments the provider confirmed but no one had fulfilled. */
  fulfilled: number;
  /** Declined or reversed at the provider (a transfer that failed too). */
  failed: number;
  /** Still not paid after PAYMENTS_ABANDON_AFTER_HOURS, or a pending transfer the provider gave up on. */
  abandoned: number;
  /** Not paid yet, looked at again next run. */
  waiting: number;
  /** needs_refund payments refunded through the provider. */
  refunded: number;
  /** Order confirmations lost by a crash, mailed now. */
  mailed: number;
  /** Not finished (provider unreachable, database error): tried again next run. */
  errors: number;
}

interface Deps {
  db: Db;
  clock: () => Date;
  log: Logger;
  payments: Pick<PaymentService, 'unsettled' | 'awaitingRefund' | 'fulfil' | 'abandon' | 'refund' | 'stuckRefunds'>;
  /** Mails order confirmations a crash lost, when given. */
  orders?: Pick<OrderService, 'mailLostConfirmations'>;
  /** PostgreSQL server: serialise runs across app servers with an advisory lock. PGlite is one process. */
  useAdvisoryLock: boolean;
  afterMinutes: number;
  abandonAfterHours: number;
}

const MINUTE = 60_000;

/** A report with nothing counted yet; `ran: false` is a run skipped because another app server holds the lock. */
const emptyReport = (ran: boolean): ReconcileReport => ({ ran, fulfilled: 0, failed: 0, abandoned: 0, waiting: 0, refunded: 0, mailed: 0, errors: 0 });

/**
 * Payments that are never lost: every payment still unanswered (or paid without an order)
 * some minutes after it started is verified with the provider and fulfilled through the one
 * `fulfil` path, or marked failed or abandoned; payments that could not become an order are
 * refunded through the provider. Only the payment service writes the payments table; this calls it.
 */
export function createReconciliation(deps: Deps) {
  const { db, clock, log, payments, orders } = deps;

  async function reconcileAll(): Promise<ReconcileReport> {
    const report = emptyReport(true);
    const now = clock().getTime();
    const unsettled = await payments.unsettled({ startedBefore: new Date(now - deps.afterMinutes * MINUTE) });
    for (const payment of unsettled) {
      try {
        const { created } = await payments.fulfil(payment.reference);
        if (created) {
          report.fulfilled++;
          log.warn('reconciliation placed an order no one had placed', { reference: payment.reference });
        }
      } catch (err) {
        const status = err instanceof PaymentFailed ? err.details?.paymentStatus : undefined;
        if (status === 'failed' || status === 'reversed') report.failed++;
        else if (status === 'abandoned' || status === 'pending' || status === 'unknown') {
          // A transfer the shopper sent that the provider now calls abandoned never arrived (its window expired): settled now.
          const expired = payment.status === PAYMENT_STATUSES.pending && status === 'abandoned';
          const old = payment.createdAt.getTime() <= now - deps.abandonAfterHours * 60 * MINUTE;
          if ((expired || old) && (await payments.abandon(payment.reference))) report.abandoned++;
          else report.waiting++;
        } else if (err instanceof PaymentFailed) {
          // A final outcome without a verification status: the amount did not match or it sold out; refunded below.
        } else {
          report.errors++;
          log.error('reconciliation could not settle a payment', { reference: payment.reference, err });
        }
      }
    }
    for (const payment of await payments.awaitingRefund()) {
      try {
        await payments.refund(payment.reference);
        report.refunded++;
      } catch (err) {
        report.errors++;
        log.error('reconciliation could not refund a payment', { reference: payment.reference, err });
      }
    }
    if (orders) {
      try {
        report.mailed = await orders.mailLostConfirmations({ placedBefore: new Date(now - deps.afterMinutes * MINUTE) });
        if (report.mailed) log.warn('reconciliation mailed order confirmations a crash had lost', { count: report.mailed });
      } catch (err) {
        report.errors++;
        log.error('reconciliation could not mail lost confirmations', { err });
      }
    }
    for (const stuck of await payments.stuckRefunds(new Date(now - 60 * MINUTE))) {
      log.error('a refund claim has no recorded outcome; check it with the provider', { reference: stuck.reference, since: stuck.since });
    }
    if (report.fulfilled || report.failed || report.abandoned || report.refunded || report.mailed || report.errors) log.info('payments reconciled', { ...report });
    return report;
  }

  const lock = { lockKey: RECONCILIATION_LOCK_KEY, useAdvisoryLock: deps.useAdvisoryLock, name: 'reconciliation', log };
  return {
    reconcile: (): Promise<ReconcileReport> => runExclusively(db, lock, reconcileAll, () => emptyReport(false)),
  };
}
export type Reconciliation = ReturnType<typeof createReconciliation>;

/** Runs reconciliation now and then every `everyMinutes` (see scheduleJob). */
export function scheduleReconciliation(reconciliation: Pick<Reconciliation, 'reconcile'>, { log, everyMinutes }: { log: Logger; everyMinutes: number }): ScheduledJob {
  return scheduleJob(() => reconciliation.reconcile(), { log, everyMinutes, name: 'reconciliation' });
}

/** Builds the job for a store from its configuration. */
export function reconciliationFor(services: {
  db: Db;
  clock: () => Date;
  log: Logger;
  config: { DATABASE_URL?: string | undefined; PAYMENTS_RECONCILE_AFTER_MINUTES: number; PAYMENTS_ABANDON_AFTER_HOURS: number };
  payments: PaymentService;
  orders: OrderService;
}): Reconciliation {
  const { db, clock, log, payments, orders, config } = services;
  return createReconciliation({
    db,
    clock,
    log,
    payments,
    orders,
    useAdvisoryLock: Boolean(config.DATABASE_URL),
    afterMinutes: config.PAYMENTS_RECONCILE_AFTER_MINUTES,
    abandonAfterHours: config.PAYMENTS_ABANDON_AFTER_HOURS,
  });
}

/** Starts scheduled reconciliation for a booted store (called once from boot()). */
export function startReconciliation(services: Parameters<typeof reconciliationFor>[0] & { config: { PAYMENTS_RECONCILE_EVERY_MINUTES: number } }) {
  return scheduleReconciliation(reconciliationFor(services), { log: services.log, everyMinutes: services.config.PAYMENTS_RECONCILE_EVERY_MINUTES });
}
