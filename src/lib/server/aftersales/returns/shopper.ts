import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { LIVE_RETURN_STATUSES, returnReferenceFrom, returnWindowClosesAt, returnWindowOpen, type ReturnDto } from '@/lib/domain/after-sales';
import type { ReturnRequestInput } from '@/lib/domain/after-sales-input';
import { Conflict, Invalid, NotFound } from '@/lib/domain/errors';
import { marketOfCurrency, type MarketCode } from '@/lib/domain/markets';
import { fill, message } from '@/lib/domain/messages';
import { toMajor, type CurrencyCode } from '@/lib/domain/money';
import { formatOrderDate } from '@/lib/domain/orders';
import { paidForUnits } from '@/lib/domain/promotions';
import { pickupLocationForMarket, type AddressDto } from '@/lib/domain/shipping';
import { UUID } from '@/lib/domain/validation';
import { applyStockMoves, type StockMove } from '@/lib/server/catalogue/stock';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { users } from '@/lib/server/accounts/tables';
import { returnItems, returns } from '@/lib/server/aftersales/tables';
import { orderItems, orders } from '@/lib/server/orders/tables';
import { cacheTags, type PageCacheInvalidator } from '@/lib/server/storefront/page-cache';
import type { PaymentService } from '@/lib/server/payments/service';
import { unitsPaidBack } from '../units-back';
import { differenceFor, exchangeChoices, pricesNow, type ExchangeChoice } from './exchange';
import type { ReturnMails } from './mail';
import { loadReturn, returnDto } from './reading';
import { insertReturn, type ReturnItemInsert } from './rows';

export interface ReturnOptions {
  orderId: string;
  trackingNumber: string;
  currency: CurrencyCode;
  open: boolean;
  closesAt: string | null;
  /** Where a drop-off goes: the market's boutique. */
  dropOff: AddressDto;
  deliveryAddress: AddressDto;
  lines: {
    id: number;
    productId: number;
    productName: string;
    productImage: string;
    color: string | null;
    size: string | null;
    quantity: number;
    returnable: number;
    exchanges: ExchangeChoice[];
  }[];
}

export const marketOfOrder = (currency: string): MarketCode => (marketOfCurrency(currency)?.code ?? 'NG') as MarketCode;

/** Units of each order line held by live (not rejected) returns. */
export async function heldUnits(tx: Db | Tx, orderId: string): Promise<Map<number, number>> {
  const rows = await tx
    .select({ orderItemId: returnItems.orderItemId, units: sql<number>`sum(${returnItems.quantity})::int` })
    .from(returnItems)
    .innerJoin(returns, eq(returns.id, returnItems.returnId))
    .where(and(eq(returns.orderId, orderId), inArray(returns.status, LIVE_RETURN_STATUSES)))
    .groupBy(returnItems.orderItemId);
  return new Map(rows.map((r) => [r.orderItemId, Number(r.units)]));
}

/**
 * A request's checks and rows, for an order locked by the caller (FOR UPDATE): delivered, within its
 * 3-day window, never more units than are left of each line. The buyer's request and a gift's
 * recipient's (gift.ts, `creditUserId` the account its money goes to) both write through here.
 */
export async function writeRequest(
  tx: Tx,
  order: typeof orders.$inferSelect,
  input: ReturnRequestInput,
  opts: { actorId: string; creditUserId: string | null; now: Date },
): Promise<{ ret: ReturnDto; productIds: number[] }> {
  const { actorId, creditUserId, now } = opts;
  const orderId = order.id;
  if (order.status !== 'delivered' || !order.deliveredAt) throw new Conflict(message('return-not-delivered'));
  if (!returnWindowOpen(order, now)) {
    throw new Conflict(fill('return-window-closed', formatOrderDate(returnWindowClosesAt(order.deliveredAt).toISOString())));
  }
  const lines = await tx.select().from(orderItems).where(eq(orderItems.orderId, orderId));
  const held = await heldUnits(tx, orderId);
  const paidBack = await unitsPaidBack(tx, lines.map((l) => l.id));
  const market = marketOfOrder(order.currency);
  const choices = await exchangeChoices(tx, [...new Set(lines.map((l) => l.productId))], market);
  const today = await pricesNow(tx, lines.map((l) => l.variantId), market);
  const seen = new Set<number>();
  let paidMinor = 0;
  let differenceMinor = 0;
  const itemRows: ReturnItemInsert[] = [];
  type Wanted = { orderItemId: number; quantity: number; exchangeVariantId?: number | undefined };
  const holds: StockMove[] = [];
  for (const wanted of input.items as Wanted[]) {
    const line = lines.find((l) => l.id === wanted.orderItemId);
    if (!line || seen.has(line.id)) throw new Invalid(message('return-line-unknown'));
    seen.add(line.id);
    const left = line.quantity - line.refundedQuantity - (held.get(line.id) ?? 0);
    if (wanted.quantity > left) throw new Conflict(left > 0 ? fill('return-too-many', left) : message('return-line-taken'));
    paidMinor += paidForUnits(line.lineTotalMinor, line.discountMinor, line.quantity, wanted.quantity, paidBack.get(line.id) ?? 0);
    let exchangeVariantId: number | null = null;
    let exchangeUnitPriceMinor: number | null = null;
    if (input.resolution === 'exchange') {
      const choice = choices.find((c) => c.variantId === wanted.exchangeVariantId && c.productId === line.productId && c.variantId !== line.variantId);
      if (!choice) throw new Invalid(message('return-exchange-unavailable'));
      exchangeVariantId = choice.variantId;
      exchangeUnitPriceMinor = choice.priceMinor;
      differenceMinor += differenceFor(line, wanted.quantity, choice.priceMinor, today);
      holds.push({ variantId: choice.variantId, delta: -wanted.quantity, kind: 'exchange', orderId, actorId });
    }
    itemRows.push({ orderItemId: line.id, quantity: wanted.quantity, exchangeVariantId, exchangeUnitPriceMinor });
  }
  const reference = returnReferenceFrom(randomBytes(8));
  // The exchange's new units leave the shelf now (OutOfStock, a Conflict, if they just sold out).
  await applyStockMoves(tx, holds.map((h) => ({ ...h, reason: `Held for exchange ${reference}` })), now);
  const row = await insertReturn(
    tx,
    {
      reference,
      orderId,
      userId: order.userId,
      creditUserId,
      reason: input.reason,
      resolution: input.resolution,
      method: input.method,
      currency: order.currency,
      paidMinor,
      differenceMinor,
      createdAt: now,
      updatedAt: now,
    },
    itemRows,
  );
  return { ret: await returnDto(tx, row), productIds: [...new Set(choices.filter((c) => holds.some((h) => h.variantId === c.variantId)).map((c) => c.productId))] };
}

