import { eq } from 'drizzle-orm';
import { isOrderTextEvent, orderText } from '@/lib/domain/messages';
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

/** What the order service tells shoppers by text message. */
export interface OrderNotifications {
  /**
   * Texts the order's owner about an event (placed, or the status it reached: processed is sent
   * as "dispatched", delivered) when they opted in to "Text me order updates"; other events are
   * ignored. Never throws: a text that cannot be sent is logged and dropped, never retried, so it
   * cannot hold up or undo the order.
   */
  orderUpdate(order: { id: string; trackingNumber: string }, userId: string, event: string): Promise<void>;
  /** Texts `body` to the shopper when they opted in to order updates; never throws (as orderUpdate). */
  textShopper(userId: string, body: string, context: { orderId: string; event: string }): Promise<void>;
}

export function createNotificationService({ db, log, sender }: { db: Db; log: Logger; sender: TextSender }): OrderNotifications & { sender: TextSender } {
  async function textShopper(userId: string, body: string, context: { orderId: string; event: string }): Promise<void> {
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
        log.warn('order text not sent: the account has no valid mobile number', context);
        return;
      }
      const { messageId } = await sender.send({ to: phone.e164, body });
      log.info('order text sent', { ...context, provider: sender.name, messageId });
    } catch (err) {
      log.error('order text failed (dropped)', { err, ...context, provider: sender.name });
    }
  }
  return {
    sender,
    textShopper,
    async orderUpdate(order, userId, event) {
      if (!isOrderTextEvent(event)) return;
      await textShopper(userId, orderText(event, order.trackingNumber), { orderId: order.id, event });
    },
  };
}
