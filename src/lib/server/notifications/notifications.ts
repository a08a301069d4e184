import { eq } from 'drizzle-orm';
import { giftRecipientText, shopperUpdateText } from '@/lib/domain/messages';
import type { Gift } from '@/lib/domain/gifts';
import { ORDER_EVENT_UPDATES, SHOPPER_UPDATES, type ShopperUpdate, type ShopperUpdateParams } from '@/lib/domain/order-updates';
import { normalisePhone } from '@/lib/domain/phone';
import type { Config } from '@/lib/server/infra/config';
import type { Db } from '@/lib/server/infra/db/client';
import { users } from '@/lib/server/accounts/tables';
import type { Logger } from '@/lib/server/infra/log';
import { createClickatellSender } from './clickatell';
import { createTextOutboxSender, createWhatsAppOutboxSender } from './outbox';
import type { TextSender, WhatsAppSender } from './port';
import { createWhatsAppCloudSender } from './whatsapp-cloud';

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
  { sender, log, giftReturnLink }: { sender: TextSender; log: Logger; giftReturnLink?: ((orderId: string) => string) | undefined },
  order: { id: string; trackingNumber: string; gift: Gift | null },
  senderName: string,
  event: string,
): Promise<void> {
  if (!order.gift) return;
  const body = giftRecipientText(event, order.trackingNumber, senderName, giftReturnLink?.(order.id));
  if (!body) return;
  try {
    const { messageId } = await sender.send({ to: order.gift.recipientPhone, body });
    log.info('gift recipient text sent', { orderId: order.id, event, provider: sender.name, messageId });
  } catch (err) {
    log.error('gift recipient text failed (dropped)', { err, orderId: order.id, event, provider: sender.name });
  }
}

/** The configured WhatsApp channel: the Cloud API, the dev outbox, or none (WHATSAPP=off). */
export function whatsappSenderFor({ config, db, log }: { config: Config; db: Db; log: Logger }): WhatsAppSender | null {
  if (config.whatsapp === 'cloud' && config.WHATSAPP_TOKEN && config.WHATSAPP_PHONE_NUMBER_ID) {
    return createWhatsAppCloudSender({ token: config.WHATSAPP_TOKEN, phoneNumberId: config.WHATSAPP_PHONE_NUMBER_ID, baseUrl: config.WHATSAPP_BASE_URL, version: config.WHATSAPP_API_VERSION });
  }
  return config.whatsapp === 'outbox' ? createWhatsAppOutboxSender({ db, log }) : null;
}

/** How one update reached the shopper (or why it did not). */
export type Delivered = 'text' | 'whatsapp' | 'text-after-whatsapp' | 'not-chosen' | 'no-phone' | 'failed';

/** What the store tells shoppers by text or WhatsApp, as each chose. */
export interface ShopperNotifications {
  /**
   * Sends `update` (SHOPPER_UPDATES) to the account's owner by the channel they chose: WhatsApp
   * (its template with `params` in order), a text (the template's words, or `words` when the caller
   * has more to say by text, such as the amount due at the door), or nothing. A WhatsApp message
   * that fails goes once as a text instead, and the failure is logged. Never throws: an update that
   * cannot be sent is logged and dropped, never retried, so it cannot hold up or undo what caused it.
   */
  notifyShopper<U extends ShopperUpdate>(userId: string, update: U, params: ShopperUpdateParams<U>, words?: string): Promise<Delivered>;
  /**
   * An order's event (placed, or delivered by staff) as an update to its owner, with the order page
   * as the link; other events are ignored ("on its way" and the rest come from the courier's tracking).
   */
  orderUpdate(order: { id: string; trackingNumber: string }, userId: string, event: string): Promise<void>;
  /**
   * Texts a gift order's recipient (the number the courier calls, deliveryContact) about an event
   * on the way to them: placed, dispatched, delivered, and whatever the courier's updates add. The
   * buyer keeps every mail and text of their own. Never throws, as orderUpdate.
   */
  giftRecipientUpdate(order: { id: string; trackingNumber: string; gift: Gift | null }, senderName: string, event: string): Promise<void>;
}

export function createNotificationService({
  db,
  log,
  sender,
  whatsapp,
  siteUrl,
  giftReturnLink,
}: {
  db: Db;
  log: Logger;
  sender: TextSender;
  /** The returns link of a gift order (ADR 0045), carried by the recipient's "delivered" text. */
  giftReturnLink?: (orderId: string) => string;
  /** null: the store has no WhatsApp channel (WHATSAPP=off); shoppers who chose it get texts. */
  whatsapp: WhatsAppSender | null;
  siteUrl: string;
}): ShopperNotifications & { sender: TextSender; whatsapp: WhatsAppSender | null } {
  async function text(to: string, body: string, meta: Record<string, unknown>): Promise<boolean> {
    try {
      const { messageId } = await sender.send({ to, body });
      log.info('shopper update texted', { ...meta, provider: sender.name, messageId });
      return true;
    } catch (err) {
      log.error('shopper update text failed (dropped)', { ...meta, err, provider: sender.name });
      return false;
    }
  }

  const service = {
    sender,
    whatsapp,
    async notifyShopper<U extends ShopperUpdate>(userId: string, update: U, params: ShopperUpdateParams<U>, words?: string): Promise<Delivered> {
      const meta = { userId, update };
      try {
        const [user] = await db
          .select({ channel: users.updatesChannel, phoneNumber: users.phoneNumber, country: users.country })
          .from(users)
          .where(eq(users.id, userId))
          .limit(1);
        if (!user || user.channel === 'none') return 'not-chosen';
        // Numbers stored before E.164 are read in the shopper's country here.
        const phone = normalisePhone(user.phoneNumber, user.country);
        if (!phone.ok) {
          log.warn('shopper update not sent: the account has no valid mobile number', meta);
          return 'no-phone';
        }
        const body = words ?? shopperUpdateText(update, params);
        if (user.channel === 'whatsapp' && whatsapp) {
          const { template, params: names } = SHOPPER_UPDATES[update];
          const values = names.map((name) => (params as Record<string, string>)[name] ?? '');
          try {
            const { messageId } = await whatsapp.send({ to: phone.e164, template, params: values, body });
            log.info('shopper update sent on whatsapp', { ...meta, provider: whatsapp.name, messageId });
            return 'whatsapp';
          } catch (err) {
            // Once, by text: the shopper asked for updates, and a text reaches any mobile number.
            log.warn('shopper update on whatsapp failed; sending it as a text instead', { ...meta, err, provider: whatsapp.name, fallback: 'text' });
            return (await text(phone.e164, body, { ...meta, fallbackFrom: 'whatsapp' })) ? 'text-after-whatsapp' : 'failed';
          }
        }
        return (await text(phone.e164, body, meta)) ? 'text' : 'failed';
      } catch (err) {
        log.error('shopper update failed (dropped)', { ...meta, err });
        return 'failed';
      }
    },
    async orderUpdate(order: { id: string; trackingNumber: string }, userId: string, event: string): Promise<void> {
      const update = ORDER_EVENT_UPDATES[event];
      if (!update) return;
      const link = new URL(`/order-details/${order.id}`, siteUrl).toString();
      await service.notifyShopper(userId, update, { order: order.trackingNumber, link } as ShopperUpdateParams<typeof update>);
    },
    giftRecipientUpdate: (order: { id: string; trackingNumber: string; gift: Gift | null }, senderName: string, event: string) =>
      textGiftRecipient({ sender, log, giftReturnLink }, order, senderName, event),
  };
  return service;
}
