import { and, eq, sql } from 'drizzle-orm';
import { splitReturnMoney, type CashRefundMethod } from '@/lib/domain/after-sales';
import { Invalid } from '@/lib/domain/errors';
import { message } from '@/lib/domain/messages';
import { paidForUnits } from '@/lib/domain/promotions';
import type { Actor } from '@/lib/server/backoffice/audit';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { returnItems } from '@/lib/server/aftersales/tables';
import { orderItems, orders, owedRefunds } from '@/lib/server/orders/tables';
import { payments } from '@/lib/server/payments/tables';
import { lockedOrderMoney, recordOrderMoney } from '@/lib/server/orders/order-money';
import { oweRefund } from '@/lib/server/orders/owed-refunds';
import type { StoreCreditService } from '../store-credit';
import { unitsPaidBack } from '../units-back';
import type { ReturnRow } from './rows';
import { PAYMENT_STATUSES } from '@/lib/domain/payments';

/**
 * The money of a return: what its order's payment can still take back, what was paid for the units
 * received, and each way it goes back (owed to the payment, store credit, a bank transfer staff
 * record), never more than the order has left to give back (its money account, orders/order-money).
 * Every function runs in the staff action's transaction, under the return's and the order's locks.
 */

/**
 * What the order's payment can still refund (less its refunds owed and not paid yet, and a claim
 * in progress that is no owed refund's), and whether part of the order was paid in cash at the door.
 */
export async function paymentOf(tx: Db | Tx, orderId: string) {
  const [p] = await tx
    .select({
      id: payments.id,
      reference: payments.reference,
      amountMinor: payments.amountMinor,
      refundedMinor: payments.refundedMinor,
      pendingMinor: sql<number>`case when ${payments.refundPendingKey} is null then coalesce(${payments.refundPendingMinor}, 0) else 0 end`,
      owedMinor: sql<number>`(select coalesce(sum(w.amount_minor), 0) from ${owedRefunds} w where w.payment_id = ${payments.id} and w.destination = 'payment' and w.status <> 'paid')`,
      paymentMethod: orders.paymentMethod,
      collectedMinor: orders.collectedMinor,
    })
    .from(orders)
    .innerJoin(payments, eq(payments.id, orders.paymentId))
    .where(eq(orders.id, orderId))
    .limit(1);
  return {
    paymentId: p?.id ?? null,
    reference: p?.reference ?? null,
    onlineLeftMinor: p ? Math.max(0, p.amountMinor - p.refundedMinor - Number(p.pendingMinor) - Number(p.owedMinor)) : 0,
    paidCash: p?.paymentMethod === 'on_delivery' && (p.collectedMinor ?? 0) > 0,
  };
}

/** What was paid for the units received back (all asked-for units until staff record what came). */
export async function paidForReceived(tx: Db | Tx, row: ReturnRow): Promise<number> {
  const lines = await tx
    .select({ orderItemId: returnItems.orderItemId, quantity: returnItems.quantity, received: returnItems.receivedQuantity, lineTotalMinor: orderItems.lineTotalMinor, discountMinor: orderItems.discountMinor, lineQuantity: orderItems.quantity })
    .from(returnItems)
    .innerJoin(orderItems, eq(orderItems.id, returnItems.orderItemId))
    .where(eq(returnItems.returnId, row.id));
  const before = await unitsPaidBack(tx, lines.map((l) => l.orderItemId));
  return lines.reduce((sum, l) => sum + paidForUnits(l.lineTotalMinor, l.discountMinor, l.lineQuantity, l.received ?? l.quantity, before.get(l.orderItemId) ?? 0), 0);
}

export type ReturnSplit = ReturnType<typeof splitReturnMoney>;

