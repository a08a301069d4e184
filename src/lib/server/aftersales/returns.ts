import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import { STORE_NAME } from '@/lib/domain/brand';
import {
  FINAL_RETURN_STATUSES,
  LIVE_RETURN_STATUSES,
  RETURN_ACTION_MOVES,
  RETURN_METHOD_LABELS,
  RETURN_REASON_LABELS,
  RETURN_RESOLUTION_LABELS,
  RETURN_STATUS_LABELS,
  returnActionAllowed,
  returnReferenceFrom,
  returnWindowClosesAt,
  returnWindowOpen,
  exchangeDifference,
  splitReturnMoney,
  type ReturnDto,
  type ReturnStatus,
} from '@/lib/domain/after-sales';
import type { ReturnActionInput, ReturnRequestInput } from '@/lib/domain/after-sales-input';
import { Conflict, Invalid, NotFound } from '@/lib/domain/errors';
import { marketOfCurrency, type MarketCode } from '@/lib/domain/markets';
import { fill, message } from '@/lib/domain/messages';
import { formatMoney, toMajor, type CurrencyCode } from '@/lib/domain/money';
import { formatOrderDate, type OrderDto } from '@/lib/domain/orders';
import { paidForUnits } from '@/lib/domain/promotions';
import { formatAddress, pickupLocationForMarket, type AddressDto } from '@/lib/domain/shipping';
import type { Actor, AuditLog } from '@/lib/server/backoffice/audit';
import { applyStockMoves, type StockMove } from '@/lib/server/catalogue/stock';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { pageOf } from '@/lib/server/infra/db/paging';
import type { PageAt } from '@/lib/domain/paging';
import { colors, orderItems, orders, owedRefunds, payments, returnItems, returns, sizes, users, variantPrices, variants } from '@/lib/server/infra/db/schema';
import type { Logger } from '@/lib/server/infra/log';
import { escapeHtml, mailHtml, type Mailer } from '@/lib/server/infra/mail';
import { cacheTags, type PageCacheInvalidator } from '@/lib/server/infra/page-cache';
import type { PaymentService } from '@/lib/server/payments/service';
import { CannotFulfil, type DifferenceFulfilment } from '@/lib/server/payments/types';
import { lockedOrderMoney, recordOrderMoney } from '@/lib/server/orders/order-money';
import { oweRefund } from '@/lib/server/orders/owed-refunds';
import type { StoreCreditService } from './store-credit';
import { unitsPaidBack } from './units-back';
import { UUID } from '@/lib/domain/validation';

type ReturnRow = typeof returns.$inferSelect;

/** An exchange the request form offers for a line: another variant of the same product, priced and in stock in the order's market. */
export interface ExchangeChoice {
  variantId: number;
  color: string | null;
  size: string | null;
  unitPrice: number;
  stock: number;
  /** Per unit, against what was paid for the line's unit: > 0 the shopper pays it online first, < 0 it comes back. */
  difference: number;
}

