import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, gte, ilike, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { STORE_NAME } from '@/lib/domain/brand';
import { Conflict, Forbidden, Invalid, NotFound } from '@/lib/domain/errors';
import { formatMoney, toMajor, type CurrencyCode } from '@/lib/domain/money';
import { PAYMENT_METHOD_LABELS, type PaymentMethod } from '@/lib/domain/payment-methods';
import {
  amountDueMinor,
  canTransition,
  paymentStateOf,
  itemCount,
  isOrderStatus,
  ORDER_STATUS_LIST,
  shopperMayCancel,
  trackingNumberFrom,
  type OrderDto,
  type OrderStatus,
} from '@/lib/domain/orders';
import { timeZoneOfCurrency } from '@/lib/domain/markets';
import { fill, message } from '@/lib/domain/messages';
import { deliveredAtOn, LIVE_RETURN_STATUSES, returnWindowClosesAt, returnWindowOpen } from '@/lib/domain/after-sales';
import { paidForUnits } from '@/lib/domain/promotions';
import { deliveryDirections, deliverySpeed, formatAddress, type AddressDto, type DeliveryOption, type DeliverySpeedId } from '@/lib/domain/shipping';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { pageOf, type Ordering, type Page } from '@/lib/server/infra/db/paging';
import { amongValuesOf, containing } from '@/lib/server/infra/db/text-search';
import type { PageAt } from '@/lib/domain/paging';
import { orderDailyTotals, orderEvents, orderItems, orders, payments, returnItems, returns, users } from '@/lib/server/infra/db/schema';
import type { Actor, AuditLog } from '@/lib/server/backoffice/audit';
import { applyStockMoves } from '@/lib/server/catalogue/stock';
import { cacheTags, type PageCacheInvalidator } from '@/lib/server/infra/page-cache';
import type { Logger } from '@/lib/server/infra/log';
import { escapeHtml, mailHtml, type Mailer } from '@/lib/server/infra/mail';
import type { ShopperNotifications } from '@/lib/server/notifications/notifications';
import type { StoreCreditService } from '@/lib/server/aftersales/store-credit';
import type { PromotionService } from '@/lib/server/promotions/promotions';
import { unitsPaidBack } from '@/lib/server/aftersales/units-back';
import { lockedOrderMoney, recordOrderMoney } from './order-money';
import { oweRefund, type RefundDestination } from './owed-refunds';
import { UUID } from '@/lib/domain/validation';
import type { Gift } from '@/lib/domain/gifts';
import { pickupPointDelivery, type ChosenPickupPoint } from '@/lib/domain/pickup-points';

/** Where a cancelled order's online money goes back, and how much (default: all that is left of the payment). */
export interface CancelRefund {
  to: RefundDestination;
  amountMinor?: number;
  reason?: string;
}

type OrderRow = typeof orders.$inferSelect;
type OrderItemRow = typeof orderItems.$inferSelect;

/** Orders read per query of a CSV export. */
const EXPORT_BATCH = 2000;

export function newTrackingNumber(): string {
  return trackingNumberFrom(randomBytes(8));
}

function toDto(row: OrderRow, items: OrderItemRow[], now: Date, payment: { status: string; amountMinor: number } | null): OrderDto {
  const dueMinor = amountDueMinor(row);
  const createdAt = row.createdAt.toISOString();
  return {
    id: row.id,
    trackingNumber: row.trackingNumber,
    createdAt,
    date: createdAt,
    status: row.status,
    deliveryOption: row.deliveryOption,
    deliverySpeed: row.deliverySpeed ? { id: row.deliverySpeed, name: deliverySpeed(row.deliverySpeed)!.name, days: deliverySpeed(row.deliverySpeed)!.days } : null,
    deliveryAddress: row.deliveryAddress as AddressDto,
    items: items.map((i) => ({
      id: i.id,
      productId: i.productId,
      productName: i.productName,
      name: i.productName,
      productImage: i.productImage,
      image: [i.productImage],
      color: i.color,
      size: i.size,
      quantity: i.quantity,
      price: toMajor(i.lineTotalMinor),
      unitPrice: toMajor(i.unitPriceMinor),
      discount: toMajor(i.discountMinor),
    })),
    itemCount: itemCount(items),
    subtotal: toMajor(row.subtotalMinor),
    discount: toMajor(row.discountMinor),
    discountCode: row.discountCode,
    deliveryFee: toMajor(row.deliveryFeeMinor),
    total: toMajor(row.totalMinor),
    currency: row.currency as CurrencyCode,
    payment: dueMinor > 0 ? 'due' : 'paid',
    paymentMethod: PAYMENT_METHOD_LABELS[row.paymentMethod],
    paymentMethodCode: row.paymentMethod,
    amountDue: toMajor(dueMinor),
    cancellable: shopperMayCancel(row),
    storeCredit: toMajor(row.storeCreditMinor),
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    returnWindowClosesAt: row.deliveredAt ? returnWindowClosesAt(row.deliveredAt).toISOString() : null,
    returnable: returnWindowOpen(row, now),
    paymentState: paymentStateOf({ status: row.status, dueMinor }, payment),
    gift: giftOf(row),
    giftWrap: toMajor(row.giftWrapMinor),
    pickupPoint: row.pickupPoint ?? null,
  };
}