export function createReturnMoney(deps: { clock: () => Date; storeCredit: Pick<StoreCreditService, 'move'> }) {
  const { clock } = deps;

  /**
   * Store credit on the order's money account in the same transaction: to the buyer, or to a gift's
   * recipient (credit_user_id, ADR 0045), whose return never goes back to the buyer's payment.
   */
  async function creditBack(tx: Tx, row: ReturnRow, amountMinor: number, actorId: Actor['id'], reason: string): Promise<void> {
    if (amountMinor <= 0) return;
    await deps.storeCredit.move(tx, { userId: row.creditUserId ?? row.userId, currency: row.currency, deltaMinor: amountMinor, kind: 'return', returnId: row.id, orderId: row.orderId, actorId, reason });
    await recordOrderMoney(tx, { orderId: row.orderId, kind: 'credited', amountMinor, currency: row.currency, returnId: row.id, reason }, clock());
  }

  return {
    /** "Credit": what was paid for the received units, as store credit. */
    async credit(tx: Tx, row: ReturnRow, actorId: Actor['id']): Promise<number> {
      // Never more than the order has left to give back (an amount refund may have taken it already).
      const left = await lockedOrderMoney(tx, row.orderId);
      const amountMinor = Math.min(await paidForReceived(tx, row), left.leftMinor);
      await creditBack(tx, row, amountMinor, actorId, `Return ${row.reference}`);
      return amountMinor;
    },

    /** "Ship" of an exchange: a cheaper piece's difference comes back as store credit. */
    async creditCheaperExchange(tx: Tx, row: ReturnRow, actorId: Actor['id']): Promise<number> {
      const back = Math.min(Math.max(0, -row.differenceMinor), (await lockedOrderMoney(tx, row.orderId)).leftMinor);
      await creditBack(tx, row, back, actorId, `Exchange ${row.reference}: the difference`);
      return back;
    },

    /**
     * "Reject" of an exchange whose dearer difference was paid: it is owed back to its payment in
     * this transaction; the refund worker pays it. True when a refund is owed.
     */
    async oweDifferenceBack(tx: Tx, row: ReturnRow): Promise<boolean> {
      if (!row.differencePaidAt) return false;
      const [paid] = await tx
        .select({ id: payments.id, amountMinor: payments.amountMinor, refundedMinor: payments.refundedMinor })
        .from(payments)
        .where(and(eq(payments.returnId, row.id), eq(payments.purpose, 'exchange_difference'), eq(payments.status, PAYMENT_STATUSES.fulfilled)));
      if (!paid) return false;
      const owed = await oweRefund(
        tx,
        { orderId: row.orderId, paymentId: paid.id, returnId: row.id, amountMinor: paid.amountMinor - paid.refundedMinor, currency: row.currency, destination: 'payment', reason: `Exchange ${row.reference} rejected: the difference paid` },
        clock(),
      );
      return owed !== null;
    },

    /**
     * "Refund": what was paid for the received units goes back where it came from (splitReturnMoney):
     * a gift's return, all of it as the recipient's store credit; otherwise
     * to the order's online payment first (owed, paid by the refund worker with the row's key, once),
     * the rest as store credit or a bank transfer staff record, both on their ledgers at once.
     */
    async refund(tx: Tx, row: ReturnRow, actorId: Actor['id'], input: { cashBy?: CashRefundMethod | undefined; transferReference?: string | undefined }) {
      // What was paid for the units, never more than the order has left to give back.
      const left = await lockedOrderMoney(tx, row.orderId);
      const amountMinor = await paidForReceived(tx, row);
      const pay = await paymentOf(tx, row.orderId);
      let split: ReturnSplit = splitReturnMoney({ amountMinor, to: row.creditUserId ? 'credit' : 'payment', onlineLeftMinor: pay.onlineLeftMinor, orderLeftMinor: left.leftMinor, paidCash: pay.paidCash, cashBy: input.cashBy });
      if (split.byTransferMinor > 0 && !input.transferReference) throw new Invalid(message('return-transfer-reference'));
      const owed =
        split.toPaymentMinor > 0 && pay.paymentId
          ? await oweRefund(tx, { orderId: row.orderId, paymentId: pay.paymentId, returnId: row.id, amountMinor: split.toPaymentMinor, currency: row.currency, destination: 'payment', reason: `Return ${row.reference}` }, clock())
          : null;
      split = { ...split, toPaymentMinor: owed?.amountMinor ?? 0 };
      await creditBack(tx, row, split.toCreditMinor, actorId, `Return ${row.reference}`);
      await recordOrderMoney(tx, { orderId: row.orderId, kind: 'transferred', amountMinor: split.byTransferMinor, currency: row.currency, returnId: row.id, reason: input.transferReference ?? null }, clock());
      return { split, owed };
    },
  };
}
export type ReturnMoney = ReturnType<typeof createReturnMoney>;