export interface ReturnOptions {
  orderId: string;
  trackingNumber: string;
  currency: CurrencyCode;
  open: boolean;
  closesAt: string | null;
  /** Where a drop-off goes: the market's pickup point. */
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


/**
 * Returns and exchanges (ADR 0014): the one writer of `returns` and `return_items`.
 * A request is written under the order's row lock, so requests for one line never return more units
 * than were bought; an exchange takes its new unit at once through the stock ledger. Staff move a
 * return (approve, reject, receive, refund, credit, ship) under its row lock; money goes back once:
 * what goes back to a payment is owed in the action's transaction (owed_refunds) and paid by the
 * refund worker, and its store credit row is unique per return.
 */
export function createReturnService(deps: {
  db: Db;
  clock: () => Date;
  log: Logger;
  mailer: Mailer;
  audit: AuditLog;
  payments: Pick<PaymentService, 'initiateDifference'>;
  /** Pays the refunds owed now (the refund worker's run), after a rejection that owes one commits. */
  payOwedRefunds?: () => Promise<unknown>;
  storeCredit: StoreCreditService;
  pageCache?: PageCacheInvalidator;
  siteUrl: string;
  /**
   * Delivery by courier (delivery/shipments.ts): `ask` records, in the approving transaction, the
   * collection of a return's pieces from the shopper; `bookNow` runs the worker after the commit.
   */
  shipments?: { ask(tx: Tx, ret: { id: string; orderId: string; currency: string }): Promise<unknown>; sendExchange?(tx: Tx, ret: { id: string; orderId: string; currency: string }): Promise<unknown>; bookNow(): Promise<unknown> };
}) {
  const { db, clock, log, mailer, audit } = deps;

  const marketOfOrder = (currency: string): MarketCode => (marketOfCurrency(currency)?.code ?? 'NG') as MarketCode;

  /** Units of each order line held by live (not rejected) returns. */
  async function heldUnits(tx: Db | Tx, orderId: string): Promise<Map<number, number>> {
    const rows = await tx
      .select({ orderItemId: returnItems.orderItemId, units: sql<number>`sum(${returnItems.quantity})::int` })
      .from(returnItems)
      .innerJoin(returns, eq(returns.id, returnItems.returnId))
      .where(and(eq(returns.orderId, orderId), inArray(returns.status, LIVE_RETURN_STATUSES)))
      .groupBy(returnItems.orderItemId);
    return new Map(rows.map((r) => [r.orderItemId, Number(r.units)]));
  }

  async function exchangeChoices(tx: Db | Tx, productIds: number[], market: MarketCode): Promise<(Omit<ExchangeChoice, 'difference'> & { productId: number; priceMinor: number })[]> {
    if (productIds.length === 0) return [];
    const rows = await tx
      .select({ variantId: variants.id, productId: variants.productId, color: colors.name, size: sizes.name, stock: variants.stock, priceMinor: variantPrices.priceMinor })
      .from(variants)
      .innerJoin(variantPrices, and(eq(variantPrices.variantId, variants.id), eq(variantPrices.market, market)))
      .leftJoin(colors, eq(colors.id, variants.colorId))
      .leftJoin(sizes, eq(sizes.id, variants.sizeId))
      .where(and(inArray(variants.productId, productIds), sql`${variants.stock} > 0`))
      .orderBy(asc(colors.name), asc(sizes.position));
    return rows.map((r) => ({ ...r, unitPrice: toMajor(r.priceMinor) }));
  }

  /** Each variant's price in the market now (a variant no longer priced there is absent). */
  async function pricesNow(tx: Db | Tx, variantIds: number[], market: MarketCode): Promise<Map<number, number>> {
    if (variantIds.length === 0) return new Map();
    const rows = await tx
      .select({ variantId: variantPrices.variantId, priceMinor: variantPrices.priceMinor })
      .from(variantPrices)
      .where(and(inArray(variantPrices.variantId, variantIds), eq(variantPrices.market, market)));
    return new Map(rows.map((r) => [r.variantId, r.priceMinor]));
  }

  /** The difference of exchanging `units` of `line` for a piece at `newUnitPriceMinor` (exchangeDifference). */
  const differenceFor = (line: typeof orderItems.$inferSelect, units: number, newUnitPriceMinor: number, now: Map<number, number>) =>
    exchangeDifference({
      lineUnitPriceMinor: line.unitPriceMinor,
      lineTotalMinor: line.lineTotalMinor,
      lineDiscountMinor: line.discountMinor,
      lineQuantity: line.quantity,
      units,
      newUnitPriceMinor,
      originalUnitPriceNowMinor: now.get(line.variantId) ?? null,
    });

  async function toDtos(rows: ReturnRow[], tx: Db | Tx = db): Promise<ReturnDto[]> {
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

  async function load(id: string, tx: Db | Tx = db): Promise<ReturnDto> {
    if (!UUID.test(id)) throw new NotFound(message('return-not-found'));
    const [row] = await tx.select().from(returns).where(eq(returns.id, id)).limit(1);
    if (!row) throw new NotFound(message('return-not-found'));
    return (await toDtos([row], tx))[0]!;
  }

  /** Tells the shopper what became of their return (never throws: a lost mail is logged). */
  async function mailShopper(ret: ReturnDto, subject: string, lines: string[]): Promise<void> {
    try {
      const [row] = await db
        .select({ email: users.email, firstName: users.firstName, trackingNumber: orders.trackingNumber })
        .from(returns)
        .innerJoin(users, eq(users.id, returns.userId))
        .innerJoin(orders, eq(orders.id, returns.orderId))
        .where(eq(returns.id, ret.id))
        .limit(1);
      if (!row) return;
      const link = new URL(`/order-details/${ret.orderId}`, deps.siteUrl).toString();
      const items = ret.items.map((i) => `${i.quantity} × ${i.productName}${i.exchange ? ` → ${[i.exchange.color, i.exchange.size].filter(Boolean).join(', ')}` : ''}`);
      await mailer.send({
        to: row.email,
        subject: `${subject} (${ret.reference}, order ${row.trackingNumber})`,
        text: `Hello ${row.firstName},\n\n${lines.join('\n')}\n\n${items.join('\n')}\n\nYour order: ${link}\n\n${STORE_NAME}\n`,
        html: mailHtml(
          subject,
          `<p>Hello ${escapeHtml(row.firstName)},</p>${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}<ul>${items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul><p><a href="${escapeHtml(link)}">See your order</a></p>`,
        ),
      });
    } catch (err) {
      log.error('return mail failed', { err, returnId: ret.id });
    }
  }

  const money = (minor: number, currency: string) => formatMoney(toMajor(minor), currency as CurrencyCode);

  /** Locks the return for a staff action and checks the action applies now. */
  async function lockFor(tx: Tx, id: string, action: keyof typeof RETURN_ACTION_MOVES): Promise<ReturnRow> {
    if (!UUID.test(id)) throw new NotFound(message('return-not-found'));
    const [row] = await tx.select().from(returns).where(eq(returns.id, id)).for('update');
    if (!row) throw new NotFound(message('return-not-found'));
    if (row.settlingAt !== null) throw new Conflict(message('return-settling'));
    if (!returnActionAllowed(action, row.status, row.resolution)) {
      throw new Conflict(message('return-action-refused'));
    }
    return row;
  }

  async function move(tx: Tx, row: ReturnRow, to: ReturnStatus, set: Partial<ReturnRow> = {}) {
    const [updated] = await tx
      .update(returns)
      .set({ ...set, status: to, updatedAt: clock() })
      .where(and(eq(returns.id, row.id), eq(returns.status, row.status)))
      .returning();
    return updated!;
  }

  /**
   * What the order's payment can still refund (less its refunds owed and not paid yet, and a claim
   * in progress that is no owed refund's), and whether part of the order was paid in cash at the door.
   */
  async function paymentOf(tx: Db | Tx, orderId: string) {
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
  async function paidForReceived(tx: Db | Tx, row: ReturnRow): Promise<number> {
    const lines = await tx
      .select({ orderItemId: returnItems.orderItemId, quantity: returnItems.quantity, received: returnItems.receivedQuantity, lineTotalMinor: orderItems.lineTotalMinor, discountMinor: orderItems.discountMinor, lineQuantity: orderItems.quantity })
      .from(returnItems)
      .innerJoin(orderItems, eq(orderItems.id, returnItems.orderItemId))
      .where(eq(returnItems.returnId, row.id));
    const before = await unitsPaidBack(tx, lines.map((l) => l.orderItemId));
    return lines.reduce((sum, l) => sum + paidForUnits(l.lineTotalMinor, l.discountMinor, l.lineQuantity, l.received ?? l.quantity, before.get(l.orderItemId) ?? 0), 0);
  }

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
        if (order.status !== 'delivered' || !order.deliveredAt) throw new Conflict(message('return-not-delivered'));
        if (!returnWindowOpen(order, clock())) {
          throw new Conflict(fill('return-window-closed', formatOrderDate(returnWindowClosesAt(order.deliveredAt).toISOString())));
        }
        const lines = await tx.select().from(orderItems).where(eq(orderItems.orderId, orderId));
        const held = await heldUnits(tx, orderId);
        const paidBack = await unitsPaidBack(tx, lines.map((l) => l.id));
        const market = marketOfOrder(order.currency);
        const choices = await exchangeChoices(tx, [...new Set(lines.map((l) => l.productId))], market);
        const now = await pricesNow(tx, lines.map((l) => l.variantId), market);
        const seen = new Set<number>();
        let paidMinor = 0;
        let differenceMinor = 0;
        const itemRows: (typeof returnItems.$inferInsert)[] = [];
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
            differenceMinor += differenceFor(line, wanted.quantity, choice.priceMinor, now);
            holds.push({ variantId: choice.variantId, delta: -wanted.quantity, kind: 'exchange', orderId, actorId: userId });
          }
          itemRows.push({ returnId: '', orderItemId: line.id, quantity: wanted.quantity, exchangeVariantId, exchangeUnitPriceMinor });
        }
        const reference = returnReferenceFrom(randomBytes(8));
        // The exchange's new units leave the shelf now (OutOfStock, a Conflict, if they just sold out).
        await applyStockMoves(tx, holds.map((h) => ({ ...h, reason: `Held for exchange ${reference}` })), clock());
        const [row] = await tx
          .insert(returns)
          .values({
            reference,
            orderId,
            userId,
            reason: input.reason,
            resolution: input.resolution,
            method: input.method,
            currency: order.currency,
            paidMinor,
            differenceMinor,
            createdAt: clock(),
            updatedAt: clock(),
          })
          .returning();
        await tx.insert(returnItems).values(itemRows.map((i) => ({ ...i, returnId: row!.id })));
        return { ret: (await toDtos([row!], tx))[0]!, productIds: [...new Set(choices.filter((c) => holds.some((h) => h.variantId === c.variantId)).map((c) => c.productId))] };
      });
      if (result.productIds.length && deps.pageCache) await deps.pageCache.invalidate(result.productIds.map((id) => cacheTags.product(id)));
      const ret = result.ret;
      const market = marketOfOrder(ret.currency);
      await mailShopper(ret, message('return-requested'), [
        `We have your request ${ret.reference}: ${ret.resolutionLabel.toLowerCase()}, because "${ret.reasonLabel}".`,
        ret.method === 'drop_off'
          ? `Once we approve it, bring the pieces to ${formatAddress(pickupLocationForMarket(market))}, with the order number.`
          : 'Once we approve it, our courier will collect the pieces from your delivery address.',
      ]);
      return ret;
    },

    /**
     * "Pay the difference" of a dearer exchange: an online payment for it, whose return (the order's
     * page) marks the return paid through the payment service's fulfil. Staff approve it after.
     */
    async payDifference(userId: string, orderId: string, returnId: string, site: string) {
      const ret = await load(returnId);
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

    /** An order's returns, oldest first. */
    async forOrder(orderId: string): Promise<ReturnDto[]> {
      if (!UUID.test(orderId)) return [];
      const rows = await db.select().from(returns).where(eq(returns.orderId, orderId)).orderBy(asc(returns.createdAt), asc(returns.id));
      return toDtos(rows);
    },

    get: load,

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

    /** One return for staff, with its order's customer and what its payment can still refund. */
    async adminDetail(id: string) {
      const ret = await load(id);
      const [row] = await db
        .select({ userId: returns.userId, email: users.email, firstName: users.firstName, lastName: users.lastName, trackingNumber: orders.trackingNumber })
        .from(returns)
        .innerJoin(users, eq(users.id, returns.userId))
        .innerJoin(orders, eq(orders.id, returns.orderId))
        .where(eq(returns.id, id))
        .limit(1);
      const pay = await paymentOf(db, ret.orderId);
      return {
        ret,
        trackingNumber: row!.trackingNumber,
        customer: { id: row!.userId, email: row!.email, name: `${row!.firstName} ${row!.lastName}` },
        onlineLeft: toMajor(pay.onlineLeftMinor),
        paidCash: pay.paidCash,
      };
    },

    /** A staff action on a return (`POST /api/v1/admin/returns/{id}`): each step audited and mailed to the shopper. */
    async act(actor: Actor, id: string, input: ReturnActionInput): Promise<ReturnDto> {
      if (input.action === 'refund') return this.refund(actor, id, input);
      const done = await db.transaction(async (tx) => {
        const row = await lockFor(tx, id, input.action);
        const audited = (details: Record<string, unknown>) =>
          audit.record(actor, { action: `return.${input.action}`, entity: 'return', entityId: row.id, details: { reference: row.reference, from: row.status, ...details } }, tx);
        const productIds: number[] = [];
        let updated: ReturnRow;
        let differenceOwed = false;
        if (input.action === 'approve') {
          if (row.differenceMinor > 0 && row.differencePaidAt === null) throw new Conflict(message('return-difference-unpaid'));
          updated = await move(tx, row, 'approved');
          // A courier collects the pieces (the shopper chose collection): booked like a delivery.
          if (row.method === 'collection') await deps.shipments?.ask(tx, row);
          await audited({});
        } else if (input.action === 'reject') {
          // The exchange's held units go back on sale.
          const held = await tx.select().from(returnItems).where(and(eq(returnItems.returnId, row.id), sql`${returnItems.exchangeVariantId} is not null`));
          const back = await applyStockMoves(
            tx,
            held.map((h) => ({ variantId: h.exchangeVariantId!, delta: h.quantity, kind: 'exchange_release' as const, orderId: row.orderId, actorId: actor.id, reason: `Return ${row.reference} rejected` })),
            clock(),
          );
          productIds.push(...back.map((b) => b.productId));
          updated = await move(tx, row, 'rejected', { rejectionReason: input.reason });
          await audited({ reason: input.reason });
          if (row.differencePaidAt) {
            const [paid] = await tx
              .select({ id: payments.id, amountMinor: payments.amountMinor, refundedMinor: payments.refundedMinor })
              .from(payments)
              .where(and(eq(payments.returnId, row.id), eq(payments.purpose, 'exchange_difference'), eq(payments.status, 'fulfilled')));
            // The paid difference is owed back to its payment in this transaction; the refund worker pays it.
            if (paid) {
              const owed = await oweRefund(
                tx,
                { orderId: row.orderId, paymentId: paid.id, returnId: row.id, amountMinor: paid.amountMinor - paid.refundedMinor, currency: row.currency, destination: 'payment', reason: `Exchange ${row.reference} rejected: the difference paid` },
                clock(),
              );
              differenceOwed = owed !== null;
            }
          }
        } else if (input.action === 'receive') {
          const lines = await tx
            .select({ id: returnItems.id, quantity: returnItems.quantity, variantId: orderItems.variantId })
            .from(returnItems)
            .innerJoin(orderItems, eq(orderItems.id, returnItems.orderItemId))
            .where(eq(returnItems.returnId, row.id));
          const moves: StockMove[] = [];
          for (const line of lines) {
            const said = input.items?.find((i) => i.id === line.id);
            const received = said?.received ?? line.quantity;
            const damaged = said?.damaged ?? 0;
            if (received > line.quantity || damaged > received) throw new Invalid(message('return-received-range'));
            await tx.update(returnItems).set({ receivedQuantity: received, damagedQuantity: damaged }).where(eq(returnItems.id, line.id));
            // Only undamaged units go back on sale.
            if (received - damaged > 0) moves.push({ variantId: line.variantId, delta: received - damaged, kind: 'return', orderId: row.orderId, actorId: actor.id, reason: `Return ${row.reference} received` });
          }
          const back = await applyStockMoves(tx, moves, clock());
          productIds.push(...back.map((b) => b.productId));
          updated = await move(tx, row, 'received');
          await audited({ items: input.items ?? 'all undamaged' });
        } else if (input.action === 'credit') {
          // Never more than the order has left to give back (an amount refund may have taken it already).
          const left = await lockedOrderMoney(tx, row.orderId);
          const amountMinor = Math.min(await paidForReceived(tx, row), left.leftMinor);
          if (amountMinor > 0) {
            await deps.storeCredit.move(tx, { userId: row.userId, currency: row.currency, deltaMinor: amountMinor, kind: 'return', returnId: row.id, orderId: row.orderId, actorId: actor.id, reason: `Return ${row.reference}` });
            await recordOrderMoney(tx, { orderId: row.orderId, kind: 'credited', amountMinor, currency: row.currency, returnId: row.id, reason: `Return ${row.reference}` }, clock());
          }
          updated = await move(tx, row, 'credited', { creditedMinor: amountMinor });
          await audited({ creditedMinor: amountMinor });
        } else {
          // ship: the exchange goes out; a cheaper piece's difference comes back as store credit.
          const back = Math.min(Math.max(0, -row.differenceMinor), (await lockedOrderMoney(tx, row.orderId)).leftMinor);
          if (back > 0) {
            await deps.storeCredit.move(tx, { userId: row.userId, currency: row.currency, deltaMinor: back, kind: 'return', returnId: row.id, orderId: row.orderId, actorId: actor.id, reason: `Exchange ${row.reference}: the difference` });
            await recordOrderMoney(tx, { orderId: row.orderId, kind: 'credited', amountMinor: back, currency: row.currency, returnId: row.id, reason: `Exchange ${row.reference}: the difference` }, clock());
          }
          updated = await move(tx, row, 'exchanged', { shipmentTracking: input.trackingNumber, creditedMinor: back });
          await deps.shipments?.sendExchange?.(tx, row);
          await audited({ trackingNumber: input.trackingNumber, creditedMinor: back });
        }
        return { ret: (await toDtos([updated], tx))[0]!, productIds, differenceOwed };
      });
      // Paying it now spares the shopper the worker's wait; the worker pays it otherwise.
      if (input.action === 'approve' || input.action === 'ship') await deps.shipments?.bookNow().catch((err: unknown) => log.error('booking a return collection failed', { returnId: id, err }));
      if (done.differenceOwed) await deps.payOwedRefunds?.().catch((err: unknown) => log.error('paying owed refunds after a rejected exchange failed', { returnId: id, err }));
      if (done.productIds.length && deps.pageCache) await deps.pageCache.invalidate([...new Set(done.productIds)].map((p) => cacheTags.product(p)));
      const ret = done.ret;
      const lines: Record<Exclude<ReturnActionInput['action'], 'refund'>, string[]> = {
        approve: [ret.method === 'drop_off' ? 'Your return is approved. Bring the pieces to our boutique with the order number.' : 'Your return is approved. Our courier will collect the pieces from your delivery address.'],
        reject: [`We cannot accept this return: ${ret.rejectionReason ?? ''}`, ...(ret.differencePaid ? [`The difference you paid, ${money(Math.round(ret.difference * 100), ret.currency)}, is on its way back to your payment.`] : [])],
        receive: ['We have received the pieces you sent back.'],
        credit: [`${money(Math.round(ret.credited * 100), ret.currency)} has been added to your store credit.`],
        ship: [`Your exchange is on its way. Tracking number: ${ret.shipmentTracking ?? ''}.`, ...(ret.credited > 0 ? [`The difference, ${money(Math.round(ret.credited * 100), ret.currency)}, has been added to your store credit.`] : [])],
      };
      await mailShopper(ret, `${message('return-update')}: ${ret.statusLabel.toLowerCase()}`, lines[input.action]);
      return ret;
    },

    /**
     * "Refund": what was paid for the received units goes back where it came from (splitReturnMoney):
     * to the order's online payment first, the rest as store credit or a bank transfer staff record.
     * One transaction under the return's and the order's row locks: the payment's part is owed
     * (owed_refunds, paid by the refund worker with the row's key, once), the store credit and the
     * transfer are on their ledgers at once. Two refunds of one return: the second finds it refunded.
     */
    async refund(actor: Actor, id: string, input: Extract<ReturnActionInput, { action: 'refund' }>): Promise<ReturnDto> {
      const { ret, split, owed } = await db.transaction(async (tx) => {
        const row = await lockFor(tx, id, 'refund');
        // What was paid for the units, never more than the order has left to give back.
        const left = await lockedOrderMoney(tx, row.orderId);
        const amountMinor = await paidForReceived(tx, row);
        const pay = await paymentOf(tx, row.orderId);
        let split = splitReturnMoney({ amountMinor, to: 'payment', onlineLeftMinor: pay.onlineLeftMinor, orderLeftMinor: left.leftMinor, paidCash: pay.paidCash, cashBy: input.cashBy });
        if (split.byTransferMinor > 0 && !input.transferReference) throw new Invalid(message('return-transfer-reference'));
        const owed =
          split.toPaymentMinor > 0 && pay.paymentId
            ? await oweRefund(tx, { orderId: row.orderId, paymentId: pay.paymentId, returnId: row.id, amountMinor: split.toPaymentMinor, currency: row.currency, destination: 'payment', reason: `Return ${row.reference}` }, clock())
            : null;
        split = { ...split, toPaymentMinor: owed?.amountMinor ?? 0 };
        if (split.toCreditMinor > 0) {
          await deps.storeCredit.move(tx, { userId: row.userId, currency: row.currency, deltaMinor: split.toCreditMinor, kind: 'return', returnId: row.id, orderId: row.orderId, actorId: actor.id, reason: `Return ${row.reference}` });
          await recordOrderMoney(tx, { orderId: row.orderId, kind: 'credited', amountMinor: split.toCreditMinor, currency: row.currency, returnId: row.id, reason: `Return ${row.reference}` }, clock());
        }
        await recordOrderMoney(tx, { orderId: row.orderId, kind: 'transferred', amountMinor: split.byTransferMinor, currency: row.currency, returnId: row.id, reason: input.transferReference ?? null }, clock());
        const updated = await move(tx, row, 'refunded', {
          refundedMinor: split.toPaymentMinor,
          creditedMinor: split.toCreditMinor,
          transferredMinor: split.byTransferMinor,
          transferReference: split.byTransferMinor > 0 ? (input.transferReference ?? null) : null,
        });
        await audit.record(actor, { action: 'return.refund', entity: 'return', entityId: row.id, details: { reference: row.reference, outcome: owed ? 'owed' : 'settled', owedRefundId: owed?.id ?? null, ...split } }, tx);
        return { ret: (await toDtos([updated], tx))[0]!, split, owed };
      });
      // Paying it now spares the shopper the worker's wait; the worker pays it otherwise.
      if (owed) await deps.payOwedRefunds?.().catch((err: unknown) => log.error('paying owed refunds after a return refund failed', { returnId: id, err }));
      await mailShopper(ret, `${message('return-update')}: ${ret.statusLabel.toLowerCase()}`, [
        ...(split.toPaymentMinor > 0 ? [`${money(split.toPaymentMinor, ret.currency)} is on its way back to your payment.`] : []),
        ...(split.toCreditMinor > 0 ? [`${money(split.toCreditMinor, ret.currency)} has been added to your store credit.`] : []),
        ...(split.byTransferMinor > 0 ? [`${money(split.byTransferMinor, ret.currency)} has been sent to you by bank transfer (reference ${ret.transferReference ?? ''}).`] : []),
        ...(split.toPaymentMinor + split.toCreditMinor + split.byTransferMinor === 0 ? [message('refund-order-nothing-left')] : []),
      ]);
      return ret;
    },

    /** Returns still waiting for staff (the dashboard's count). */
    async openCount(): Promise<number> {
      const [row] = await db.select({ n: count() }).from(returns).where(and(notInArray(returns.status, [...FINAL_RETURN_STATUSES]), isNull(returns.settlingAt)));
      return row?.n ?? 0;
    },
  };
}
export type ReturnService = ReturnType<typeof createReturnService>;

