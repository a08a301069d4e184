import { asc, eq } from 'drizzle-orm';
import { returnWindowClosesAt, returnWindowOpen, type ReturnDto } from '@/lib/domain/after-sales';
import type { ReturnRequestInput } from '@/lib/domain/after-sales-input';
import { NotFound } from '@/lib/domain/errors';
import { message } from '@/lib/domain/messages';
import { pickupLocationForMarket, type AddressDto } from '@/lib/domain/shipping';
import { UUID } from '@/lib/domain/validation';
import type { Db } from '@/lib/server/infra/db/client';
import { orderItems, orders } from '@/lib/server/orders/tables';
import { cacheTags, type PageCacheInvalidator } from '@/lib/server/storefront/page-cache';
import type { ReturnMails } from './mail';
import { heldUnits, marketOfOrder, writeRequest } from './shopper';

/** What a gift's recipient sees of the order: the pieces (never a price), the window, who it is for. */
export interface GiftReturnOptions {
  orderId: string;
  trackingNumber: string;
  currency: string;
  recipientName: string;
  /** The order's recipient phone in E.164: the only number a code goes to (the page shows it masked). */
  recipientPhone: string;
  open: boolean;
  delivered: boolean;
  closesAt: string | null;
  dropOff: AddressDto;
  lines: { id: number; productName: string; productImage: string; color: string | null; size: string | null; quantity: number; returnable: number }[];
}

/**
 * A gift's return by its recipient (ADR 0045): the buyer's checks (writeRequest, under the order's
 * row lock) for an order that is a gift, with the money as store credit to the recipient's account
 * (`credit_user_id`), never to the buyer's payment. The recipient was proven by a texted code
 * before this is called (aftersales/gift-return-access.ts).
 */
export function createGiftReturnRequests(deps: { db: Db; clock: () => Date; mails: Pick<ReturnMails, 'requested'>; pageCache?: PageCacheInvalidator | undefined }) {
  const { db, clock } = deps;

  async function giftOrder(orderId: string) {
    if (!UUID.test(orderId)) throw new NotFound(message('order-not-found'));
    const [order] = await db.select().from(orders).where(eq(orders.id, orderId)).limit(1);
    if (!order?.giftRecipientPhone || !order.giftRecipientName) throw new NotFound(message('order-not-found'));
    return { ...order, giftRecipientPhone: order.giftRecipientPhone, giftRecipientName: order.giftRecipientName };
  }

  return {
    /** The gift's pieces and what may still be returned of each; NotFound for an order that is no gift. */
    async giftOptions(orderId: string): Promise<GiftReturnOptions> {
      const order = await giftOrder(orderId);
      const lines = await db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.id));
      const held = await heldUnits(db, orderId);
      return {
        orderId,
        trackingNumber: order.trackingNumber,
        currency: order.currency,
        recipientName: order.giftRecipientName,
        recipientPhone: order.giftRecipientPhone,
        open: returnWindowOpen(order, clock()),
        delivered: order.status === 'delivered' && order.deliveredAt !== null,
        closesAt: order.deliveredAt ? returnWindowClosesAt(order.deliveredAt).toISOString() : null,
        dropOff: pickupLocationForMarket(marketOfOrder(order.currency)),
        lines: lines.map((l) => ({
          id: l.id,
          productName: l.productName,
          productImage: l.productImage,
          color: l.color,
          size: l.size,
          quantity: l.quantity,
          returnable: Math.max(0, l.quantity - l.refundedQuantity - (held.get(l.id) ?? 0)),
        })),
      };
    },

    /**
     * The recipient's request, under the order's row lock: a gift, delivered, within its window,
     * units left; store credit to `recipientUserId` (the account holding the proven phone).
     */
    async requestForGift(orderId: string, recipientUserId: string, input: ReturnRequestInput): Promise<ReturnDto> {
      if (!UUID.test(orderId)) throw new NotFound(message('order-not-found'));
      const result = await db.transaction(async (tx) => {
        const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
        if (!order?.giftRecipientPhone) throw new NotFound(message('order-not-found'));
        return writeRequest(tx, order, { ...input, resolution: 'credit' }, { actorId: recipientUserId, creditUserId: recipientUserId, now: clock() });
      });
      if (result.productIds.length && deps.pageCache) await deps.pageCache.invalidate(result.productIds.map((id) => cacheTags.product(id)));
      await deps.mails.requested(result.ret, marketOfOrder(result.ret.currency));
      return result.ret;
    },
  };
}
