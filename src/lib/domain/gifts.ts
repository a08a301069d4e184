import { z } from 'zod';
import { GIFT_MESSAGE_MAX, GIFT_NAME_MAX } from './gift-limits';
import type { Country } from './geo';
import type { MarketCode } from './markets';
import { message } from './messages';
import { normalisePhone } from './phone';
import type { AddressDto } from './shipping';

/**
 * Gifts: an order sent to someone else (ADR 0035). The recipient's name and phone are who the
 * courier calls; the message is printed on the packing slip, which shows no prices when asked.
 * Gift wrapping is a fee per market, set by staff. Pure: no I/O.
 */

export { GIFT_MESSAGE_MAX, GIFT_NAME_MAX };

/** Gift wrapping's fee in a market without one set by staff (minor units): ₦5,000 and R150. */
export const DEFAULT_GIFT_WRAP_MINOR: Record<MarketCode, number> = { NG: 500_000, ZA: 15_000 };

/** A gift as an order records it: the phone in E.164. */
export interface Gift {
  recipientName: string;
  recipientPhone: string;
  message: string;
  wrap: boolean;
  hidePrices: boolean;
}

const flag = z.preprocess((v) => v === true || v === 'true' || v === 'on', z.boolean());

/**
 * "This is a gift" as a shopper fills it in, read in the market's country: the recipient's name
 * and phone (the phone module's rule for that country), a message of at most 250 characters,
 * wrapping and "Hide prices". Its texts are the store's messages.
 */
export function giftSchema(country: Country) {
  return z.object({
    recipientName: z
      .string({ error: message('gift-name-required') })
      .trim()
      .min(1, message('gift-name-required'))
      .max(GIFT_NAME_MAX, message('gift-name-too-long', String(GIFT_NAME_MAX))),
    recipientPhone: z
      .string({ error: message('gift-phone-required') })
      .trim()
      .min(1, message('gift-phone-required'))
      .transform((raw, ctx) => {
        const r = normalisePhone(raw, country);
        if (r.ok) return r.e164;
        ctx.addIssue({ code: 'custom', message: r.message });
        return z.NEVER;
      }),
    message: z
      .preprocess((v) => (v === undefined || v === null ? '' : v), z.string({ error: message('gift-message-too-long', String(GIFT_MESSAGE_MAX)) }))
      .transform((s) => s.trim().replace(/\r\n/g, '\n'))
      .pipe(z.string().max(GIFT_MESSAGE_MAX, message('gift-message-too-long', String(GIFT_MESSAGE_MAX)))),
    wrap: flag.default(false),
    hidePrices: flag.default(false),
  });
}

/**
 * The checkout form's flat fields (giftOn, giftName, giftPhone, giftMessage, giftWrap,
 * giftHidePrices) as the API's `gift` object; a form without "This is a gift" ticked sends none.
 */
export function giftFromForm(values: Record<string, unknown>): Record<string, unknown> | undefined {
  if (values.gift !== undefined) return values.gift as Record<string, unknown>;
  if (!(values.giftOn === true || values.giftOn === 'true' || values.giftOn === 'on')) return undefined;
  return {
    recipientName: values.giftName ?? '',
    recipientPhone: values.giftPhone ?? '',
    message: values.giftMessage ?? '',
    wrap: values.giftWrap,
    hidePrices: values.giftHidePrices,
  };
}

/** What wrapping adds to an order's total: the market's fee when asked for, else nothing. */
export function giftWrapMinor(gift: Pick<Gift, 'wrap'> | null | undefined, feeMinor: number): number {
  return gift?.wrap ? feeMinor : 0;
}

/** Who the courier calls about an order: a gift's recipient, else the delivery address's contact. */
export function deliveryContact(order: { gift: Pick<Gift, 'recipientName' | 'recipientPhone'> | null; deliveryAddress: Pick<AddressDto, 'name' | 'deliveryPhone'> }): {
  name: string;
  phone: string | null;
  gift: boolean;
} {
  if (order.gift) return { name: order.gift.recipientName, phone: order.gift.recipientPhone, gift: true };
  return { name: order.deliveryAddress.name, phone: order.deliveryAddress.deliveryPhone ?? null, gift: false };
}

/**
 * A gift as its buyer reads it back (the order page, the confirmation mail): for whom, the message,
 * the wrapping and whether the packing slip shows prices. The message is kept apart so each place
 * quotes it in its own way.
 */
export function giftFacts(gift: Gift): { forWhom: string; message: string | null; wrapping: string; prices: string } {
  return {
    forWhom: `A gift for ${gift.recipientName}, ${gift.recipientPhone}`,
    message: gift.message || null,
    wrapping: gift.wrap ? 'Gift wrapped' : 'Not gift wrapped',
    prices: gift.hidePrices ? 'Prices are hidden on the packing slip' : 'Prices are shown on the packing slip',
  };
}
