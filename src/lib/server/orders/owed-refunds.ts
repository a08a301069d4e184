import { and, desc, eq, inArray } from 'drizzle-orm';
import { AppError, Invalid, NotFound, PaymentFailed } from '@/lib/domain/errors';
import { message } from '@/lib/domain/messages';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { orders, owedRefunds } from '@/lib/server/orders/tables';
import { payments } from '@/lib/server/payments/tables';
import { backoffMs, dueRow, leaseOf, runClaimed } from '@/lib/server/infra/leased-work';
import type { Logger } from '@/lib/server/infra/log';
import type { PaymentService } from '@/lib/server/payments/service';
import { lockedOrderMoney, recordOrderMoney } from './order-money';
import { UUID } from '@/lib/domain/validation';

/**
 * Refunds an order owes (ADR 0024), the one writer of `owed_refunds`. A refund is owed in the
 * transaction that owes it (oweRefund: a row, and its amount in the order's account at once, so
 * nothing else can give the same money back meanwhile); a worker on every server pays it. Workers
 * claim rows with FOR UPDATE SKIP LOCKED and a lease, so two never take the same row at once; a
 * worker that dies leaves its lease to run out and the row is taken again. The provider is asked
 * with the row's id as the refund's key, and the payment keeps the key of its claim in progress,
 * so a row taken again finishes the refund it started instead of paying a second one.
 */

export type OwedRefundStatus = (typeof owedRefunds.$inferSelect)['status'];
export type RefundDestination = (typeof owedRefunds.$inferSelect)['destination'];
export const OWED_REFUND_STATUSES = ['owed', 'paid', 'failed', 'stuck'] as const satisfies readonly OwedRefundStatus[];

/** Attempts before a refused refund is failed (or one with no answer is stuck) and left to staff. */
export const MAX_REFUND_ATTEMPTS = 6;
/** How long a worker holds a row it is paying: longer than a provider call with its timeout. */
export const REFUND_LEASE_MS = 2 * 60_000;

/** Waits before the next attempt: 30 s, then doubling, at most 6 h. */
export function refundBackoffMs(attempts: number): number {
  return backoffMs(attempts, { firstMs: 30_000, maxMs: 6 * 3_600_000 });
}

export interface OwedRefundEntry {
  orderId: string;
  /** The payment it goes back to (destination 'payment'). */
  paymentId?: string | null;
  returnId?: string | null;
  amountMinor: number;
  currency: string;
  destination: RefundDestination;
  reason: string;
}

/**
 * Records a refund owed, in the caller's transaction (which holds the order's row lock). Back to a
 * payment: its amount goes into the order's account as refunded now, never more than the order has
 * left (the amount is cut to it; nothing is owed for 0), and the worker pays it. To store credit:
 * the caller has credited it in the same transaction, so the row is paid already. Returns the row's
 * id and amount, or null when nothing is owed.
 */
export async function oweRefund(tx: Tx, entry: OwedRefundEntry, at: Date): Promise<{ id: string; amountMinor: number } | null> {
  let amount = entry.amountMinor;
  if (entry.destination === 'payment') {
    if (!entry.paymentId) throw new Error('a refund owed to a payment without its payment');
    amount = Math.min(amount, (await lockedOrderMoney(tx, entry.orderId)).leftMinor);
    if (amount <= 0) return null;
    await recordOrderMoney(tx, { orderId: entry.orderId, kind: 'refunded', amountMinor: amount, currency: entry.currency, paymentId: entry.paymentId, returnId: entry.returnId ?? null, reason: entry.reason }, at);
  }
  if (amount <= 0) return null;
  const paid = entry.destination === 'store_credit';
  const [row] = await tx
    .insert(owedRefunds)
    .values({
      orderId: entry.orderId,
      paymentId: entry.paymentId ?? null,
      returnId: entry.returnId ?? null,
      amountMinor: amount,
      currency: entry.currency,
      destination: entry.destination,
      reason: entry.reason,
      status: paid ? 'paid' : 'owed',
      nextAttemptAt: at,
      paidAt: paid ? at : null,
      lastAnswer: paid ? 'Added to store credit' : null,
      createdAt: at,
      updatedAt: at,
    })
    .returning({ id: owedRefunds.id });
  return { id: row!.id, amountMinor: amount };
}

type OwedRow = typeof owedRefunds.$inferSelect;