/**
 * The payment service's side of an exchange difference (DifferenceFulfilment): under the payment's
 * row lock, the return still waiting for it is marked paid, once. Anything else is CannotFulfil, and
 * the payment goes to refund (a return rejected meanwhile, or already paid by another payment).
 */
export function exchangeDifferences(deps: { db: Db; clock: () => Date; orderFor: (orderId: string) => Promise<OrderDto> }): DifferenceFulfilment {
  return {
    async place(tx, payment) {
      const [row] = await tx.select().from(returns).where(eq(returns.id, payment.returnId)).for('update');
      if (!row || row.status !== 'requested' || row.differencePaidAt !== null || row.differenceMinor !== payment.amountMinor || row.currency !== payment.currency) {
        throw new CannotFulfil('return_not_waiting');
      }
      await tx.update(returns).set({ differencePaidAt: deps.clock(), updatedAt: deps.clock() }).where(eq(returns.id, row.id));
      await recordOrderMoney(tx, { orderId: row.orderId, kind: 'difference_paid', amountMinor: payment.amountMinor, currency: payment.currency, paymentId: payment.id, returnId: row.id }, deps.clock());
      return row.orderId;
    },
    async orderOfReturn(returnId, tx) {
      const [row] = await (tx ?? deps.db).select({ orderId: returns.orderId }).from(returns).where(eq(returns.id, returnId)).limit(1);
      return row?.orderId ?? null;
    },
    order: deps.orderFor,
  };
}
