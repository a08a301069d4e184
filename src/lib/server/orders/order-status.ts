import { and, eq, sql } from 'drizzle-orm';
import { Conflict, Invalid, NotFound } from '@/lib/domain/errors';
import { canTransition, isOrderStatus, ORDER_STATUS_LIST, shopperMayCancel, type OrderDto, type OrderStatus } from '@/lib/domain/orders';
import { timeZoneOfCurrency } from '@/lib/domain/markets';
import { fill, message } from '@/lib/domain/messages';
import { deliveredAtOn } from '@/lib/domain/after-sales';
import { UUID } from '@/lib/domain/validation';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { orderEvents, orderItems, orders } from '@/lib/server/orders/tables';
import { payments } from '@/lib/server/payments/tables';
import type { Actor, AuditLog } from '@/lib/server/backoffice/audit';
import { applyStockMoves } from '@/lib/server/catalogue/stock';
import { cacheTags, type PageCacheInvalidator } from '@/lib/server/storefront/page-cache';
import type { Logger } from '@/lib/server/infra/log';
import type { StoreCreditService } from '@/lib/server/aftersales/store-credit';
import type { PromotionService } from '@/lib/server/promotions/promotions';
import { lockedOrderMoney, recordOrderMoney } from './order-money';
import { oweRefund, type RefundDestination } from './owed-refunds';
import type { OrderRow } from './order-reading';
import { isPaymentStatusIn, PAYMENT_STATUSES } from '@/lib/domain/payments';

/**
 * An order's status changes: staff moving it along (setStatus), the shopper's cancel, the courier's
 * delivery, and the door's outcomes (collection.ts) all come through `moveLocked` under the order's
 * row lock. The one writer of the status, its dates and the history (`order_events`).
 */

/** Where a cancelled order's online money goes back, and how much (default: all that is left of the payment). */
export interface CancelRefund {
  to: RefundDestination;
  amountMinor?: number;
  reason?: string;
}

/** What a status change needs of its neighbours. */
export interface OrderStatusDeps {
  db: Db;
  log: Logger;
  clock: () => Date;
  audit?: AuditLog | undefined;
  pageCache?: PageCacheInvalidator | undefined;
  /** The order modules it reads and mails through (order-reading.ts, order-mails.ts). */
  withItems(rows: OrderRow[], tx?: Db | Tx): Promise<OrderDto[]>;
  sendStatusMail(order: OrderDto): Promise<void>;
  /** Pays the refunds owed now (the refund worker's run), after a cancel commits; the worker pays them later otherwise. */
  payOwedRefunds?: (() => Promise<unknown>) | undefined;
  /** Gives a cancelled order's store credit back (the store credit module), in the cancelling transaction. */
  storeCredit?: Pick<StoreCreditService, 'move'> | undefined;
  /** Gives a cancelled order's discount code back (the promotions module), in the cancelling transaction. */
  promotions?: Pick<PromotionService, 'giveBack'> | undefined;
  /**
   * Delivery by courier (delivery/shipments.ts): `ask` records, in the transaction that makes an
   * order "Ready to ship", the shipment the worker books; `bookNow` runs the worker after the commit.
   */
  shipments?: { ask(tx: Tx, order: { id: string; currency: string; locker: { courier: string } | null }): Promise<unknown>; bookNow(): Promise<unknown> } | undefined;
}

