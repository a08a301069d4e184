import { and, asc, count, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import {
  FINAL_RETURN_STATUSES,
  RETURN_METHOD_LABELS,
  RETURN_REASON_LABELS,
  RETURN_RESOLUTION_LABELS,
  RETURN_STATUS_LABELS,
  type ReturnDto,
  type ReturnStatus,
} from '@/lib/domain/after-sales';
import { NotFound } from '@/lib/domain/errors';
import { message } from '@/lib/domain/messages';
import { toMajor } from '@/lib/domain/money';
import type { PageAt } from '@/lib/domain/paging';
import { UUID } from '@/lib/domain/validation';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { pageOf } from '@/lib/server/infra/db/paging';
import { users } from '@/lib/server/accounts/tables';
import { returnItems, returns } from '@/lib/server/aftersales/tables';
import { colors, sizes, variants } from '@/lib/server/catalogue/tables';
import { orderItems, orders } from '@/lib/server/orders/tables';
import { paymentOf } from './money';
import type { ReturnRow } from './rows';

export interface AdminReturnRow {
  id: string;
  reference: string;
  orderId: string;
  trackingNumber: string;
  customer: string;
  email: string;
  status: ReturnStatus;
  statusLabel: string;
  resolutionLabel: string;
  reasonLabel: string;
  units: number;
  paid: number;
  currency: string;
  createdAt: Date;
}

/** Returns as the shopper and staff read them: labels, lines (with the exchange's piece) and money in major units. */
export async function returnDtos(tx: Db | Tx, rows: ReturnRow[]): Promise<ReturnDto[]> {
  if (rows.length === 0) return [];
  const exchange = sql`ev`;
  const items = await tx
    .select({
      id: returnItems.id,
      returnId: returnItems.returnId,
      orderItemId: returnItems.orderItemId,
      quantity: returnItems.quantity,
      receivedQuantity: returnItems.receivedQuantity,
      damagedQuantity: returnItems.damagedQuantity,
      exchangeVariantId: returnItems.exchangeVariantId,
      exchangeUnitPriceMinor: returnItems.exchangeUnitPriceMinor,
      productId: orderItems.productId,
      productName: orderItems.productName,
      productImage: orderItems.productImage,
      color: orderItems.color,
      size: orderItems.size,
      exchangeColor: sql<string | null>`(select c.name from ${variants} ${exchange} left join ${colors} c on c.id = ${exchange}.color_id where ${exchange}.id = ${returnItems.exchangeVariantId})`,
      exchangeSize: sql<string | null>`(select s.name from ${variants} ${exchange} left join ${sizes} s on s.id = ${exchange}.size_id where ${exchange}.id = ${returnItems.exchangeVariantId})`,
    })
    .from(returnItems)
    .innerJoin(orderItems, eq(orderItems.id, returnItems.orderItemId))
    .where(inArray(returnItems.returnId, rows.map((r) => r.id)))
    .orderBy(asc(returnItems.id));
  return rows.map((r) => ({
    id: r.id,
    reference: r.reference,
    orderId: r.orderId,
    status: r.status,
    statusLabel: RETURN_STATUS_LABELS[r.status],
    reason: r.reason,
    reasonLabel: RETURN_REASON_LABELS[r.reason],
    resolution: r.resolution,
    resolutionLabel: RETURN_RESOLUTION_LABELS[r.resolution],
    method: r.method,
    methodLabel: RETURN_METHOD_LABELS[r.method],
    rejectionReason: r.rejectionReason,
    currency: r.currency,
    items: items
      .filter((i) => i.returnId === r.id)
      .map((i) => ({
        id: i.id,
        orderItemId: i.orderItemId,
        productId: i.productId,
        productName: i.productName,
        productImage: i.productImage,
        color: i.color,
        size: i.size,
        quantity: i.quantity,
        exchange:
          i.exchangeVariantId === null
            ? null
            : { variantId: i.exchangeVariantId, color: i.exchangeColor, size: i.exchangeSize, unitPrice: toMajor(i.exchangeUnitPriceMinor ?? 0) },
        receivedQuantity: i.receivedQuantity,
        damagedQuantity: i.damagedQuantity,
      })),
    paid: toMajor(r.paidMinor),
    difference: toMajor(r.differenceMinor),
    differencePaid: r.differencePaidAt !== null,
    refunded: toMajor(r.refundedMinor),
    credited: toMajor(r.creditedMinor),
    transferred: toMajor(r.transferredMinor),
    transferReference: r.transferReference,
    shipmentTracking: r.shipmentTracking,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
}

export const returnDto = async (tx: Db | Tx, row: ReturnRow): Promise<ReturnDto> => (await returnDtos(tx, [row]))[0]!;

/** One return by id (NotFound for a malformed or unknown id). */
export async function loadReturn(tx: Db | Tx, id: string): Promise<ReturnDto> {
  if (!UUID.test(id)) throw new NotFound(message('return-not-found'));
  const [row] = await tx.select().from(returns).where(eq(returns.id, id)).limit(1);
  if (!row) throw new NotFound(message('return-not-found'));
  return returnDto(tx, row);
}

/** The lists and pages that read returns: the order page's, the back office's queue and detail, the dashboard's count. */
export function createReturnReading(deps: { db: Db }) {
  const { db } = deps;
  return {
    /**
     * An order's returns as its buyer sees them, oldest first: a gift's returns are its recipient's
     * (ADR 0045), so the buyer is not shown them.
     */
    async forOrder(orderId: string): Promise<ReturnDto[]> {
      if (!UUID.test(orderId)) return [];
      const rows = await db.select().from(returns).where(and(eq(returns.orderId, orderId), isNull(returns.creditUserId))).orderBy(asc(returns.createdAt), asc(returns.id));
      return returnDtos(db, rows);
    },

    get: (id: string) => loadReturn(db, id),

    /** The back office's "Returns" queue: newest first, 25 a page; 'open' is every return not yet settled. */
    async adminList(opts: { status?: ReturnStatus | 'open' | undefined } & PageAt = {}) {
      const where =
        opts.status === 'open' ? notInArray(returns.status, [...FINAL_RETURN_STATUSES]) : opts.status ? eq(returns.status, opts.status) : undefined;
      const { rows, ...shown } = await pageOf(
        (w) =>
          db
            .select({
              row: returns,
              trackingNumber: orders.trackingNumber,
              firstName: users.firstName,
              lastName: users.lastName,
              email: users.email,
              units: sql<number>`(select coalesce(sum(${returnItems.quantity}), 0)::int from ${returnItems} where ${returnItems.returnId} = ${returns.id})`,
            })
            .from(returns)
            .innerJoin(orders, eq(orders.id, returns.orderId))
            .innerJoin(users, eq(users.id, returns.userId))
            .where(and(where, w.where))
            .orderBy(...w.orderBy)
            .limit(w.limit)
            .offset(w.offset),
        { table: returns, id: returns.id, idKind: 'uuid', idOf: (r) => r.row.id, keys: [{ column: returns.createdAt, desc: true }, { column: returns.id, desc: true }] },
        async () => (await db.select({ n: count() }).from(returns).where(where))[0]?.n ?? 0,
        opts,
        25,
      );
      const list: AdminReturnRow[] = rows.map((r) => ({
        id: r.row.id,
        reference: r.row.reference,
        orderId: r.row.orderId,
        trackingNumber: r.trackingNumber,
        customer: `${r.firstName} ${r.lastName}`,
        email: r.email,
        status: r.row.status,
        statusLabel: RETURN_STATUS_LABELS[r.row.status],
        resolutionLabel: RETURN_RESOLUTION_LABELS[r.row.resolution],
        reasonLabel: RETURN_REASON_LABELS[r.row.reason],
        units: Number(r.units),
        paid: toMajor(r.row.paidMinor),
        currency: r.row.currency,
        createdAt: r.row.createdAt,
      }));
      return { ...shown, rows: list };
    },

    /**
     * One return for staff, with its order's customer, what its payment can still refund, and for a
     * gift's return the recipient's account its store credit goes to.
     */
    async adminDetail(id: string) {
      const ret = await loadReturn(db, id);
      const [row] = await db
        .select({ userId: returns.userId, creditUserId: returns.creditUserId, email: users.email, firstName: users.firstName, lastName: users.lastName, trackingNumber: orders.trackingNumber })
        .from(returns)
        .innerJoin(users, eq(users.id, returns.userId))
        .innerJoin(orders, eq(orders.id, returns.orderId))
        .where(eq(returns.id, id))
        .limit(1);
      const pay = await paymentOf(db, ret.orderId);
      const [recipient] = row!.creditUserId
        ? await db.select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, row!.creditUserId)).limit(1)
        : [];
      return {
        ret,
        creditTo: recipient ? { id: recipient.id, email: recipient.email, name: `${recipient.firstName} ${recipient.lastName}` } : null,
        trackingNumber: row!.trackingNumber,
        customer: { id: row!.userId, email: row!.email, name: `${row!.firstName} ${row!.lastName}` },
        onlineLeft: toMajor(pay.onlineLeftMinor),
        paidCash: pay.paidCash,
      };
    },

    /** Returns still waiting for staff (the dashboard's count). */
    async openCount(): Promise<number> {
      const [row] = await db.select({ n: count() }).from(returns).where(and(notInArray(returns.status, [...FINAL_RETURN_STATUSES]), isNull(returns.settlingAt)));
      return row?.n ?? 0;
    },
  };
}
