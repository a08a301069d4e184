import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import { Forbidden, NotFound } from '@/lib/domain/errors';
import { toMajor, type CurrencyCode } from '@/lib/domain/money';
import { PAYMENT_METHOD_LABELS } from '@/lib/domain/payment-methods';
import { amountDueMinor, paymentStateOf, itemCount, shopperMayCancel, type OrderDto, type OrderStatus } from '@/lib/domain/orders';
import { returnWindowClosesAt, returnWindowOpen } from '@/lib/domain/after-sales';
import { deliverySpeed, type AddressDto } from '@/lib/domain/shipping';
import type { Gift } from '@/lib/domain/gifts';
import type { PageAt } from '@/lib/domain/paging';
import { UUID } from '@/lib/domain/validation';
import { message } from '@/lib/domain/messages';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { pageOf, type Ordering, type Page } from '@/lib/server/infra/db/paging';
import { orderItems, orders } from '@/lib/server/orders/tables';
import { payments } from '@/lib/server/payments/tables';

/**
 * Reading orders as their shopper sees them (OrderDto: lines, money, payment state, return window):
 * one order by id or by payment, and a shopper's history. The other order modules read an order
 * through `load` and `withItems` here.
 */

export type OrderRow = typeof orders.$inferSelect;
type OrderItemRow = typeof orderItems.$inferSelect;

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
    locker: row.locker ?? null,
  };
}

/** The order's gift as its columns keep it; null for an order that is not a gift. */
function giftOf(row: OrderRow): Gift | null {
  if (row.giftRecipientName === null || row.giftRecipientPhone === null) return null;
  return { recipientName: row.giftRecipientName, recipientPhone: row.giftRecipientPhone, message: row.giftMessage ?? '', wrap: row.giftWrap, hidePrices: row.giftHidePrices };
}

/** Orders a page of the shopper's order history shows. */
const ORDER_HISTORY_PAGE = 20;
/** Orders as the shopper's history and the back office list them: newest first, then by id. */
export const NEWEST_ORDERS_FIRST: Ordering<{ id: string }> = {
  table: orders,
  id: orders.id,
  idKind: 'uuid',
  idOf: (r) => r.id,
  keys: [
    { column: orders.createdAt, desc: true },
    { column: orders.id, desc: true },
  ],
};

export function createOrderReading({ db, clock }: { db: Db; clock: () => Date }) {
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

  return {
    /** The order's rows read into what the shopper sees, in the order given (in `tx` when given). */
    withItems,

    load,

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
      if (!order) throw new NotFound(message('order-not-found'));
      const [row] = await db.select({ userId: orders.userId }).from(orders).where(eq(orders.id, orderId)).limit(1);
      if (row?.userId !== userId) throw new Forbidden(message('order-other-account'));
      return order;
    },

    async findByPayment(paymentId: string, tx: Db | Tx = db): Promise<OrderDto | null> {
      const [row] = await tx.select().from(orders).where(eq(orders.paymentId, paymentId)).limit(1);
      return row ? ((await withItems([row], tx))[0] ?? null) : null;
    },
  };
}
