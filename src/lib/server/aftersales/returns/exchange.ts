import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { exchangeDifference } from '@/lib/domain/after-sales';
import type { MarketCode } from '@/lib/domain/markets';
import { toMajor } from '@/lib/domain/money';
import type { OrderDto } from '@/lib/domain/orders';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { returns } from '@/lib/server/aftersales/tables';
import { colors, sizes, variantPrices, variants } from '@/lib/server/catalogue/tables';
import { orderItems } from '@/lib/server/orders/tables';
import { recordOrderMoney } from '@/lib/server/orders/order-money';
import { CannotFulfil, type DifferenceFulfilment } from '@/lib/server/payments/types';
import { markDifferencePaid } from './rows';

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

/** The variants of `productIds` in stock and priced in the market, with their price. */
export async function exchangeChoices(tx: Db | Tx, productIds: number[], market: MarketCode): Promise<(Omit<ExchangeChoice, 'difference'> & { productId: number; priceMinor: number })[]> {
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
export async function pricesNow(tx: Db | Tx, variantIds: number[], market: MarketCode): Promise<Map<number, number>> {
  if (variantIds.length === 0) return new Map();
  const rows = await tx
    .select({ variantId: variantPrices.variantId, priceMinor: variantPrices.priceMinor })
    .from(variantPrices)
    .where(and(inArray(variantPrices.variantId, variantIds), eq(variantPrices.market, market)));
  return new Map(rows.map((r) => [r.variantId, r.priceMinor]));
}

/** The difference of exchanging `units` of `line` for a piece at `newUnitPriceMinor` (exchangeDifference). */
export const differenceFor = (line: typeof orderItems.$inferSelect, units: number, newUnitPriceMinor: number, now: Map<number, number>) =>
  exchangeDifference({
    lineUnitPriceMinor: line.unitPriceMinor,
    lineTotalMinor: line.lineTotalMinor,
    lineDiscountMinor: line.discountMinor,
    lineQuantity: line.quantity,
    units,
    newUnitPriceMinor,
    originalUnitPriceNowMinor: now.get(line.variantId) ?? null,
  });

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
      await markDifferencePaid(tx, row.id, deps.clock());
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
