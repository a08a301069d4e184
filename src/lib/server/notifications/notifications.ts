import { eq } from 'drizzle-orm';
import { giftRecipientText, isOrderTextEvent, orderText } from '@/lib/domain/messages';
import type { Gift } from '@/lib/domain/gifts';
import { normalisePhone } from '@/lib/domain/phone';
import type { Config } from '@/lib/server/infra/config';
import type { Db } from '@/lib/server/infra/db/client';
import { users } from '@/lib/server/infra/db/schema';
import type { Logger } from '@/lib/server/infra/log';
import { createClickatellSender } from './clickatell';
import { createTextOutboxSender } from './outbox';
import type { TextSender } from './port';

/** The configured SMS provider: Clickatell, or the dev outbox (the default). */
export function textSenderFor({ config, db, log }: { config: Config; db: Db; log: Logger }): TextSender {
  if (config.SMS_PROVIDER === 'clickatell' && config.CLICKATELL_API_KEY) {
    return createClickatellSender({ apiKey: config.CLICKATELL_API_KEY, baseUrl: config.CLICKATELL_BASE_URL });
  }
  return createTextOutboxSender({ db, log });
}

/**
 * Texts a gift's recipient about their order's event (domain giftRecipientText: none for events
 * they are not told of); the courier's updates call this too. Logged and dropped on failure.
 */
export async function textGiftRecipient(
  { sender, log }: { sender: TextSender; log: Logger },
  order: { id: string; trackingNumber: string; gift: Gift | null },
  senderName: string,
  event: string,
): Promise<void> {
  if (!order.gift) return;
  const body = giftRecipientText(event, order.trackingNumber, senderName);
  if (!body) return;
  try {
    const { messageId } = await sender.send({ to: order.gift.recipientPhone, body });
    log.info('gift recipient text sent', { orderId: order.id, event, provider: sender.name, messageId });
  } catch (err) {
    log.error('gift recipient text failed (dropped)', { err, orderId: order.id, event, provider: sender.name });
  }
}

/** What the order service tells shoppers by text message. */
export interface OrderNotifications {
  /**
   * Texts the order's owner about an event (placed, or the status it reached: processed is sent
   * as "dispatched", delivered) when they opted in to "Text me order updates"; other events are
   * ignored. Never throws: a text that cannot be sent is logged and dropped, never retried, so it
   * cannot hold up or undo the order.
   */
  orderUpdate(order: { id: string; trackingNumber: string }, userId: string, event: string): Promise<void>;
  /**
   * Texts a gift order's recipient (the number the courier calls, deliveryContact) about an event
   * on the way to them: placed, dispatched, delivered, and whatever the courier's updates add. The
   * buyer keeps every mail and text of their own. Never throws, as orderUpdate.
   */
  giftRecipientUpdate(order: { id: string; trackingNumber: string; gift: Gift | null }, senderName: string, event: string): Promise<void>;
}

export function createNotificationService({ db, log, sender }: { db: Db; log: Logger; sender: TextSender }): OrderNotifications & { sender: TextSender } {
  return {
    sender,
    async orderUpdate(order, userId, event) {
      if (!isOrderTextEvent(event)) return;
      try {
        const [user] = await db
          .select({ textUpdates: users.textUpdates, phoneNumber: users.phoneNumber, country: users.country })
          .from(users)
          .where(eq(users.id, userId))
          .limit(1);
        if (!user?.textUpdates) return;
        // Numbers stored before E.164 are read in the shopper's country here.
        const phone = normalisePhone(user.phoneNumber, user.country);
        if (!phone.ok) {
          log.warn('order text not sent: the account has no valid mobile number', { orderId: order.id, event });
          return;
        }
        const { messageId } = await sender.send({ to: phone.e164, body: orderText(event, order.trackingNumber) });
        log.info('order text sent', { orderId: order.id, event, provider: sender.name, messageId });
      } catch (err) {
        log.error('order text failed (dropped)', { err, orderId: order.id, event, provider: sender.name });
      }
    },
    giftRecipientUpdate: (order, senderName, event) => textGiftRecipient({ sender, log }, order, senderName, event),
  };
}