/** The order's gift as its columns keep it; null for an order that is not a gift. */
function giftOf(row: OrderRow): Gift | null {
  if (row.giftRecipientName === null || row.giftRecipientPhone === null) return null;
  return { recipientName: row.giftRecipientName, recipientPhone: row.giftRecipientPhone, message: row.giftMessage ?? '', wrap: row.giftWrap, hidePrices: row.giftHidePrices };
}

const STATUS_SUBJECTS: Record<OrderStatus, string> = {
  pending: 'We have received your order',
  processed: 'Your order is being prepared',
  delivered: 'Your order has been delivered',
  cancelled: 'Your order has been cancelled',
};

/** Orders: reading them for their owner, staff status changes, and the e-mails about them. */
/** Orders a page of the shopper's order history shows. */
const ORDER_HISTORY_PAGE = 20;
/** Orders as the shopper's history and the back office list them: newest first, then by id. */
const NEWEST_ORDERS_FIRST: Ordering<{ id: string }> = {
  table: orders,
  id: orders.id,
  idKind: 'uuid',
  idOf: (r) => r.id,
  keys: [
    { column: orders.createdAt, desc: true },
    { column: orders.id, desc: true },
  ],
};

/** Filters of the back office order list (and its CSV export). */
export interface OrderFilter {
  status?: OrderStatus | undefined;
  /** Inclusive day range, YYYY-MM-DD (UTC). */
  from?: string | undefined;
  to?: string | undefined;
  /** Tracking number or e-mail (part of). */
  q?: string | undefined;
  page?: number | undefined;
  after?: string | undefined;
  before?: string | undefined;
}

export interface AdminOrderRow {
  id: string;
  trackingNumber: string;
  email: string;
  customer: string;
  status: OrderStatus;
  deliveryOption: string;
  totalMinor: number;
  currency: string;
  createdAt: Date;
}

