import { and, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { OnlineChannel } from '@/lib/domain/payment-methods';
import { PAYMENT_STATUSES } from '@/lib/domain/payments';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { payments } from '@/lib/server/payments/tables';
import type { PaymentRecords } from './port';
import type { PaymentHolds } from './types';

/**
 * The payments table's one owner: every write of a payment row is a named step of its life here
 * (started, failed to start, answered, pending, fulfilled, settled without an order, a refund
 * claimed, let go and recorded, anonymised). The service's feature modules (attempts, checkouts,
 * fulfil, refunds, queues, simulated-answers) read rows and take row locks themselves, and write
 * through these steps, so a rule about what a status change also does (a payment settled without
 * an order gives its holds back) lives in one place.
 */

const { initialized, pending, paid, fulfilled, failed, abandoned, needs_refund, partially_refunded, refunded } = PAYMENT_STATUSES;

export type PaymentRow = typeof payments.$inferSelect;

export function createPaymentRows({ db, clock, holds }: { db: Db; clock: () => Date; holds: PaymentHolds }) {
  /** A payment that will never become an order: its new status and its holds given back, together. */
  async function settleWithoutOrder(payment: SQL, status: typeof failed | typeof abandoned | typeof needs_refund, from: SQL | undefined): Promise<boolean> {
    return db.transaction(async (tx) => {
      const rows = await tx
        .update(payments)
        .set({ status, updatedAt: clock() })
        .where(and(payment, from))
        .returning({ id: payments.id });
      for (const row of rows) await holds.release(tx, row.id);
      return rows.length > 0;
    });
  }

  return {
    /** A new payment, in the transaction that takes its holds (its clock: reconciliation measures a payment's age on it). */
    async insert(tx: Tx, values: Omit<typeof payments.$inferInsert, 'createdAt' | 'updatedAt'>): Promise<string> {
      const [row] = await tx
        .insert(payments)
        .values({ ...values, createdAt: clock(), updatedAt: clock() })
        .returning({ id: payments.id });
      return row!.id;
    },

    /** The provider refused to start the payment: it fails, its holds are given back and its key is freed for a new start. */
    async failStart(paymentId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const rows = await tx
          .update(payments)
          .set({ status: failed, idempotencyKey: null, updatedAt: clock() })
          .where(eq(payments.id, paymentId))
          .returning({ id: payments.id });
        for (const row of rows) await holds.release(tx, row.id);
      });
    },

    /** The provider's payment page, kept for a resend of the same attempt. */
    async keepAuthorizationUrl(paymentId: string, authorizationUrl: string): Promise<void> {
      await db.update(payments).set({ authorizationUrl }).where(eq(payments.id, paymentId));
    },

    settleWithoutOrder,

    /** Paid but impossible to fulfil (or paid the wrong amount): it waits for its refund. */
    async markNeedsRefund(paymentId: string): Promise<void> {
      await settleWithoutOrder(eq(payments.id, paymentId), needs_refund, ne(payments.status, fulfilled));
    },

    /** The simulated page's Pay or "I have sent the money", for a payment not answered yet; whether it was. */
    async answer(reference: string, status: typeof pending | typeof paid, channel: OnlineChannel): Promise<boolean> {
      const rows = await db
        .update(payments)
        // The transfer's clock starts now (updated_at): the simulated provider confirms it after its delay.
        .set({ status, channel, updatedAt: clock() })
        .where(and(eq(payments.reference, reference), eq(payments.status, initialized)))
        .returning({ id: payments.id });
      return rows.length > 0;
    },

    /** The money is on its way (a bank transfer): waiting for the provider to confirm it. */
    async markPending(paymentId: string, channel: OnlineChannel | null): Promise<void> {
      await db
        .update(payments)
        .set({ status: pending, channel, updatedAt: clock() })
        .where(and(eq(payments.id, paymentId), inArray(payments.status, [initialized, abandoned])));
    },

    /** Under the payment's row lock, in the transaction that made what it paid for. */
    async markFulfilled(tx: Tx, paymentId: string, channel: OnlineChannel | null): Promise<void> {
      await tx.update(payments).set({ status: fulfilled, channel, updatedAt: clock() }).where(eq(payments.id, paymentId));
    },

    /** A refund claimed under the row lock, before the provider is asked (`key`: an owed refund's, which the provider pays once). */
    async claimRefund(tx: Tx, paymentId: string, amountMinor: number, key: string | null): Promise<void> {
      await tx.update(payments).set({ refundPendingMinor: amountMinor, refundPendingKey: key, updatedAt: clock() }).where(eq(payments.id, paymentId));
    },

    /** A refund claim let go: the provider refused it, or staff found that nothing was refunded. */
    async dropRefundClaim(tx: Tx, paymentId: string): Promise<void> {
      await tx.update(payments).set({ refundPendingMinor: null, refundPendingKey: null, updatedAt: clock() }).where(eq(payments.id, paymentId));
    },

    /** The provider's refund recorded under the row lock: the claim becomes refunded money. */
    async recordRefund(
      tx: Tx,
      paymentId: string,
      refund: { status: typeof refunded | typeof partially_refunded; refundedMinor: number; refundId: string | null },
    ): Promise<PaymentRow> {
      const [row] = await tx
        .update(payments)
        .set({
          status: refund.status,
          refundedMinor: refund.refundedMinor,
          refundPendingMinor: null,
          refundPendingKey: null,
          refundedAt: clock(),
          refundId: refund.refundId,
          updatedAt: clock(),
        })
        .where(eq(payments.id, paymentId))
        .returning();
      return row!;
    },
  };
}
export type PaymentRows = ReturnType<typeof createPaymentRows>;

/** The payment record as a provider that runs inside the store reads it (the port's PaymentRecords). */
export function paymentRecords(db: Db): PaymentRecords {
  return {
    async find(reference) {
      const [row] = await db
        .select({
          status: payments.status,
          amountMinor: payments.amountMinor,
          refundedMinor: payments.refundedMinor,
          currency: payments.currency,
          channel: payments.channel,
          updatedAt: payments.updatedAt,
        })
        .from(payments)
        .where(eq(payments.reference, reference))
        .limit(1);
      return row ?? null;
    },
  };
}

/**
 * An account's deletion: its payments keep their amounts and references for the books, with the
 * anonymous address for the e-mail and a delivery's ship-to cut to city and state (cutAddress).
 */
export async function anonymisePaymentsOf(tx: Db | Tx, userId: string, anonymous: string, erasedName: string): Promise<void> {
  await tx.update(payments).set({ email: anonymous }).where(eq(payments.userId, userId));
  await tx
    .update(payments)
    .set({
      snapshot: sql`jsonb_set(${payments.snapshot}, '{shipTo}', jsonb_build_object(
        'id', '', 'name', ${erasedName}::text, 'address', '', 'zipCode', '',
        'country', ${payments.snapshot}->'shipTo'->'country', 'state', ${payments.snapshot}->'shipTo'->'state', 'city', ${payments.snapshot}->'shipTo'->'city'))`,
    })
    .where(and(eq(payments.userId, userId), eq(payments.purpose, 'checkout'), sql`${payments.snapshot}->>'deliveryOption' = 'delivery'`));
}