/** The shopper's side of a return: the request form's options, the request, paying a dearer exchange's difference. */
export function createReturnRequests(deps: {
  db: Db;
  clock: () => Date;
  mails: Pick<ReturnMails, 'requested'>;
  payments: Pick<PaymentService, 'initiateDifference'>;
  pageCache?: PageCacheInvalidator | undefined;
}) {
  const { db, clock } = deps;
  return {
    /** The request form's data: the order's lines with what may still be returned and the exchanges on offer. */
    async optionsFor(userId: string, orderId: string): Promise<ReturnOptions> {
      if (!UUID.test(orderId)) throw new NotFound(message('order-not-found'));
      const [order] = await db.select().from(orders).where(eq(orders.id, orderId)).limit(1);
      if (!order || order.userId !== userId) throw new NotFound(message('order-not-found'));
      const lines = await db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.id));
      const held = await heldUnits(db, orderId);
      const market = marketOfOrder(order.currency);
      const choices = await exchangeChoices(db, [...new Set(lines.map((l) => l.productId))], market);
      const now = await pricesNow(db, lines.map((l) => l.variantId), market);
      return {
        orderId,
        trackingNumber: order.trackingNumber,
        currency: order.currency as CurrencyCode,
        open: returnWindowOpen(order, clock()),
        closesAt: order.deliveredAt ? returnWindowClosesAt(order.deliveredAt).toISOString() : null,
        dropOff: pickupLocationForMarket(market),
        deliveryAddress: order.deliveryAddress as AddressDto,
        lines: lines.map((l) => ({
          id: l.id,
          productId: l.productId,
          productName: l.productName,
          productImage: l.productImage,
          color: l.color,
          size: l.size,
          quantity: l.quantity,
          // Units staff refunded from the order page are not returned (or refunded) again.
          returnable: Math.max(0, l.quantity - l.refundedQuantity - (held.get(l.id) ?? 0)),
          // Another size or colour of the same piece; a dearer one's difference is paid online before approval.
          exchanges: choices
            .filter((c) => c.productId === l.productId && c.variantId !== l.variantId)
            .map(({ productId: _p, priceMinor, ...c }) => ({ ...c, difference: toMajor(differenceFor(l, 1, priceMinor, now)) })),
        })),
      };
    },

    /** "Return or exchange": under the order's row lock; an exchange's units are held at once. */
    async request(userId: string, orderId: string, input: ReturnRequestInput): Promise<ReturnDto> {
      if (!UUID.test(orderId)) throw new NotFound(message('order-not-found'));
      const result = await db.transaction(async (tx) => {
        const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
        if (!order || order.userId !== userId) throw new NotFound(message('order-not-found'));
        return writeRequest(tx, order, input, { actorId: userId, creditUserId: null, now: clock() });
      });
      if (result.productIds.length && deps.pageCache) await deps.pageCache.invalidate(result.productIds.map((id) => cacheTags.product(id)));
      const ret = result.ret;
      await deps.mails.requested(ret, marketOfOrder(ret.currency));
      return ret;
    },

    /**
     * "Pay the difference" of a dearer exchange: an online payment for it, whose return (the order's
     * page) marks the return paid through the payment service's fulfil. Staff approve it after.
     */
    async payDifference(userId: string, orderId: string, returnId: string, site: string) {
      const ret = await loadReturn(db, returnId);
      if (ret.orderId !== orderId) throw new NotFound(message('return-not-found'));
      const [owner] = await db.select({ userId: returns.userId, email: users.email, differencePaidAt: returns.differencePaidAt, differenceMinor: returns.differenceMinor }).from(returns).innerJoin(users, eq(users.id, returns.userId)).where(eq(returns.id, returnId)).limit(1);
      if (!owner || owner.userId !== userId) throw new NotFound(message('return-not-found'));
      if (owner.differenceMinor <= 0) throw new Conflict(message('return-difference-none'));
      if (ret.status !== 'requested' || owner.differencePaidAt) throw new Conflict(message('return-action-refused'));
      const callbackUrl = new URL(`/order-details/${ret.orderId}`, site).toString();
      return deps.payments.initiateDifference({
        userId,
        email: owner.email,
        currency: ret.currency as CurrencyCode,
        amountMinor: owner.differenceMinor,
        snapshot: { kind: 'exchange_difference', callbackUrl, orderId: ret.orderId, returnId: ret.id, returnReference: ret.reference },
      });
    },
  };
}