export function createOrderService({
  db,
  mailer,
  log,
  siteUrl,
  audit,
  pageCache,
  clock = () => new Date(),
  notifications,
  payOwedRefunds,
  storeCredit,
  promotions,
  shipments,
}: {
  db: Db;
  mailer: Mailer;
  log: Logger;
  siteUrl: string;
  audit?: AuditLog;
  pageCache?: PageCacheInvalidator;
  clock?: () => Date;
  /** Texts to shoppers who opted in (src/lib/server/notifications); never throws. */
  notifications?: ShopperNotifications;
  /** Pays the refunds owed now (the refund worker's run), after a cancel commits; the worker pays them later otherwise. */
  payOwedRefunds?: () => Promise<unknown>;
  /** Gives a cancelled order's store credit back (the store credit module), in the cancelling transaction. */
  storeCredit?: Pick<StoreCreditService, 'move'>;
  /** Gives a cancelled order's discount code back (the promotions module), in the cancelling transaction. */
  promotions?: Pick<PromotionService, 'giveBack'>;
  /**
   * Delivery by courier (delivery/shipments.ts): `ask` records, in the transaction that makes an
   * order "Ready to ship", the shipment the worker books; `bookNow` runs the worker after the commit.
   */
  shipments?: { ask(tx: Tx, order: { id: string; currency: string }): Promise<unknown>; bookNow(): Promise<unknown> };
}) {
  function filterWhere(f: OrderFilter): SQL | undefined {
    const parts: SQL[] = [];
    if (f.status) parts.push(eq(orders.status, f.status));
    if (f.from) parts.push(gte(orders.createdAt, new Date(`${f.from}T00:00:00Z`)));
    if (f.to) parts.push(lt(orders.createdAt, new Date(new Date(`${f.to}T00:00:00Z`).getTime() + 86_400_000)));
    const q = f.q?.trim();
    if (q) {
      const like = containing(q);
      // The matching accounts first (their e-mail's trigram index), then their orders by orders_user_idx
      // (a join read every order: 8 s at a million).
      const matchingUsers = db.select({ id: users.id }).from(users).where(ilike(users.email, like));
      parts.push(or(ilike(orders.trackingNumber, like), amongValuesOf(orders.userId, matchingUsers))!);
    }
    return parts.length ? and(...parts) : undefined;
  }

  async function withItems(rows: OrderRow[], tx: Db | Tx = db): Promise<OrderDto[]> {
    if (rows.length === 0) return [];
    const items = await tx
      .select()
      .from(orderItems)
      .where(
        inArray(
          orderItems.orderId,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(asc(orderItems.id));
    const paid = await tx
      .select({ id: payments.id, status: payments.status, amountMinor: payments.amountMinor })
      .from(payments)
      .where(
        inArray(
          payments.id,
          rows.map((r) => r.paymentId),
        ),
      );
    return rows.map((r) =>
      toDto(
        r,
        items.filter((i) => i.orderId === r.id),
        clock(),
        paid.find((p) => p.id === r.paymentId) ?? null,
      ),
    );
  }

  async function load(orderId: string, tx: Db | Tx = db): Promise<OrderDto | null> {
    if (!UUID.test(orderId)) return null;
    const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).limit(1);
    if (!row) return null;
    return (await withItems([row], tx))[0]!;
  }

  async function ownerEmail(userId: string): Promise<{ email: string; firstName: string } | null> {
    const [u] = await db.select({ email: users.email, firstName: users.firstName }).from(users).where(eq(users.id, userId)).limit(1);
    return u ?? null;
  }

  function itemsText(order: OrderDto): string {
    return order.items
      .map((i) => `- ${i.productName}${i.color ? `, ${i.color}` : ''}${i.size ? `, ${i.size}` : ''} x ${i.quantity}: ${formatMoney(i.price, order.currency)}`)
      .join('\n');
  }

  /** The order's discount as a mail line ("Discount (CODE): -₦2,000"), or nothing without one. */
  function discountText(order: OrderDto): string {
    return order.discount > 0 ? `Discount${order.discountCode ? ` (${order.discountCode})` : ''}: -${formatMoney(order.discount, order.currency)}\n` : '';
  }

  /** What is left to pay at the door, as a mail line, or nothing. */
  function dueText(order: OrderDto): string {
    return order.amountDue > 0 ? `Amount to pay on delivery: ${formatMoney(order.amountDue, order.currency)}\n` : '';
  }

  function itemsHtml(order: OrderDto): string {
    const rows = order.items
      .map(
        (i) =>
          `<tr><td style="padding:6px 0">${escapeHtml(i.productName)}${i.color ? `, ${escapeHtml(i.color)}` : ''}${i.size ? `, ${escapeHtml(i.size)}` : ''} &times; ${i.quantity}</td><td align="right">${escapeHtml(formatMoney(i.price, order.currency))}</td></tr>`,
      )
      .join('');
    const discount =
      order.discount > 0
        ? `<tr><td style="padding:6px 0;border-top:1px solid #e8e2d8">Discount${order.discountCode ? ` (${escapeHtml(order.discountCode)})` : ''}</td><td align="right" style="border-top:1px solid #e8e2d8">-${escapeHtml(formatMoney(order.discount, order.currency))}</td></tr>`
        : '';
    return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0">${rows}${discount}
<tr><td style="padding:6px 0;border-top:1px solid #e8e2d8">Shipping</td><td align="right" style="border-top:1px solid #e8e2d8">${escapeHtml(order.deliveryFee === 0 ? 'Free' : formatMoney(order.deliveryFee, order.currency))}</td></tr>
<tr><td style="padding:6px 0"><strong>Total</strong></td><td align="right"><strong>${escapeHtml(formatMoney(order.total, order.currency))}</strong></td></tr></table>`;
  }

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
    if (!payment || payment.provider === 'on_delivery' || payment.provider === 'store_credit' || !['fulfilled', 'partially_refunded'].includes(payment.status)) {
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
  async function moveLocked(tx: Tx, row: OrderRow, next: OrderStatus, opts: { actorId: string | null; reason: string; set?: Partial<OrderRow>; refund?: CancelRefund }) {
    const [updated] = await tx
      .update(orders)
      // A delivery starts the return window (staff may record an earlier delivery through opts.set).
      .set({ ...(next === 'delivered' ? { deliveredAt: clock() } : {}), ...opts.set, status: next, updatedAt: sql`now()` })
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
     * Writes the order of a paid checkout, inside the caller's transaction (the payment's fulfil holds
     * its row lock): the order, its lines, and the sale of their stock (applyStockMoves: taken, in the
     * ledger, counted in sales). Throws OutOfStock when a line's stock has run out. Returns its id.
     */
    async createPaid(
      tx: Tx,
      input: {
        userId: string;
        paymentId: string;
        currency: string;
        deliveryOption: DeliveryOption;
        /** A delivery's speed (null for pickup). */
        deliverySpeed?: DeliverySpeedId | null;
        deliveryAddress: AddressDto | null;
        subtotalMinor: number;
        /** The discount code's money off the subtotal (0 without one), the code and its promotion. */
        discountMinor?: number;
        discountCode?: string | null;
        promotionId?: number | null;
        deliveryFeeMinor: number;
        totalMinor: number;
        /** How it is paid (the payment's channel; on_delivery with what is left to pay at the door). */
        paymentMethod?: PaymentMethod;
        dueOnDeliveryMinor?: number;
        /** Store credit used at checkout. */
        storeCreditMinor?: number;
        /** A gift, and its wrapping's fee (part of totalMinor). */
        gift?: Gift | null;
        giftWrapMinor?: number;
        /** A courier pickup point the parcel goes to (its fee is deliveryFeeMinor). */
        pickupPoint?: ChosenPickupPoint | null;
        lines: {
          productId: number;
          variantId: number;
          productName: string;
          productImage: string;
          color: string | null;
          size: string | null;
          quantity: number;
          unitPriceMinor: number;
          lineTotalMinor: number;
          /** This line's share of the discount (the shares add up to the order's discount). */
          discountMinor?: number;
        }[];
      },
    ): Promise<string> {
      const { lines, gift, ...order } = input;
      const giftColumns = gift
        ? { giftRecipientName: gift.recipientName, giftRecipientPhone: gift.recipientPhone, giftMessage: gift.message || null, giftHidePrices: gift.hidePrices, giftWrap: gift.wrap }
        : {};
      const [row] = await tx
        .insert(orders)
        // Reconciliation measures an order's age (for a lost confirmation mail) on the services' clock.
        .values({ ...order, ...giftColumns, trackingNumber: newTrackingNumber(), createdAt: clock(), updatedAt: clock() })
        .returning({ id: orders.id });
      await tx.insert(orderItems).values(
        lines.map((l) => ({
          orderId: row!.id,
          productId: l.productId,
          variantId: l.variantId,
          productName: l.productName,
          productImage: l.productImage,
          color: l.color,
          size: l.size,
          quantity: l.quantity,
          unitPriceMinor: l.unitPriceMinor,
          lineTotalMinor: l.lineTotalMinor,
          discountMinor: l.discountMinor ?? 0,
        })),
      );
      await applyStockMoves(tx, lines.map((l) => ({ variantId: l.variantId, delta: -l.quantity, kind: 'order' as const, orderId: row!.id })), clock());
      // The order's account opens with what its payment charged online and the store credit it used.
      const [payment] = await tx.select({ amountMinor: payments.amountMinor }).from(payments).where(eq(payments.id, input.paymentId));
      await recordOrderMoney(tx, { orderId: row!.id, kind: 'charged', amountMinor: payment?.amountMinor ?? 0, currency: input.currency, paymentId: input.paymentId }, clock());
      await recordOrderMoney(tx, { orderId: row!.id, kind: 'credit_used', amountMinor: input.storeCreditMinor ?? 0, currency: input.currency }, clock());
      return row!.id;
    },

    load,

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
      await this.sendStatusMail(result.order);
      return result.order;
    },

    /** The shopper's order history page: newest first, paged by key; `status` is a filter chip's (none: every order). */
    async pageForUser(userId: string, opts: { status?: OrderStatus | undefined; pageSize?: number } & PageAt = {}): Promise<Page<OrderDto>> {
      const where = and(eq(orders.userId, userId), opts.status ? eq(orders.status, opts.status) : undefined);
      const shown = await pageOf(
        (w) => db.select().from(orders).where(and(where, w.where)).orderBy(...w.orderBy).limit(w.limit).offset(w.offset),
        NEWEST_ORDERS_FIRST,
        async () => (await db.select({ n: count() }).from(orders).where(where))[0]?.n ?? 0,
        opts,
        opts.pageSize ?? ORDER_HISTORY_PAGE,
      );
      return { ...shown, rows: await withItems(shown.rows) };
    },

    async countForUser(userId: string): Promise<number> {
      return (await db.select({ n: count() }).from(orders).where(eq(orders.userId, userId)))[0]?.n ?? 0;
    },

    /** Every order of a shopper, newest first (the API's list, documented whole). */
    async listForUser(userId: string): Promise<OrderDto[]> {
      const rows = await db.select().from(orders).where(eq(orders.userId, userId)).orderBy(desc(orders.createdAt), desc(orders.id));
      return withItems(rows);
    },

    /** One order for its owner: 404 'Order not found' when absent, 403 for someone else's. */
    async getForUser(userId: string, orderId: string): Promise<OrderDto> {
      const order = await load(orderId);
      if (!order) throw new NotFound('Order not found');
      const [row] = await db.select({ userId: orders.userId }).from(orders).where(eq(orders.id, orderId)).limit(1);
      if (row?.userId !== userId) throw new Forbidden('This order belongs to another account');
      return order;
    },

    async findByPayment(paymentId: string, tx: Db | Tx = db): Promise<OrderDto | null> {
      const [row] = await tx.select().from(orders).where(eq(orders.paymentId, paymentId)).limit(1);
      return row ? ((await withItems([row], tx))[0] ?? null) : null;
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
      if (!isOrderStatus(next)) throw new Invalid(`Unknown status ${to}: use ${ORDER_STATUS_LIST}`);
      const key = idOrTracking.trim();
      const byId = UUID.test(key);
      const result = await db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(orders)
          .where(byId ? eq(orders.id, key) : eq(orders.trackingNumber, key.toUpperCase()))
          .for('update');
        if (!row) throw new NotFound('Order not found');
        if (!canTransition(row.status, next)) {
          throw new Conflict(`An order that is ${row.status} cannot become ${next}`);
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
      await this.sendStatusMail(result.order);
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

    /** Back office list: newest first, 25 a page, paged by key (infra/db/paging.ts). */
    async adminList(f: OrderFilter): Promise<Page<AdminOrderRow>> {
      const where = filterWhere(f);
      const list = await pageOf(
        (w) =>
          db
            .select({
              id: orders.id,
              trackingNumber: orders.trackingNumber,
              email: users.email,
              firstName: users.firstName,
              lastName: users.lastName,
              status: orders.status,
              deliveryOption: orders.deliveryOption,
              totalMinor: orders.totalMinor,
              currency: orders.currency,
              createdAt: orders.createdAt,
            })
            .from(orders)
            .innerJoin(users, eq(users.id, orders.userId))
            .where(and(where, w.where))
            .orderBy(...w.orderBy)
            .limit(w.limit)
            .offset(w.offset),
        NEWEST_ORDERS_FIRST,
        // Without a text search, the daily rollup counts the same orders (status and whole UTC days) in a few rows.
        async () => {
          const [t] = f.q?.trim()
            ? await db.select({ n: count() }).from(orders).where(where)
            : await db
                .select({ n: sql<number>`coalesce(sum(${orderDailyTotals.orders}), 0)::int` })
                .from(orderDailyTotals)
                .where(
                  and(
                    f.status ? eq(orderDailyTotals.status, f.status) : undefined,
                    f.from ? gte(orderDailyTotals.day, f.from) : undefined,
                    f.to ? lte(orderDailyTotals.day, f.to) : undefined,
                  ),
                );
          return t?.n ?? 0;
        },
        f,
        25,
      );
      return { ...list, rows: list.rows.map(({ firstName, lastName, ...r }) => ({ ...r, customer: `${firstName} ${lastName}` })) };
    },

    /**
     * CSV of every order matching the filter, newest first, as chunks of lines: read EXPORT_BATCH
     * orders at a time by key (created_at, id), so a million orders stream out in constant memory.
     */
    async *exportCsv(f: OrderFilter, batch = EXPORT_BATCH): AsyncGenerator<string> {
      // Columns are only ever appended, so spreadsheets built on the export keep working.
      const header = ['tracking_number', 'created_at', 'email', 'status', 'delivery_option', 'subtotal', 'delivery_fee', 'total', 'currency', 'discount', 'discount_code'];
      yield header.join(',') + '\r\n';
      // The key as PostgreSQL holds it: a JavaScript Date would drop the microseconds and skip rows.
      let after: { at: string; id: string } | null = null;
      for (;;) {
        const rows = await db
          .select({
            id: orders.id,
            at: sql<string>`${orders.createdAt}::text`,
            trackingNumber: orders.trackingNumber,
            createdAt: orders.createdAt,
            email: users.email,
            status: orders.status,
            deliveryOption: orders.deliveryOption,
            subtotalMinor: orders.subtotalMinor,
            deliveryFeeMinor: orders.deliveryFeeMinor,
            totalMinor: orders.totalMinor,
            currency: orders.currency,
            discountMinor: orders.discountMinor,
            discountCode: orders.discountCode,
          })
          .from(orders)
          .innerJoin(users, eq(users.id, orders.userId))
          .where(and(filterWhere(f), after ? sql`(${orders.createdAt}, ${orders.id}) < (${after.at}::timestamptz, ${after.id}::uuid)` : undefined))
          .orderBy(desc(orders.createdAt), desc(orders.id))
          .limit(batch);
        if (rows.length === 0) return;
        yield rows
          .map((r) =>
            [
              r.trackingNumber,
              r.createdAt.toISOString(),
              r.email,
              r.status,
              r.deliveryOption,
              toMajor(r.subtotalMinor),
              toMajor(r.deliveryFeeMinor),
              toMajor(r.totalMinor),
              r.currency,
              toMajor(r.discountMinor),
              r.discountCode ?? '',
            ]
              .map(csvCell)
              .join(',') + '\r\n',
          )
          .join('');
        if (rows.length < batch) return;
        const last: { at: string; id: string } = rows.at(-1)!;
        after = { at: last.at, id: last.id };
      }
    },

    /**
     * What was paid for `quantity` units of the order's line at `position` (from 1, in the order's
     * line order), in minor units: the line's total less its discount share, for those units
     * (paidForUnits). Throws Invalid for a line the order does not have or more units than it holds.
     */
    /**
     * A line refund's units, taken inside the refund's claim (payments.refund's onClaim) under the
     * order's row lock, the lock a return request takes: units refunded from the back office are
     * never returned for money again, and units being returned are not refunded here too.
     */
    async takeLineRefund(tx: Tx, orderId: string, position: number, quantity: number): Promise<void> {
      await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId)).for('update');
      const lines = await tx.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.id));
      const line = lines[position - 1];
      if (!line) throw new Invalid(message('refund-no-such-line'));
      // Units in returns that are not rejected (a read of the returns module's rows).
      const [held] = await tx
        .select({ units: sql<number>`coalesce(sum(${returnItems.quantity}), 0)::int` })
        .from(returnItems)
        .innerJoin(returns, eq(returns.id, returnItems.returnId))
        .where(and(eq(returnItems.orderItemId, line.id), inArray(returns.status, LIVE_RETURN_STATUSES)));
      const left = line.quantity - line.refundedQuantity - Number(held?.units ?? 0);
      if (quantity > left) throw new Invalid(fill('refund-line-units', String(Math.max(0, left))));
      await tx.update(orderItems).set({ refundedQuantity: line.refundedQuantity + quantity }).where(eq(orderItems.id, line.id));
    },

    /** Gives a line refund's units back when the provider refused the refund (nothing went back). */
    async releaseLineRefund(orderId: string, position: number, quantity: number): Promise<void> {
      const lines = await db.select({ id: orderItems.id, refunded: orderItems.refundedQuantity }).from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.id));
      const line = lines[position - 1];
      if (!line) return;
      await db
        .update(orderItems)
        .set({ refundedQuantity: sql`greatest(0, ${orderItems.refundedQuantity} - ${quantity})` })
        .where(eq(orderItems.id, line.id));
    },

    async paidForLine(orderId: string, position: number, quantity: number): Promise<{ amountMinor: number; productName: string }> {
      if (!UUID.test(orderId)) throw new NotFound('Order not found');
      const lines = await db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.id));
      const line = lines[position - 1];
      if (!line) throw new Invalid(message('refund-no-such-line'));
      if (quantity > line.quantity) throw new Invalid(message('refund-line-units', String(line.quantity)));
      const before = (await unitsPaidBack(db, [line.id])).get(line.id) ?? 0;
      return { amountMinor: paidForUnits(line.lineTotalMinor, line.discountMinor, line.quantity, quantity, before), productName: line.productName };
    },

    /** Back office details: the order, its customer, its payment and its status history. */
    async adminDetail(orderId: string) {
      const order = await load(orderId);
      if (!order) throw new NotFound('Order not found');
      const [row] = await db
        .select({ userId: orders.userId, paymentId: orders.paymentId, email: users.email, firstName: users.firstName, lastName: users.lastName })
        .from(orders)
        .innerJoin(users, eq(users.id, orders.userId))
        .where(eq(orders.id, orderId))
        .limit(1);
      const [payment] = await db
        .select({ reference: payments.reference, provider: payments.provider, status: payments.status, amountMinor: payments.amountMinor, refundedMinor: payments.refundedMinor, currency: payments.currency })
        .from(payments)
        .where(eq(payments.id, row!.paymentId))
        .limit(1);
      const history = await db
        .select({ fromStatus: orderEvents.fromStatus, toStatus: orderEvents.toStatus, createdAt: orderEvents.createdAt, actorEmail: users.email })
        .from(orderEvents)
        .leftJoin(users, eq(users.id, orderEvents.actorId))
        .where(eq(orderEvents.orderId, orderId))
        .orderBy(asc(orderEvents.createdAt), asc(orderEvents.id));
      return {
        order,
        customer: { id: row!.userId, email: row!.email, name: `${row!.firstName} ${row!.lastName}` },
        payment: payment ?? null,
        history: [{ fromStatus: null, toStatus: 'pending', createdAt: new Date(order.createdAt), actorEmail: null }, ...history],
      };
    },

    /** Sends the order confirmation and records it on the order; false when the mail could not be sent (reconciliation tries again). */
    async sendConfirmation(order: OrderDto, userId: string): Promise<boolean> {
      const mailed = () => db.update(orders).set({ confirmationMailedAt: clock() }).where(eq(orders.id, order.id));
      const owner = await ownerEmail(userId);
      if (!owner) {
        await mailed();
        return true;
      }
      const link = new URL(`/order-details/${order.id}`, siteUrl).toString();
      const speed = order.deliverySpeed ? ` (${order.deliverySpeed.name}, ${order.deliverySpeed.days})` : '';
      const directions = order.deliveryOption === 'delivery' ? deliveryDirections(order.deliveryAddress) : null;
      const address = order.pickupPoint
        ? pickupPointDelivery(order.pickupPoint)
        : `${order.deliveryOption === 'pickup' ? 'Pickup at' : `Delivery${speed} to`} ${order.deliveryAddress.name}, ${formatAddress(order.deliveryAddress)}${directions ? `. ${directions}` : ''}`;
      try {
        await mailer.send({
          to: owner.email,
          subject: `Your ${STORE_NAME} order ${order.trackingNumber}`,
          text: `Hello ${owner.firstName},\n\nThank you for your order ${order.trackingNumber}.\n\n${itemsText(order)}\n${discountText(order)}Shipping: ${order.deliveryFee === 0 ? 'Free' : formatMoney(order.deliveryFee, order.currency)}\nTotal: ${formatMoney(order.total, order.currency)}\n${dueText(order)}\n${address}\n\nFollow your order: ${link}\n`,
          html: mailHtml(
            'Thank you for your order',
            `<p>Hello ${escapeHtml(owner.firstName)},</p><p>We have received your order <strong>${escapeHtml(order.trackingNumber)}</strong>.</p>${itemsHtml(order)}${order.amountDue > 0 ? `<p>${escapeHtml(dueText(order).trim())}</p>` : ''}<p>${escapeHtml(address)}</p><p><a href="${escapeHtml(link)}">Follow your order</a></p>`,
          ),
        });
      } catch (err) {
        log.error('order confirmation mail failed', { err, orderId: order.id });
        return false;
      }
      // Sent but not recorded (a crash right here) means one more mail later: at least once, never none.
      await mailed().catch((err) => log.error('could not record the confirmation mail', { err, orderId: order.id }));
      await notifications?.orderUpdate(order, userId, 'placed');
      await notifications?.giftRecipientUpdate(order, owner.firstName, 'placed');
      return true;
    },

    /**
     * Orders placed before `placedBefore` whose confirmation mail was never recorded as sent (the server
     * died or lost its database between placing the order and mailing it): mailed now. Returns how many.
     */
    async mailLostConfirmations({ placedBefore, limit = 100 }: { placedBefore: Date; limit?: number }): Promise<number> {
      const rows = await db
        .select({ id: orders.id, userId: orders.userId })
        .from(orders)
        .where(and(isNull(orders.confirmationMailedAt), lte(orders.createdAt, placedBefore)))
        .orderBy(asc(orders.createdAt))
        .limit(limit);
      let sent = 0;
      for (const row of rows) {
        const order = await load(row.id);
        if (order && (await this.sendConfirmation(order, row.userId))) sent++;
      }
      return sent;
    },

    async sendStatusMail(order: OrderDto): Promise<void> {
      const [row] = await db.select({ userId: orders.userId }).from(orders).where(eq(orders.id, order.id)).limit(1);
      const owner = row ? await ownerEmail(row.userId) : null;
      if (!owner) return;
      const link = new URL(`/order-details/${order.id}`, siteUrl).toString();
      try {
        await mailer.send({
          to: owner.email,
          subject: `${STATUS_SUBJECTS[order.status]} (${order.trackingNumber})`,
          text: `Hello ${owner.firstName},\n\nYour order ${order.trackingNumber} is now ${order.status}.\n\n${itemsText(order)}\nTotal: ${formatMoney(order.total, order.currency)}\n\nDetails: ${link}\n`,
          html: mailHtml(
            STATUS_SUBJECTS[order.status],
            `<p>Hello ${escapeHtml(owner.firstName)},</p><p>Your order <strong>${escapeHtml(order.trackingNumber)}</strong> is now <strong>${order.status}</strong>.</p>${itemsHtml(order)}<p><a href="${escapeHtml(link)}">See your order</a></p>`,
          ),
        });
      } catch (err) {
        log.error('order status mail failed', { err, orderId: order.id });
      }
      await notifications?.orderUpdate(order, row!.userId, order.status);
      await notifications?.giftRecipientUpdate(order, owner.firstName, order.status);
    },
  };
}
/** One CSV cell: quoted when needed; a leading =,+,-,@ is defused so spreadsheets do not run it. */
export function csvCell(v: unknown): string {
  let t = v === null || v === undefined ? '' : String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(t)) t = `'${t}`;
  return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}
export type OrderService = ReturnType<typeof createOrderService>;

/**
 * An account's deletion: its orders stay whole for the books (lines, totals, money, events), with
 * a delivery's address cut to city and state (cutAddress); a pickup's address is the boutique's.
 */
export async function anonymiseOrdersOf(tx: Db | Tx, userId: string, erasedName: string): Promise<void> {
  await tx
    .update(orders)
    .set({
      deliveryAddress: sql`jsonb_build_object(
        'id', '', 'name', ${erasedName}::text, 'address', '', 'zipCode', '',
        'country', ${orders.deliveryAddress}->'country', 'state', ${orders.deliveryAddress}->'state', 'city', ${orders.deliveryAddress}->'city')`,
    })
    .where(and(eq(orders.userId, userId), eq(orders.deliveryOption, 'delivery')));
}
