import { and, asc, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { toMajor, type CurrencyCode } from '@/lib/domain/money';
import type { OrderDto } from '@/lib/domain/orders';
import { isPaymentStatusIn, MAY_HAVE_ORDER, OPEN_PAYMENT_STATUSES, PAYMENT_STATUSES } from '@/lib/domain/payments';
import type { Db } from '@/lib/server/infra/db/client';
import { orders } from '@/lib/server/orders/tables';
import { payments } from '@/lib/server/payments/tables';
import { type PaymentRow, type PaymentRows } from './rows';

/**
 * The payments as lists and states read by others: reconciliation's and the simulated transfers'
 * work (unsettled, awaitingRefund, pendingTransfers, abandon), the back office's refund queue and
 * stuck refunds, and the shopper's payments waiting for their money (waitingFor, waiting,
 * latestWaiting, checkoutState).
 */
export function createPaymentQueues({
  db,
  rows,
  existingOrder,
}: {
  db: Db;
  rows: PaymentRows;
  /** The order a payment already became, if any (fulfil.ts). */
  existingOrder: (payment: PaymentRow) => Promise<OrderDto | null>;
}) {
  return {
    /** Payments started before `startedBefore` still unanswered, pending (a transfer on its way), or paid without an order: reconciliation verifies these. Oldest first. */
    async unsettled({ startedBefore, limit = 100 }: { startedBefore: Date; limit?: number }) {
      return db
        .select({ reference: payments.reference, status: payments.status, createdAt: payments.createdAt })
        .from(payments)
        .where(and(inArray(payments.status, OPEN_PAYMENT_STATUSES), lte(payments.createdAt, startedBefore)))
        .orderBy(asc(payments.createdAt))
        .limit(limit);
    },

    /** The back office's refund queue: payments waiting for a refund, with what staff need to act on them. */
    async refundQueue({ limit = 50 }: { limit?: number } = {}) {
      return db
        .select({
          reference: payments.reference,
          email: payments.email,
          amountMinor: payments.amountMinor,
          refundedMinor: payments.refundedMinor,
          currency: payments.currency,
          inProgress: sql<boolean>`${payments.refundPendingMinor} is not null`,
          since: payments.updatedAt,
          orderId: orders.id,
        })
        .from(payments)
        .leftJoin(orders, eq(orders.paymentId, payments.id))
        .where(eq(payments.status, PAYMENT_STATUSES.needs_refund))
        .orderBy(asc(payments.updatedAt))
        .limit(limit);
    },

    /** Payments that could not become an order and wait for their refund (none in progress). */
    async awaitingRefund({ limit = 100 }: { limit?: number } = {}) {
      return db
        .select({ reference: payments.reference })
        .from(payments)
        .where(and(eq(payments.status, PAYMENT_STATUSES.needs_refund), isNull(payments.refundPendingMinor)))
        .orderBy(asc(payments.createdAt))
        .limit(limit);
    },

    /** Refunds claimed but never recorded (the provider's answer was lost): staff check these with the provider. */
    async stuckRefunds(claimedBefore: Date) {
      return db
        .select({ reference: payments.reference, pendingMinor: payments.refundPendingMinor, since: payments.updatedAt })
        .from(payments)
        .where(and(sql`${payments.refundPendingMinor} is not null`, lte(payments.updatedAt, claimedBefore)));
    },

    /**
     * Gives up on a payment the shopper never completed, or a transfer that never arrived (the
     * provider let its window expire). A late payment is still fulfilled by the webhook or the return.
     */
    async abandon(reference: string): Promise<boolean> {
      return rows.settleWithoutOrder(eq(payments.reference, reference), PAYMENT_STATUSES.abandoned, inArray(payments.status, [PAYMENT_STATUSES.initialized, PAYMENT_STATUSES.pending]));
    },

    /** Simulated bank transfers the shopper said were sent before `sentBefore`: due for the simulated provider's confirmation. */
    async pendingTransfers({ sentBefore, limit = 100 }: { sentBefore: Date; limit?: number }) {
      return db
        .select({ reference: payments.reference })
        .from(payments)
        .where(and(eq(payments.provider, 'simulated'), eq(payments.status, PAYMENT_STATUSES.pending), lte(payments.updatedAt, sentBefore)))
        .orderBy(asc(payments.updatedAt))
        .limit(limit);
    },

    /** The shopper's payments waiting for the provider to confirm them (transfers on their way), oldest first: the order history lists them. */
    async waitingFor(userId: string) {
      const rows = await db
        .select({ reference: payments.reference, amountMinor: payments.amountMinor, currency: payments.currency, channel: payments.channel, since: payments.updatedAt })
        .from(payments)
        .where(and(eq(payments.userId, userId), eq(payments.status, PAYMENT_STATUSES.pending)))
        .orderBy(asc(payments.updatedAt))
        .limit(20);
      return rows.map((r) => ({ reference: r.reference, amount: toMajor(r.amountMinor), currency: r.currency as CurrencyCode, channel: r.channel, since: r.since }));
    },

    /**
     * Where the shopper's checkout payment stands, read without asking the provider (the webhook,
     * the simulated confirmations and reconciliation move it): still waiting for the money, placed
     * as an order, or neither (failed, abandoned, someone else's, unknown).
     */
    async checkoutState(reference: string, userId: string): Promise<{ state: 'waiting'; amount: number; currency: CurrencyCode } | { state: 'placed'; orderId: string } | { state: 'none' }> {
      const [payment] = await db.select().from(payments).where(and(eq(payments.reference, reference), eq(payments.userId, userId))).limit(1);
      if (!payment || payment.purpose !== 'checkout') return { state: 'none' };
      if (payment.status === PAYMENT_STATUSES.pending) return { state: 'waiting', amount: toMajor(payment.amountMinor), currency: payment.currency as CurrencyCode };
      if (isPaymentStatusIn(MAY_HAVE_ORDER, payment.status)) {
        const order = await existingOrder(payment);
        if (order) return { state: 'placed', orderId: order.id };
      }
      return { state: 'none' };
    },

    /** The shopper's latest checkout payment waiting for its money (a transfer on its way), if any. */
    async latestWaiting(userId: string): Promise<string | null> {
      const [row] = await db
        .select({ reference: payments.reference })
        .from(payments)
        .where(and(eq(payments.userId, userId), eq(payments.status, PAYMENT_STATUSES.pending), eq(payments.purpose, 'checkout')))
        .orderBy(desc(payments.updatedAt))
        .limit(1);
      return row?.reference ?? null;
    },

    /** The shopper's payment while it waits for the provider to confirm it (a transfer on its way); null otherwise. */
    async waiting(reference: string, userId: string) {
      const [row] = await db
        .select({ amountMinor: payments.amountMinor, currency: payments.currency, channel: payments.channel })
        .from(payments)
        .where(and(eq(payments.reference, reference), eq(payments.userId, userId), eq(payments.status, PAYMENT_STATUSES.pending)))
        .limit(1);
      return row ? { amount: toMajor(row.amountMinor), currency: row.currency as CurrencyCode, channel: row.channel } : null;
    },
  };
}
