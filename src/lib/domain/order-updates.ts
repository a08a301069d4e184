import { STORE_NAME } from './brand';

/**
 * How a shopper hears about their orders besides mail: by text message (SMS), by WhatsApp, or
 * neither. One choice per account (users.updates_channel), made on /settings and at checkout.
 */
export const UPDATE_CHANNELS = ['text', 'whatsapp', 'none'] as const;
export type UpdateChannel = (typeof UPDATE_CHANNELS)[number];

/**
 * The updates a shopper gets about an order, each a WhatsApp utility template registered with Meta
 * under `template` (language `en`) whose body takes `params` in this order ({{1}}, {{2}}, …). The
 * words of each (as a template body and as the text message) are in messages.ts (SHOPPER_UPDATE_TEXTS).
 */
export const SHOPPER_UPDATES = {
  order_confirmed: { template: 'order_confirmed', params: ['order'] },
  order_on_its_way: { template: 'order_on_its_way', params: ['order', 'link'] },
  order_out_for_delivery: { template: 'order_out_for_delivery', params: ['order', 'rider', 'rider_phone'] },
  order_delivered: { template: 'order_delivered', params: ['order'] },
  order_delivery_failed: { template: 'order_delivery_failed', params: ['order', 'store_phone'] },
} as const;
export type ShopperUpdate = keyof typeof SHOPPER_UPDATES;
/** The named values an update's words take: `{ order: 'ML-…', link: 'https://…' }`. */
export type ShopperUpdateParams<U extends ShopperUpdate> = Record<(typeof SHOPPER_UPDATES)[U]['params'][number], string>;

/** The language every template is registered in. */
export const TEMPLATE_LANGUAGE = 'en';

/**
 * The update an order's status sends: placed, and delivered when staff mark it. Processed is "Ready to
 * ship": the parcel has not left yet; "on its way" goes when the courier picks it up (delivery/notices.ts).
 */
export const ORDER_EVENT_UPDATES: Partial<Record<string, ShopperUpdate>> = {
  placed: 'order_confirmed',
  delivered: 'order_delivered',
};

/**
 * An inbound WhatsApp message that ends WhatsApp updates: the opt-out words WhatsApp Business
 * senders are expected to honour (any case, surrounding spaces ignored).
 */
const STOP_WORDS = new Set(['STOP', 'UNSUBSCRIBE', 'STOP ALL', 'OPT OUT', 'OPTOUT', 'CANCEL']);
export function isStopMessage(body: string): boolean {
  return STOP_WORDS.has(body.trim().replace(/\s+/g, ' ').toUpperCase());
}

/**
 * The choices of "Order updates" (/settings and checkout). The WhatsApp choice is the shopper's
 * opt-in: it names the store, what it sends and how to stop, as Meta's WhatsApp Business rules and
 * the NDPA (Nigeria) and POPIA (South Africa) require of consent to direct messages.
 */
export const UPDATE_CHANNEL_CHOICES: Record<UpdateChannel, { label: string; hint: string }> = {
  whatsapp: {
    label: 'WhatsApp',
    hint: `I agree that ${STORE_NAME} may send me order updates on WhatsApp at my mobile number: order confirmed, on its way, out for delivery and delivered. Reply STOP on WhatsApp to end them at any time.`,
  },
  text: {
    label: 'Text message',
    hint: `${STORE_NAME} texts my mobile number when an order is placed, on its way and delivered.`,
  },
  none: { label: 'Neither', hint: 'Updates by e-mail only.' },
};