export function createOwedRefunds(deps: {
  db: Db;
  clock?: () => Date;
  log: Logger;
  payments: Pick<PaymentService, 'refund'>;
  leaseMs?: number;
}) {
  const { db, log } = deps;
  const clock = deps.clock ?? (() => new Date());
  const leaseMs = deps.leaseMs ?? REFUND_LEASE_MS;

  /** Takes one due row for this worker (skipping rows another worker holds), or null. */
  async function claim(): Promise<OwedRow | null> {
    const now = clock();
    const [row] = await db
      .update(owedRefunds)
      .set(leaseOf(owedRefunds, now, leaseMs))
      .where(inArray(owedRefunds.id, dueRow(db, { table: owedRefunds, ...owedRefunds }, 'owed', now)))
      .returning();
    return row ?? null;
  }

  async function settle(row: OwedRow, set: Partial<OwedRow>) {
    await db
      .update(owedRefunds)
      .set({ ...set, leaseUntil: null, updatedAt: clock() })
      .where(and(eq(owedRefunds.id, row.id), eq(owedRefunds.status, 'owed')));
  }

  /** Pays a claimed row through the payment's refund, keyed by the row's id; the outcome goes on the row. */
  async function pay(row: OwedRow): Promise<OwedRefundStatus> {
    const [payment] = await db.select({ reference: payments.reference }).from(payments).where(eq(payments.id, row.paymentId!)).limit(1);
    try {
      if (!payment) throw new Invalid(message('owed-refund-payment-gone'));
      const result = await deps.payments.refund(payment.reference, row.amountMinor, { key: row.id, accounted: true });
      await settle(row, { status: 'paid', paidAt: clock(), lastAnswer: result.refundId ? `Refunded (${result.refundId})` : 'Refunded' });
      log.info('owed refund paid', { owedRefundId: row.id, orderId: row.orderId, amountMinor: row.amountMinor });
      return 'paid';
    } catch (err) {
      const answer = err instanceof Error ? err.message : String(err);
      // Refused (or refused by the store: more than the payment has left): tried again later, then left to staff.
      // No answer: the payment keeps the keyed claim; the next attempt asks again with the same key.
      const refused = err instanceof PaymentFailed || err instanceof Invalid;
      const unknown = !refused && !(err instanceof AppError && err.code === 'conflict');
      const last = row.attempts >= MAX_REFUND_ATTEMPTS || (err instanceof Invalid);
      const status: OwedRefundStatus = last ? (unknown ? 'stuck' : 'failed') : 'owed';
      await settle(row, { status, lastAnswer: answer.slice(0, 500), nextAttemptAt: new Date(clock().getTime() + refundBackoffMs(row.attempts)) });
      log.warn('owed refund not paid', { owedRefundId: row.id, orderId: row.orderId, attempts: row.attempts, status, err });
      return status;
    }
  }

  return {
    /** Pays what is due, one row at a time, at most `limit` rows; returns how many were paid. */
    async runDue({ limit = 20 }: { limit?: number } = {}): Promise<number> {
      return runClaimed(claim, async (row) => (await pay(row)) === 'paid', limit);
    },

    /** Takes a due row without paying it (tests: a worker that dies after its claim). */
    claim,

    /** Staff: a failed or stuck refund is owed again, due now. */
    async retry(id: string): Promise<void> {
      if (!UUID.test(id)) throw new NotFound(message('owed-refund-not-found'));
      const rows = await db
        .update(owedRefunds)
        .set({ status: 'owed', attempts: 0, nextAttemptAt: clock(), leaseUntil: null, updatedAt: clock() })
        .where(and(eq(owedRefunds.id, id), inArray(owedRefunds.status, ['failed', 'stuck'])))
        .returning({ id: owedRefunds.id });
      if (!rows.length) throw new NotFound(message('owed-refund-not-found'));
    },

    /** The back office's list: newest first, with the order's tracking number and the payment's reference. */
    async list({ status, limit = 100 }: { status?: OwedRefundStatus | undefined; limit?: number } = {}) {
      return db
        .select({
          id: owedRefunds.id,
          orderId: owedRefunds.orderId,
          trackingNumber: orders.trackingNumber,
          reference: payments.reference,
          amountMinor: owedRefunds.amountMinor,
          currency: owedRefunds.currency,
          destination: owedRefunds.destination,
          reason: owedRefunds.reason,
          status: owedRefunds.status,
          attempts: owedRefunds.attempts,
          nextAttemptAt: owedRefunds.nextAttemptAt,
          lastAnswer: owedRefunds.lastAnswer,
          paidAt: owedRefunds.paidAt,
          createdAt: owedRefunds.createdAt,
        })
        .from(owedRefunds)
        .innerJoin(orders, eq(orders.id, owedRefunds.orderId))
        .leftJoin(payments, eq(payments.id, owedRefunds.paymentId))
        .where(status ? eq(owedRefunds.status, status) : undefined)
        .orderBy(desc(owedRefunds.createdAt))
        .limit(limit);
    },

    /** An order's refunds owed, oldest first. */
    async forOrder(orderId: string) {
      return db.select().from(owedRefunds).where(eq(owedRefunds.orderId, orderId)).orderBy(owedRefunds.createdAt);
    },
  };
}
export type OwedRefunds = ReturnType<typeof createOwedRefunds>;
