import { asc, eq } from 'drizzle-orm';
import { calendarDayIn } from '@/lib/domain/after-sales';
import { variantLabel } from '@/lib/domain/cart';
import { MARKET_CODES, MARKETS, type MarketCode } from '@/lib/domain/markets';
import { rateForDay, type TaxSettings } from '@/lib/domain/tax-settings';
import { vatLines, type GrossLine, type VatLineKind } from '@/lib/domain/vat';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { orderItems, orders } from '@/lib/server/orders/tables';
import { taxSettingsOf } from './settings';
import { orderVatLines } from './tables';

/**
 * An order's VAT per line, fixed once when it is placed (the one writer of order_vat_lines), in the
 * placing transaction: each item after its share of the discount, the delivery or the locker's fee,
 * and the gift wrap, at the rate of the day it is placed in its market (0 where the market is not
 * registered, or the charge is not taxed). Store credit is how an order is paid, not its price, so
 * it plays no part. A rate or setting changed later never touches a placed order.
 */

export function marketOfCurrency(currency: string): MarketCode | null {
  return MARKET_CODES.find((m) => MARKETS[m].currency === currency) ?? null;
}

export type OrderVatLine = typeof orderVatLines.$inferSelect;

const CHARGE_DESCRIPTIONS: Record<Exclude<VatLineKind, 'item'>, string> = { delivery: 'Delivery', locker_fee: 'Delivery to a PUDO locker', gift_wrap: 'Gift wrapping' };

function chargeTaxed(settings: TaxSettings | null, kind: Exclude<VatLineKind, 'item'>): boolean {
  if (!settings) return false;
  return kind === 'delivery' ? settings.deliveryTaxed : kind === 'gift_wrap' ? settings.giftWrapTaxed : settings.lockerFeeTaxed;
}

/** Computes and writes the order's VAT lines (none when already written). Returns them. */
export async function fixOrderVat(tx: Tx, orderId: string): Promise<OrderVatLine[]> {
  const existing = await vatLinesOf(tx, orderId);
  if (existing.length > 0) return existing;
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).limit(1);
  if (!order) return [];
  const market = marketOfCurrency(order.currency);
  if (!market) return [];
  const settings = await taxSettingsOf(tx, market);
  const rate = rateForDay(settings, calendarDayIn(order.createdAt, MARKETS[market].timeZone));
  const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.id));

  type Planned = GrossLine & { orderItemId: number | null; description: string; quantity: number };
  const planned: Planned[] = items.map((i) => ({
    kind: 'item',
    grossMinor: i.lineTotalMinor - i.discountMinor,
    basisPoints: rate,
    orderItemId: i.id,
    description: variantLabel(i.productName, i.color, i.size),
    quantity: i.quantity,
  }));
  const deliveryKind = order.locker ? 'locker_fee' : 'delivery';
  const charges: Array<[Exclude<VatLineKind, 'item'>, number]> = [
    [deliveryKind, order.deliveryFeeMinor],
    ['gift_wrap', order.giftWrapMinor],
  ];
  for (const [kind, gross] of charges) {
    if (gross > 0) planned.push({ kind, grossMinor: gross, basisPoints: chargeTaxed(settings, kind) ? rate : 0, orderItemId: null, description: CHARGE_DESCRIPTIONS[kind], quantity: 1 });
  }
  if (planned.length === 0) return [];
  const computed = vatLines(planned);
  return tx
    .insert(orderVatLines)
    .values(
      computed.map((l, i) => ({
        orderId,
        kind: l.kind,
        orderItemId: planned[i]!.orderItemId,
        description: planned[i]!.description,
        quantity: planned[i]!.quantity,
        grossMinor: l.grossMinor,
        netMinor: l.netMinor,
        vatMinor: l.vatMinor,
        rateBasisPoints: l.basisPoints,
      })),
    )
    .returning();
}

export async function vatLinesOf(tx: Db | Tx, orderId: string): Promise<OrderVatLine[]> {
  return tx.select().from(orderVatLines).where(eq(orderVatLines.orderId, orderId)).orderBy(asc(orderVatLines.id));
}
