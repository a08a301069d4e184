import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { trackingNumberFrom } from '@/lib/domain/orders';
import type { PaymentMethod } from '@/lib/domain/payment-methods';
import type { AddressDto, DeliveryOption, DeliverySpeedId } from '@/lib/domain/shipping';
import type { Gift } from '@/lib/domain/gifts';
import type { ChosenLocker } from '@/lib/domain/lockers';
import type { BuyerBusiness } from '@/lib/domain/tax-settings';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { orderItems, orders } from '@/lib/server/orders/tables';
import { payments } from '@/lib/server/payments/tables';
import { applyStockMoves } from '@/lib/server/catalogue/stock';
import { recordOrderMoney } from './order-money';
import { issueOrderInvoice } from '@/lib/server/books/documents';
import { fixOrderVat } from '@/lib/server/books/order-vat';

/**
 * Placing an order: a paid checkout's order, its lines and the sale of their stock. The owner of
 * the `orders` and `order_items` rows (and so of the rollups their triggers keep). Columns kept
 * apart have their own writer: the status and its dates order-status.ts, the confirmation mail's
 * mark order-mails.ts, refunded units line-refunds.ts, the money at the door collection.ts. An
 * account's erasure cuts its orders' addresses here.
 */

export function newTrackingNumber(): string {
  return trackingNumberFrom(randomBytes(8));
}

export function createOrderPlacing({ clock }: { clock: () => Date }) {
  return {
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
        /** A courier's locker the parcel goes to (its fee is deliveryFeeMinor). */
        locker?: ChosenLocker | null;
        /** The company the tax invoice is made out to. */
        business?: BuyerBusiness | null;
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
      const { lines, gift, business, ...order } = input;
      const giftColumns = gift
        ? { giftRecipientName: gift.recipientName, giftRecipientPhone: gift.recipientPhone, giftMessage: gift.message || null, giftHidePrices: gift.hidePrices, giftWrap: gift.wrap }
        : {};
      const [row] = await tx
        .insert(orders)
        // Reconciliation measures an order's age (for a lost confirmation mail) on the services' clock.
        .values({ ...order, ...giftColumns, buyerCompany: business?.company ?? null, buyerTaxNumber: business?.taxNumber ?? null, trackingNumber: newTrackingNumber(), createdAt: clock(), updatedAt: clock() })
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
      // Its VAT per line is fixed now; paid online, it is invoiced now too (paid at the door: when collected).
      if (input.paymentMethod === 'on_delivery' && (input.dueOnDeliveryMinor ?? 0) > 0) await fixOrderVat(tx, row!.id);
      else await issueOrderInvoice(tx, row!.id, clock());
      return row!.id;
    },
  };
}

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
