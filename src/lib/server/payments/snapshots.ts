import { z } from 'zod';
import { CHECKOUT_PAYMENT_CHOICES } from '@/lib/domain/payment-methods';
import { COUNTRIES } from '@/lib/domain/geo';
import { DELIVERY_OPTIONS, DELIVERY_SPEED_IDS } from '@/lib/domain/shipping';
import { chosenLockerSchema } from '@/lib/server/delivery/lockers';

/**
 * What a payment paid for, kept on its row (payments.snapshot) and parsed back when it is fulfilled:
 * a checkout's priced cart, or an exchange's difference.
 */

/** What was priced and paid for: the order is built from this, not from the cart as it is later. */
export const paymentSnapshotSchema = z.object({
  cartId: z.string(),
  callbackUrl: z.string(),
  /** `pickup` in snapshots written before collecting at the boutique was called `collect`. */
  deliveryOption: z.preprocess((v) => (v === 'pickup' ? 'collect' : v), z.enum(DELIVERY_OPTIONS)),
  /** The delivery's speed (absent in snapshots from before speeds: null). */
  deliverySpeed: z.enum(DELIVERY_SPEED_IDS).nullable().default(null),
  shipTo: z.object({
    id: z.string(),
    name: z.string(),
    country: z.enum(COUNTRIES),
    state: z.string(),
    city: z.string(),
    address: z.string(),
    zipCode: z.string(),
    landmark: z.string().optional(),
    deliveryPhone: z.string().optional(),
  }),
  lines: z.array(
    z.object({
      variantId: z.number().int(),
      productId: z.number().int(),
      productName: z.string(),
      productImage: z.string(),
      color: z.string().nullable(),
      size: z.string().nullable(),
      quantity: z.number().int().min(1),
      unitPriceMinor: z.number().int(),
      lineTotalMinor: z.number().int(),
      /** The line's share of the discount (absent in snapshots from before discounts: 0). */
      discountMinor: z.number().int().min(0).default(0),
    }),
  ),
  subtotalMinor: z.number().int(),
  /** The applied code's discount (absent before discounts: 0); total = subtotal - discount + delivery. */
  discountMinor: z.number().int().min(0).default(0),
  discountCode: z.string().nullable().default(null),
  promotionId: z.number().int().nullable().default(null),
  codeId: z.number().int().nullable().default(null),
  deliveryFeeMinor: z.number().int(),
  totalMinor: z.number().int(),
  /** Pay on delivery: what is left to pay at the door; the payment charges the rest (a deposit, or nothing). */
  paymentMethod: z.enum(CHECKOUT_PAYMENT_CHOICES).default('online'),
  dueOnDeliveryMinor: z.number().int().min(0).default(0),
  /** Store credit used: spent with the payment row, given back if it never becomes an order. */
  storeCreditMinor: z.number().int().min(0).default(0),
  /** A gift (phone in E.164) and its wrapping's fee, in totalMinor (absent before gifts: none, 0). */
  gift: z
    .object({ recipientName: z.string(), recipientPhone: z.string(), message: z.string(), wrap: z.boolean(), hidePrices: z.boolean() })
    .nullable()
    .default(null),
  giftWrapMinor: z.number().int().min(0).default(0),
  /** A courier's locker (PUDO locker) the parcel goes to; its fee is deliveryFeeMinor (absent before lockers: none). */
  locker: chosenLockerSchema.nullable().default(null),
  /** The company the shopper buys for, for the tax invoice (absent before it was asked: none). */
  business: z.object({ company: z.string(), taxNumber: z.string().nullable() }).nullable().default(null),
});
/** A snapshot as checkout writes it (every field), and as it is read back (defaults filled in). */
export type PaymentSnapshot = z.output<typeof paymentSnapshotSchema>;

/** What an exchange's difference pays for: the dearer variant of a return, then back to the order's page. */
export const differenceSnapshotSchema = z.object({
  kind: z.literal('exchange_difference'),
  callbackUrl: z.string(),
  orderId: z.string(),
  returnId: z.string(),
  returnReference: z.string(),
});
export type DifferenceSnapshot = z.output<typeof differenceSnapshotSchema>;
