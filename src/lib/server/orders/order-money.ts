import { and, asc, eq, inArray } from 'drizzle-orm';
import { Invalid } from '@/lib/domain/errors';
import { fill, message } from '@/lib/domain/messages';
import { formatMoney, toMajor, type CurrencyCode } from '@/lib/domain/money';
import { orderMoneySign, orderMoneyTotals, type OrderMoneyKind, type OrderMoneyTotals } from '@/lib/domain/order-money';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { orderMoney, orders } from '@/lib/server/orders/tables';
import type { RefundLedger } from '@/lib/server/payments/types';
import { issueCreditNotes, issueDifferenceInvoice } from '@/lib/server/books/documents';

/**
 * The money of an order (ADR 0021): the one writer of `order_money`. Every amount that comes in
 * for an order or goes back is a row written in the caller's transaction, the one that moves the
 * money; what an order may still give back is read from its rows under the order's row lock, so a
 * return, a line refund and an amount refund together never give back more than was taken.
 */

export interface OrderMoneyEntry {
  orderId: string;
  kind: OrderMoneyKind;
  /** The amount, positive: its sign follows the kind. */
  amountMinor: number;
  currency: string;
  orderItemId?: number | null;
  units?: number | null;
  paymentId?: string | null;
  returnId?: string | null;
  reason?: string | null;
}

/** Writes one row of an order's money (nothing for 0). */
export async function recordOrderMoney(tx: Tx | Db, entry: OrderMoneyEntry, at: Date): Promise<void> {
  if (entry.amountMinor === 0) return;
  if (!Number.isSafeInteger(entry.amountMinor) || entry.amountMinor < 0) throw new Error(`order money: ${entry.kind} of ${entry.amountMinor}`);
  const [row] = await tx
    .insert(orderMoney)
    .values({
      orderId: entry.orderId,
      kind: entry.kind,
      amountMinor: orderMoneySign(entry.kind) * entry.amountMinor,
      currency: entry.currency,
      orderItemId: entry.orderItemId ?? null,
      units: entry.units ?? null,
      paymentId: entry.paymentId ?? null,
      returnId: entry.returnId ?? null,
      reason: entry.reason ?? null,
      createdAt: at,
    })
    .returning({ id: orderMoney.id });
  // The books follow the money in the same transaction: an amount given back gets its credit note, an exchange's extra payment its invoice.
  const reason = CREDIT_NOTE_REASONS[entry.kind as keyof typeof CREDIT_NOTE_REASONS];
  if (reason) await issueCreditNotes(tx as Tx, { orderId: entry.orderId, source: `money:${row!.id}`, amountMinor: entry.amountMinor, reason: reason(entry.returnId != null), at });
  if (entry.kind === 'difference_paid' && entry.paymentId) await issueDifferenceInvoice(tx as Tx, { orderId: entry.orderId, paymentId: entry.paymentId, amountMinor: entry.amountMinor, at });
}

/** What a credit note says it is for, by how the money went back and whether goods came back with it. */
const CREDIT_NOTE_REASONS = {
  refunded: (returned: boolean) => (returned ? 'Returned goods, refunded' : 'Refund'),
  credited: (returned: boolean) => (returned ? 'Returned goods, credited as store credit' : 'Refund as store credit'),
  transferred: (returned: boolean) => (returned ? 'Returned goods, refunded by bank transfer' : 'Refund by bank transfer'),
} as const;

/** An order's totals (taken, given back, left), read in `tx`. */
export async function orderMoneyOf(tx: Tx | Db, orderId: string): Promise<OrderMoneyTotals> {
  const rows = await tx.select({ kind: orderMoney.kind, amountMinor: orderMoney.amountMinor }).from(orderMoney).where(eq(orderMoney.orderId, orderId));
  return orderMoneyTotals(rows);
}

/** The order's row locked (every writer of money back takes it), then its totals. */
export async function lockedOrderMoney(tx: Tx, orderId: string): Promise<OrderMoneyTotals & { currency: string }> {
  const [row] = await tx.select({ currency: orders.currency }).from(orders).where(eq(orders.id, orderId)).for('update');
  if (!row) throw new Error(`order money: no order ${orderId}`);
  return { ...(await orderMoneyOf(tx, orderId)), currency: row.currency };
}

/** The refusal when more would go back than the order has left. */
export function leftRefusal(left: OrderMoneyTotals & { currency: string }): Invalid {
  return new Invalid(left.leftMinor <= 0 ? message('refund-order-nothing-left') : fill('refund-order-left', formatMoney(toMajor(left.leftMinor), left.currency as CurrencyCode)));
}

/**
 * The payments' side (payments.refund's ledger): a refund of a payment whose money came into an
 * order (charged, or an exchange's difference) is that order's money going back. Claimed in the
 * claim's transaction under the order's row lock, refused beyond what the order has left; a claim
 * let go counts back in. A payment that never became an order's money (sold out, a second payment
 * of one difference) has no order to account to.
 */
export function paymentRefundLedger(clock: () => Date): RefundLedger {
  async function orderOf(tx: Tx, paymentId: string): Promise<string | null> {
    const [row] = await tx
      .select({ orderId: orderMoney.orderId })
      .from(orderMoney)
      .where(and(eq(orderMoney.paymentId, paymentId), inArray(orderMoney.kind, ['charged', 'difference_paid'])))
      .limit(1);
    return row?.orderId ?? null;
  }
  return {
    async claimed(tx, payment, amountMinor) {
      const orderId = await orderOf(tx, payment.id);
      if (!orderId) return;
      const left = await lockedOrderMoney(tx, orderId);
      if (amountMinor > left.leftMinor) throw leftRefusal(left);
      await recordOrderMoney(tx, { orderId, kind: 'refunded', amountMinor, currency: payment.currency, paymentId: payment.id }, clock());
    },
    async released(tx, payment, amountMinor) {
      const orderId = await orderOf(tx, payment.id);
      if (orderId) await recordOrderMoney(tx, { orderId, kind: 'refund_released', amountMinor, currency: payment.currency, paymentId: payment.id }, clock());
    },
    async recorded(tx, payment, claimedMinor, refundedMinor) {
      const orderId = await orderOf(tx, payment.id);
      if (!orderId || claimedMinor === refundedMinor) return;
      // The provider refunded another amount than claimed (a whole refund is the provider's figure): the account follows it.
      const kind = refundedMinor < claimedMinor ? 'refund_released' : 'refunded';
      await recordOrderMoney(tx, { orderId, kind, amountMinor: Math.abs(claimedMinor - refundedMinor), currency: payment.currency, paymentId: payment.id }, clock());
    },
  };
}

/** Reading an order's account (the back office, the money check). */
export function createOrderMoneyService({ db }: { db: Db }) {
  return {
    async rows(orderId: string) {
      return db.select().from(orderMoney).where(eq(orderMoney.orderId, orderId)).orderBy(asc(orderMoney.id));
    },
    totals: (orderId: string) => orderMoneyOf(db, orderId),
  };
}
export type OrderMoneyService = ReturnType<typeof createOrderMoneyService>;