export function createOrderStatus({ db, log, clock, audit, pageCache, withItems, sendStatusMail, payOwedRefunds, storeCredit, promotions, shipments }: OrderStatusDeps) {
  /**
   * What a cancelled order gives back of its online payment (a deposit, a card payment): `wanted`
   * (a refused delivery's deposit less its fee) or all that is left of it, never more than the
   * order's account has left once its store credit is back. Nothing for an order paid at the door.
   */
  async function onlineLeft(tx: Tx, row: OrderRow, wanted?: number): Promise<{ paymentId: string; amountMinor: number }> {
    const [payment] = await tx
      .select({ provider: payments.provider, status: payments.status, amountMinor: payments.amountMinor, refundedMinor: payments.refundedMinor })
      .from(payments)
      .where(eq(payments.id, row.paymentId));
    if (!payment || payment.provider === 'on_delivery' || payment.provider === 'store_credit' || !isPaymentStatusIn([PAYMENT_STATUSES.fulfilled, PAYMENT_STATUSES.partially_refunded], payment.status)) {
      return { paymentId: row.paymentId, amountMinor: 0 };
    }
    const accountLeft = (await lockedOrderMoney(tx, row.id)).leftMinor - row.storeCreditMinor;
    const amountMinor = Math.max(0, Math.min(wanted ?? Infinity, payment.amountMinor - payment.refundedMinor, accountLeft));
    return { paymentId: row.paymentId, amountMinor };
  }

  /**
   * Moves an order whose row the caller has locked (select … for update, in `tx`) to `next`: the
   * status, its history row, and for a cancellation its stock back through the ledger. Returns the
   * updated row and the products whose pages change. Staff status changes, a shopper's cancel and a
   * delivery refused at the door all come through here.
   */
  async function moveLocked(
    tx: Tx,
    row: OrderRow,
    next: OrderStatus,
    opts: { actorId: string | null; reason: string; set?: { deliveredAt?: Date; cancelledAt?: Date }; refund?: CancelRefund },
  ) {
    const [updated] = await tx
      .update(orders)
      // A delivery starts the return window (staff may record an earlier delivery through opts.set).
      // The columns are named (no spread) so the one-writer check sees this module writes only these.
      .set({
        status: next,
        deliveredAt: opts.set?.deliveredAt ?? (next === 'delivered' ? clock() : undefined),
        cancelledAt: opts.set?.cancelledAt,
        updatedAt: sql`now()`,
      })
      .where(and(eq(orders.id, row.id), eq(orders.status, row.status)))
      .returning();
    await tx.insert(orderEvents).values({ orderId: row.id, fromStatus: row.status, toStatus: next, actorId: opts.actorId, createdAt: clock() });
    let productIds: number[] = [];
    if (next === 'cancelled') {
      const lines = await tx.select().from(orderItems).where(eq(orderItems.orderId, row.id));
      await applyStockMoves(
        tx,
        lines.map((l) => ({ variantId: l.variantId, delta: l.quantity, kind: 'cancellation' as const, orderId: row.id, actorId: opts.actorId, reason: opts.reason })),
        clock(),
      );
      productIds = [...new Set(lines.map((l) => l.productId))];
      // Its discount code's place comes back: the shopper may use the code again.
      await promotions?.giveBack(tx, row.id);
      // What went online is owed back (to the payment by default, or as store credit), recorded here.
      const refundTo = opts.refund?.to ?? 'payment';
      const online = await onlineLeft(tx, row, opts.refund?.amountMinor);
      // The store credit it used comes back (once per order: a unique index), with the payment's money when staff chose store credit.
      const credit = row.storeCreditMinor + (refundTo === 'store_credit' ? online.amountMinor : 0);
      if (credit > 0) {
        if (!storeCredit) throw new Error('an order paid with store credit, cancelled without the store credit module');
        await storeCredit.move(tx, { userId: row.userId, currency: row.currency, deltaMinor: credit, kind: 'cancellation', orderId: row.id, actorId: opts.actorId, reason: opts.reason });
        await recordOrderMoney(tx, { orderId: row.id, kind: 'credited', amountMinor: credit, currency: row.currency, reason: opts.reason }, clock());
      }
      if (online.amountMinor > 0) {
        await oweRefund(
          tx,
          { orderId: row.id, paymentId: refundTo === 'payment' ? online.paymentId : null, amountMinor: online.amountMinor, currency: row.currency, destination: refundTo, reason: opts.refund?.reason ?? opts.reason },
          clock(),
        );
      }
    }
    return { updated: updated!, productIds };
  }

  return {
    moveLocked,

    /**
     * "Cancel order" on the shopper's own order, while it is pending and not settled at the door:
     * under the order's row lock (staff recording the delivery take the same lock, so only one
     * wins) the order is cancelled, its stock returned and whatever went online (a deposit, an
     * online payment) owed back to the payment (moveLocked); the refund worker pays it, and the
     * shopper is told. Someone else's order reads as not found.
     */
    async cancelByShopper(userId: string, orderId: string): Promise<OrderDto> {
      if (!UUID.test(orderId)) throw new NotFound(message('order-not-found'));
      const result = await db.transaction(async (tx) => {
        const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
        if (!row || row.userId !== userId) throw new NotFound(message('order-not-found'));
        if (!shopperMayCancel(row)) throw new Conflict(message('order-not-cancellable'));
        const { updated, productIds } = await moveLocked(tx, row, 'cancelled', {
          actorId: userId,
          reason: message('order-cancel-reason'),
          set: { cancelledAt: clock() },
        });
        return { order: (await withItems([updated], tx))[0]!, productIds };
      });
      if (result.productIds.length && pageCache) await pageCache.invalidate(result.productIds.map((id) => cacheTags.product(id)));
      // The refund is owed in the cancel's transaction; paying it now spares the shopper the worker's wait.
      await payOwedRefunds?.().catch((err: unknown) => log.error('paying owed refunds after a cancel failed', { err, orderId }));
      await sendStatusMail(result.order);
      return result.order;
    },

    /**
     * Staff (command or back office): moves an order (by id or tracking number) along the allowed
     * transitions, records it in the status history (and the audit log for a signed-in actor),
     * returns the stock of a cancelled order through the ledger, and tells the shopper.
     */
    async setStatus(
      idOrTracking: string,
      to: string,
      actor?: Actor,
      opts: { deliveredOn?: string | undefined; refundTo?: RefundDestination | undefined } = {},
    ): Promise<{ order: OrderDto; from: OrderStatus }> {
      const next = to.trim().toLowerCase();
      if (!isOrderStatus(next)) throw new Invalid(fill('order-status-unknown', to, ORDER_STATUS_LIST));
      const key = idOrTracking.trim();
      const byId = UUID.test(key);
      const result = await db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(orders)
          .where(byId ? eq(orders.id, key) : eq(orders.trackingNumber, key.toUpperCase()))
          .for('update');
        if (!row) throw new NotFound(message('order-not-found'));
        if (!canTransition(row.status, next)) {
          throw new Conflict(fill('order-transition-refused', row.status, next));
        }
        // Staff may record an earlier delivery day (the courier's), never before the order nor in the
        // future, in the calendar of the order's market: today is now, an earlier day its noon.
        let deliveredAt: Date | undefined;
        if (next === 'delivered' && opts.deliveredOn) {
          deliveredAt = deliveredAtOn(opts.deliveredOn, { now: clock(), orderedAt: row.createdAt, timeZone: timeZoneOfCurrency(row.currency) }) ?? undefined;
          if (!deliveredAt) throw new Invalid(message('delivered-on-range'));
        }
        const { updated, productIds } = await moveLocked(tx, row, next, {
          actorId: actor?.id ?? null,
          reason: 'Order cancelled',
          refund: { to: opts.refundTo ?? 'payment' },
          ...(deliveredAt ? { set: { deliveredAt } } : {}),
        });
        // Ready to ship: a delivery is booked with the market's courier (a pickup waits at the boutique).
        if (next === 'processed' && row.deliveryOption === 'delivery') await shipments?.ask(tx, row);
        if (actor && audit) {
          await audit.record(actor, { action: 'order.status', entity: 'order', entityId: row.id, details: { trackingNumber: row.trackingNumber, before: row.status, after: next } }, tx);
        }
        return { from: row.status, order: (await withItems([updated], tx))[0]!, productIds };
      });
      if (result.productIds.length && pageCache) await pageCache.invalidate(result.productIds.map((id) => cacheTags.product(id)));
      if (next === 'processed') await shipments?.bookNow().catch((err: unknown) => log.error('booking shipments after ready to ship failed', { err, orderId: result.order.id }));
      if (next === 'cancelled') await payOwedRefunds?.().catch((err: unknown) => log.error('paying owed refunds after a cancel failed', { err, orderId: result.order.id }));
      await sendStatusMail(result.order);
      return { order: result.order, from: result.from };
    },

    /**
     * The courier says the order was delivered: a processed order becomes delivered on the courier's
     * moment (never before the order, never in the future), which starts the return window. An order
     * staff already moved on is left as it is. In the caller's transaction; returns the order or null.
     */
    async deliverByCourier(tx: Tx, orderId: string, at: Date): Promise<OrderRow | null> {
      const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
      if (!row || row.status !== 'processed') return null;
      const now = clock();
      const deliveredAt = at > now ? now : at < row.createdAt ? row.createdAt : at;
      const { updated } = await moveLocked(tx, row, 'delivered', { actorId: null, reason: 'Delivered by the courier', set: { deliveredAt } });
      return updated;
    },
  };
}
