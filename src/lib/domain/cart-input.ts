/** Request shapes of the cart API (zod), kept apart from the cart rules so islands do not ship zod. */
import { z } from 'zod';
import { MAX_LINE_QUANTITY } from './cart';
import { fill, message } from './messages';
import { LOCKER_ID } from './lockers';
import { API_DELIVERY_OPTIONS, DELIVERY_OPTIONS, DELIVERY_SPEED_IDS } from './shipping';
import { isPlainText, requiredId, text } from './validation';

const optionalName = (label: string) =>
  z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  text(label, 60).optional(),
);
const productId = requiredId(message('product-id-required'));
const userId = z.string().max(64).optional();

/** A line is product x colour x size. A client `price` is accepted and ignored. */
export const lineKeySchema = z.object({
  productId,
  color: optionalName('color'),
  size: optionalName('size'),
  userId,
});
export type LineKey = z.output<typeof lineKeySchema>;

const quantity = z.coerce.number({ error: message('quantity-not-number') }).int(message('quantity-not-whole'));

export const addToCartSchema = lineKeySchema.extend({
  quantity: z.preprocess((v) => (v === undefined || v === null || v === '' ? 1 : v), quantity.min(1, message('quantity-min')).max(MAX_LINE_QUANTITY, fill('quantity-max', MAX_LINE_QUANTITY))),
});
export type AddToCartInput = z.output<typeof addToCartSchema>;

/** update-quantity / decrease-quantity: `quantity` is the line's new quantity; without it the line moves by one. */
export const changeQuantitySchema = lineKeySchema.extend({
  quantity: z.preprocess((v) => (v === undefined || v === null || v === '' ? undefined : v), quantity.optional()),
});
export type ChangeQuantityInput = z.output<typeof changeQuantitySchema>;

/** A delivery option as a form or the API sends it. */
/** Delivery or pickup, as the API names them; `collect` (the code's name for pickup) is taken too. */
export const deliveryOptionField = z.preprocess(
  (v) => (v === 'pickup' ? 'collect' : v),
  z.enum(DELIVERY_OPTIONS, { error: fill('delivery-option-invalid', API_DELIVERY_OPTIONS.join(' or ')) }),
);

/** Express, Standard or Economy; empty means unchanged. */
export const deliverySpeedField = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z.enum(DELIVERY_SPEED_IDS, { error: fill('delivery-speed-invalid', DELIVERY_SPEED_IDS.join(', ')) }).optional(),
);

export const deliveryOptionSchema = z.object({ deliveryOption: deliveryOptionField, deliverySpeed: deliverySpeedField });

/** A courier's locker code (a PUDO locker), as the checkout's radios send it; empty means to the door. */
export const lockerField = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z.string({ error: message('locker-unknown') }).regex(LOCKER_ID, message('locker-unknown')).optional(),
);


/** A discount code as the cart's form or the API sends it (case-insensitive; an empty one is not valid). */
export const discountCodeSchema = z.object({
  code: z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), z.string({ error: message('code-not-valid') }).min(1, message('code-not-valid')).max(64, message('code-not-valid')).refine((v) => isPlainText(v), message('code-not-valid'))),
});

/** Checkout's "Deliver this order here": one of the shopper's saved addresses, or '' for the default. */
export const deliveryAddressChoiceSchema = z.object({
  addressId: z.preprocess((v) => (v === '' || v === undefined ? null : v), z.uuid({ error: message('address-not-found') }).nullable()),
});
