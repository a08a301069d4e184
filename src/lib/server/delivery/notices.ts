import { eq } from 'drizzle-orm';
import { STORE_NAME } from '@/lib/domain/brand';
import { marketOfCurrency, DEFAULT_MARKET } from '@/lib/domain/markets';
import { deliveryText, type DeliveryTextEvent } from '@/lib/domain/messages';
import { formatMoney, toMajor, type CurrencyCode } from '@/lib/domain/money';
import { amountDueMinor } from '@/lib/domain/orders';
import { BOUTIQUES } from '@/lib/domain/shipping';
import type { Db } from '@/lib/server/infra/db/client';
import { users } from '@/lib/server/accounts/tables';
import { orders } from '@/lib/server/orders/tables';
import type { Logger } from '@/lib/server/infra/log';
import { escapeHtml, mailHtml, type Mailer } from '@/lib/server/infra/mail';
import type { ShopperNotifications } from '@/lib/server/notifications/notifications';

/**
 * What the shopper is told as the parcel moves: a mail and (when they opted in) a text at "on its
 * way", "out for delivery" (with the rider when the courier names one), "delivered", and a failed
 * attempt (what to do next). A pay-on-delivery order still owing adds the amount to have ready.
 * Each is its own function, so another channel can be routed to one of them alone. None throws: a
 * notice that cannot go out is logged, never retried, and never undoes the tracking it follows.
 */
/** The parcel the shopper is told of: the order's delivery, or an exchange's replacement (the same words, nothing to pay at the door). */
type Parcel = 'delivery' | 'exchange';

export function createDeliveryNotices(deps: { db: Db; mailer: Mailer; notifications: Pick<ShopperNotifications, 'notifyShopper' | 'giftRecipientUpdate'>; log: Logger; siteUrl: string }) {
  const { db, log } = deps;

  const SUBJECTS: Record<'on_its_way' | 'out_for_delivery' | 'delivered' | 'failed_attempt', string> = {
    on_its_way: 'Your order is on its way',
    out_for_delivery: 'Your order is out for delivery',
    delivered: 'Your order has been delivered',
    failed_attempt: 'We could not deliver your order',
  };

  async function send(orderId: string, event: keyof typeof SUBJECTS, parcel: Parcel, rider?: { name: string | null; phone: string | null } | null): Promise<void> {
    try {
      const [row] = await db
        .select({
          userId: orders.userId,
          trackingNumber: orders.trackingNumber,
          currency: orders.currency,
          status: orders.status,
          dueOnDeliveryMinor: orders.dueOnDeliveryMinor,
          collectionOutcome: orders.collectionOutcome,
          email: users.email,
          firstName: users.firstName,
          giftRecipientName: orders.giftRecipientName,
          giftRecipientPhone: orders.giftRecipientPhone,
        })
        .from(orders)
        .innerJoin(users, eq(users.id, orders.userId))
        .where(eq(orders.id, orderId))
        .limit(1);
      if (!row) return;
      const market = marketOfCurrency(row.currency)?.code ?? DEFAULT_MARKET;
      const due = event === 'delivered' || parcel === 'exchange' ? 0 : amountDueMinor(row);
      const lines: DeliveryTextEvent[] = [event];
      if (event === 'out_for_delivery' && rider?.phone) lines.push('rider');
      if (due > 0) lines.push('amount_due');
      const values = {
        order: row.trackingNumber,
        storePhone: BOUTIQUES[market].phone,
        rider: rider?.name ?? 'your rider',
        riderPhone: rider?.phone ?? '',
        amount: formatMoney(toMajor(due), row.currency as CurrencyCode),
      };
      const sentences = lines.map((l) => deliveryText(l, values));
      const link = new URL(`/order-details/${orderId}`, deps.siteUrl).toString();
      try {
        await deps.mailer.send({
          to: row.email,
          subject: `${SUBJECTS[event]} (${row.trackingNumber})`,
          text: `Hello ${row.firstName},\n\n${sentences.join('\n')}\n\nFollow your order: ${link}\n`,
          html: mailHtml(SUBJECTS[event], `<p>Hello ${escapeHtml(row.firstName)},</p>${sentences.map((s) => `<p>${escapeHtml(s)}</p>`).join('')}<p><a href="${escapeHtml(link)}">Follow your order</a></p>`),
        });
      } catch (err) {
        log.error('delivery mail failed', { err, orderId, event });
      }
      // WhatsApp carries the registered template; a text carries every sentence (rider, amount due).
      const words = `${STORE_NAME}: ${sentences.join(' ')}`;
      const n = deps.notifications;
      if (event === 'on_its_way') await n.notifyShopper(row.userId, 'order_on_its_way', { order: row.trackingNumber, link }, words);
      else if (event === 'out_for_delivery') await n.notifyShopper(row.userId, 'order_out_for_delivery', { order: row.trackingNumber, rider: values.rider, rider_phone: values.riderPhone || values.storePhone }, words);
      else if (event === 'delivered') await n.notifyShopper(row.userId, 'order_delivered', { order: row.trackingNumber }, words);
      else await n.notifyShopper(row.userId, 'order_delivery_failed', { order: row.trackingNumber, store_phone: values.storePhone }, words);
      // A gift's recipient hears from the courier too (the texts they are told of: no prices).
      if (row.giftRecipientName && row.giftRecipientPhone && event !== 'failed_attempt') {
        const gift = { recipientName: row.giftRecipientName, recipientPhone: row.giftRecipientPhone, message: '', wrap: false, hidePrices: true };
        await n.giftRecipientUpdate({ id: orderId, trackingNumber: row.trackingNumber, gift }, row.firstName, event);
      }
    } catch (err) {
      log.error('delivery notice failed (dropped)', { err, orderId, event });
    }
  }

  return {
    onItsWay: (orderId: string, parcel: Parcel = 'delivery') => send(orderId, 'on_its_way', parcel),
    outForDelivery: (orderId: string, rider: { name: string | null; phone: string | null } | null, parcel: Parcel = 'delivery') => send(orderId, 'out_for_delivery', parcel, rider),
    delivered: (orderId: string, parcel: Parcel = 'delivery') => send(orderId, 'delivered', parcel),
    failedAttempt: (orderId: string, parcel: Parcel = 'delivery') => send(orderId, 'failed_attempt', parcel),
  };
}
export type DeliveryNotices = ReturnType<typeof createDeliveryNotices>;
