import { z } from 'zod';
import { deliveryOptionField, deliverySpeedField, lockerField } from '@/lib/domain/cart-input';
import { failureText, message } from '@/lib/domain/messages';
import { text } from '@/lib/domain/validation';
import { updateChannelField } from '@/lib/domain/accounts';
import { CHECKOUT_PAYMENT_CHOICES } from '@/lib/domain/payment-methods';
import { TOASTS } from '@/lib/domain/toasts';
import { requireUser } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { parseWith } from '@/lib/server/infra/http';
import { giftFromForm, giftSchema } from '@/lib/domain/gifts';
import { MARKETS } from '@/lib/domain/markets';
import { buyerBusinessInput } from '@/lib/domain/tax-settings';

/** A checkout attempt's key: what a browser's randomUUID or an API client's own key looks like. */
const idempotencyKey = z.string({ error: message('checkout-key-invalid') }).regex(/^[A-Za-z0-9._-]{8,100}$/, message('checkout-key-invalid'));

/** email and amount are accepted for old clients and ignored: the payer is the session user, the amount comes from the cart. */
const initiateSchema = z.object({
  email: z.unknown().optional(),
  amount: z.unknown().optional(),
  callbackUrl: z.preprocess((v) => (v === '' || v === null ? undefined : v), text('callbackUrl', 500).optional()),
  /** The checkout form sends the Delivery / Pickup choice with PAY & PLACE ORDER. */
  deliveryOption: deliveryOptionField.optional(),
  /** …and the delivery's speed: Express, Standard or Economy. */
  deliverySpeed: deliverySpeedField,
  /** …or a courier's locker (a PUDO locker's code) near the delivery address, instead of the door. */
  locker: lockerField,
  /** `locker`'s former name, still read from clients that send it. */
  pickupPoint: lockerField,
  /** "Payment method": Pay online (the default) or Pay on delivery. */
  paymentMethod: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.enum(CHECKOUT_PAYMENT_CHOICES).optional()),
  /** "Use my store credit": a JSON boolean, or the checkbox's value. */
  useStoreCredit: z.preprocess((v) => v === true || v === 'true' || v === 'on', z.boolean()).optional(),
  /** "Order updates": text, whatsapp or none, saved as the shopper's choice before the order is made. */
  updates: z.preprocess((v) => (v === '' || v === null ? undefined : v), updateChannelField.optional()),
  /** The checkout form's attempt key (a hidden field minted with the page); API clients send `Idempotency-Key`. */
  idempotencyKey: z.preprocess((v) => (v === '' || v === null ? undefined : v), idempotencyKey.optional()),
  /** "This is a gift": `{ recipientName, recipientPhone, message, wrap, hidePrices }`, read in the market's country (domain/gifts). */
  gift: z.unknown().optional(),
  /** …or, from the checkout form, its flat fields (giftOn ticks it). */
  giftOn: z.unknown().optional(),
  giftName: z.unknown().optional(),
  giftPhone: z.unknown().optional(),
  giftMessage: z.unknown().optional(),
  giftWrap: z.unknown().optional(),
  giftHidePrices: z.unknown().optional(),
  /** For the tax invoice: a company's name and its VAT number (ZA) or TIN (NG), both optional. */
  company: z.unknown().optional(),
  taxNumber: z.unknown().optional(),
});

/** JSON for the island and API clients; the checkout's plain form post is sent on to the provider's page (303). */
export const POST = formEndpoint(
  async ({ locals, request }) => {
    const user = requireUser(locals);
    const input = await readInput(request, initiateSchema);
    const header = request.headers.get('idempotency-key');
    const key = header === null ? input.idempotencyKey : parseWith(idempotencyKey, header.trim());
    const giftInput = giftFromForm(input);
    const gift = giftInput === undefined || giftInput === null ? undefined : parseWith(giftSchema(MARKETS[locals.market].country), giftInput);
    const business = parseWith(buyerBusinessInput(locals.market), { company: input.company, taxNumber: input.taxNumber });
    if (input.updates) await locals.services.accounts.setUpdatesChannel(user, input.updates);
    const data = await locals.services.checkout.initiate(user, {
      callbackUrl: input.callbackUrl,
      deliveryOption: input.deliveryOption,
      deliverySpeed: input.deliverySpeed,
      locker: input.locker ?? input.pickupPoint,
      market: locals.market,
      site: locals.publicOrigin,
      paymentMethod: input.paymentMethod,
      useStoreCredit: input.useStoreCredit,
      idempotencyKey: key,
      gift,
      business,
    });
    // Paid wholly on delivery or with store credit, the order is placed already: the "payment page" is the return page.
    const placed = (input.paymentMethod === 'on_delivery' || input.useStoreCredit === true) && data.amount === 0;
    return { body: { status: 'success', message: placed ? TOASTS['order-placed'] : 'Authorization URL created', data }, location: data.authorization_url };
  },
  { failure: (reason) => failureText('payment-init-failed', reason) },
);
