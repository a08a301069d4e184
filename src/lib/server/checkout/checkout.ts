import { variantLabel, MAX_CART_LINES } from '@/lib/domain/cart';
import { CART_FULL_MESSAGE } from '@/lib/domain/cart-limits';
import { Conflict, Invalid } from '@/lib/domain/errors';
import { DEFAULT_MARKET, MARKETS, marketLabel, marketOfCountry, type MarketCode } from '@/lib/domain/markets';
import type { AddressDto, DeliveryOption, DeliverySpeedId } from '@/lib/domain/shipping';
import type { CartService } from '@/lib/server/cart/cart';
import type { OrderService } from '@/lib/server/orders/orders';
import { cacheTags, type PageCacheInvalidator } from '@/lib/server/storefront/page-cache';
import type { PaymentService } from '@/lib/server/payments/service';
import type { PaymentSnapshot } from '@/lib/server/payments/snapshots';
import { CannotFulfil, type CheckoutStart, type Fulfilment, type InitiateResult } from '@/lib/server/payments/types';
import type { SessionUser } from '@/lib/server/accounts/sessions';
import { OutOfStock } from '@/lib/server/catalogue/stock';
import type { PromotionService } from '@/lib/server/promotions/promotions';
import type { Tx } from '@/lib/server/infra/db/client';
import { fill, message, named } from '@/lib/domain/messages';
import type { CheckoutPaymentChoice } from '@/lib/domain/payment-methods';
import type { OnDeliveryService } from './on-delivery';
import type { StoreCreditService } from '@/lib/server/aftersales/store-credit';
import { creditToUse } from '@/lib/domain/after-sales';
import { giftWrapMinor, type Gift } from '@/lib/domain/gifts';
import { checkoutTotals } from '@/lib/domain/checkout-totals';
import type { BuyerBusiness } from '@/lib/domain/tax-settings';
import type { LockerOffers } from './lockers';

/**
 * Checkout: prices the cart and starts its payment (initiate); what a confirmed payment becomes is
 * the checkout's fulfilment (checkoutFulfilment), which the payment service runs exactly once.
 */

/**
 * What a confirmed payment of a checkout becomes, inside the payment's row lock: the order (its
 * lines, and the sale of their stock through the stock module), and its lines out of the cart.
 * After the commit the pages showing these products are re-rendered and the shopper is mailed.
 */
export function checkoutFulfilment({
  orders,
  cart,
  pageCache,
  promotions,
  storeCredit,
  onDelivery,
}: {
  orders: OrderService;
  cart: CartService;
  pageCache: PageCacheInvalidator;
  promotions?: Pick<PromotionService, 'use'> | undefined;
  storeCredit?: Pick<StoreCreditService, 'stillSpent'> | undefined;
  onDelivery?: Pick<OnDeliveryService, 'lockShopper' | 'mayPlace'> | undefined;
}): Fulfilment {
  return {
    orderOf: (paymentId, tx) => orders.findByPayment(paymentId, tx),

    async place(tx, payment) {
      const { snapshot } = payment;
      // Store credit given back meanwhile (the payment was abandoned, then paid after all): no order; the payment is refunded.
      if (snapshot.storeCreditMinor > 0 && !(await storeCredit?.stillSpent(tx, payment.id))) throw new CannotFulfil('credit_given_back');
      // Pay on delivery: counted again under the shopper's row lock (after the payment's), against the
      // orders placed by now: deposits paid for several starts cannot all become open orders.
      if (snapshot.paymentMethod === 'on_delivery' && onDelivery) {
        await onDelivery.lockShopper(tx, payment.userId);
        if (!(await onDelivery.mayPlace(tx, { userId: payment.userId, currency: payment.currency, totalMinor: snapshot.totalMinor - snapshot.storeCreditMinor }))) {
          throw new CannotFulfil('pod_limit');
        }
      }
      let orderId: string;
      try {
        orderId = await orders.createPaid(tx, {
          userId: payment.userId,
          paymentId: payment.id,
          currency: payment.currency,
          deliveryOption: snapshot.deliveryOption as DeliveryOption,
          deliverySpeed: snapshot.deliveryOption === 'delivery' ? snapshot.deliverySpeed : null,
          deliveryAddress: snapshot.shipTo,
          subtotalMinor: snapshot.subtotalMinor,
          discountMinor: snapshot.discountMinor,
          discountCode: snapshot.discountCode,
          promotionId: snapshot.promotionId,
          deliveryFeeMinor: snapshot.deliveryFeeMinor,
          totalMinor: snapshot.totalMinor,
          paymentMethod: payment.channel ?? (snapshot.storeCreditMinor > 0 && snapshot.storeCreditMinor + snapshot.dueOnDeliveryMinor === snapshot.totalMinor ? 'store_credit' : 'card'),
          storeCreditMinor: snapshot.storeCreditMinor,
          gift: snapshot.gift,
          giftWrapMinor: snapshot.giftWrapMinor,
          locker: snapshot.locker,
          business: snapshot.business,
          lines: snapshot.lines,
          // Pay on delivery: the order records it, and what is left to pay at the door.
          ...(snapshot.paymentMethod === 'on_delivery' ? { paymentMethod: 'on_delivery' as const, dueOnDeliveryMinor: snapshot.dueOnDeliveryMinor } : {}),
        });
      } catch (err) {
        if (!(err instanceof OutOfStock)) throw err;
        const line = snapshot.lines.find((l) => l.variantId === err.variantId);
        throw new CannotFulfil('out_of_stock', line && variantLabel(line.productName, line.color, line.size));
      }
      // The code's held place becomes a use, with the order. A place given up meanwhile (the payment
      // was abandoned or replaced, then paid after all) is taken again or, when gone, the payment is refunded.
      if (snapshot.promotionId !== null && promotions) {
        try {
          await promotions.use(tx, payment.id, orderId);
        } catch (err) {
          if (err instanceof Conflict) throw new CannotFulfil('code_taken');
          throw err;
        }
      }
      await cart.removeBought(
        tx,
        payment.cartId,
        snapshot.lines.map((l) => l.variantId),
      );
      return orderId;
    },

    async placed(orderId, payment) {
      const order = (await orders.load(orderId))!;
      // Stock and best sellers changed: the pages showing these products are re-rendered.
      await pageCache.invalidate([...new Set(payment.snapshot.lines.map((l) => cacheTags.product(l.productId)))]);
      await orders.sendConfirmation(order, payment.userId);
      return order;
    },
  };
}

export function createCheckoutService(deps: {
  cart: CartService;
  payments: PaymentService;
  siteUrl: string;
  promotions?: Pick<PromotionService, 'hold'> | undefined;
  /** Pay on delivery's rules and the shopper's standing; without it, only online payment is offered. */
  onDelivery?: Pick<OnDeliveryService, 'termsFor' | 'lockShopper' | 'confirmTerms' | 'giftWrapFee'> | undefined;
  /** "Use my store credit": the balance, and the spend held with the payment. */
  storeCredit?: Pick<StoreCreditService, 'balance' | 'spend'> | undefined;
  /** The couriers' lockers (PUDO's): the one chosen is checked against those offered, and priced. */
  lockers?: Pick<LockerOffers, 'choose'> | undefined;
}) {
  const { cart, payments, siteUrl, promotions, onDelivery, storeCredit, lockers } = deps;

  /**
   * Only callbacks on this site: an open redirect through the payment page is refused. `origin` is
   * the request's public origin (Astro.locals.publicOrigin); without one, the configured site.
   */
  function callbackFor(requested: string | undefined, origin: string | undefined): string {
    const site = new URL(origin ?? siteUrl);
    if (!requested) return new URL('/place-order?paid=true', site).toString();
    let url: URL;
    try {
      url = new URL(requested, site);
    } catch {
      throw new Invalid(message('callback-url-foreign'));
    }
    if (url.origin !== site.origin) throw new Invalid(message('callback-url-foreign'));
    return url.toString();
  }

  return {
    /** Prices the cart on the server, and starts a payment for it with a snapshot of what was priced (the payment service). */
    async initiate(
      user: SessionUser,
      input: {
        callbackUrl?: string | undefined;
        deliveryOption?: DeliveryOption | undefined;
        /** Express, Standard or Economy, sent with the choice by the checkout form. */
        deliverySpeed?: DeliverySpeedId | undefined;
        market?: MarketCode | undefined;
        /** The public origin the shopper uses: the callback URL is on it. */
        site?: string | undefined;
        /** "Payment method": online (the default), or on delivery (wholly, or after a deposit paid online). */
        paymentMethod?: CheckoutPaymentChoice | undefined;
        /** "Use my store credit": the shopper's credit in the market's currency comes off the total first. */
        useStoreCredit?: boolean | undefined;
        /** The checkout attempt's key (the form's hidden field, the island's, or `Idempotency-Key`): a resend answers the first outcome. */
        idempotencyKey?: string | undefined;
        /** "This is a gift", validated in the market's country (domain/gifts): wrapping adds the market's fee to the total. */
        gift?: Gift | undefined;
        /** A courier's locker code (a PUDO locker) to deliver to instead of the address: its fee replaces the speed's. */
        locker?: string | undefined;
        /** The company the tax invoice is made out to, validated in the market (domain/tax-settings). */
        business?: BuyerBusiness | null | undefined;
      },
    ): Promise<InitiateResult> {
      const callbackUrl = callbackFor(input.callbackUrl, input.site);
      const market = input.market ?? DEFAULT_MARKET;
      // What this attempt asks for: a resend with its key must ask for the same.
      const request = {
        callbackUrl,
        market,
        deliveryOption: input.deliveryOption ?? null,
        deliverySpeed: input.deliverySpeed ?? null,
        paymentMethod: input.paymentMethod ?? 'online',
        useStoreCredit: input.useStoreCredit === true,
        gift: input.gift ?? null,
        locker: input.locker ?? null,
        // Only when given: an attempt started before checkout asked for it keeps its digest.
        ...(input.business ? { business: input.business } : {}),
      };
      const key = input.idempotencyKey ?? null;
      // Sent again (a double tap, a form posted twice): the first start's answer, even once the cart is empty.
      const resumed = await payments.resumeCheckout(user.id, { key, request });
      if (resumed) return resumed;
      let priced = await cart.price(user, market);
      let dropped = priced.discountDropped;
      // The checkout form sends the Delivery / Pickup choice and the speed along with PAY & PLACE ORDER.
      const speedChanged = input.deliverySpeed !== undefined && input.deliverySpeed !== priced.deliverySpeed;
      if ((input.deliveryOption && input.deliveryOption !== priced.deliveryOption) || speedChanged) {
        await cart.setDeliveryOption(user, priced.cartId, input.deliveryOption ?? priced.deliveryOption, market, input.deliverySpeed);
        priced = await cart.price(user, market);
        dropped ??= priced.discountDropped;
      }
      if (priced.lines.length === 0) throw new Invalid(message('cart-empty'));
      // The code came off the cart just now (used up, expired…): the shopper is told before paying more than they expected.
      if (dropped) throw new Conflict(dropped);
      // A cart filled before the line limit existed is held to it at checkout too.
      if (priced.lines.length > MAX_CART_LINES) throw new Invalid(CART_FULL_MESSAGE, { maxLines: MAX_CART_LINES });
      for (const line of priced.lines) {
        const label = variantLabel(line.productName, line.color, line.size);
        if (!line.active) throw new Invalid(named('item-unavailable', label));
        if (!line.priced) throw new Invalid(named('item-not-sold-remove', label, MARKETS[market].countryName));
        if (line.stock < line.quantity) {
          throw new Invalid(line.stock > 0 ? named('item-few-left', label, line.stock) : named('item-out-of-stock', label));
        }
      }
      const inMarket = MARKETS[market];
      if (priced.deliveryOption === 'delivery' && priced.deliveryAddress && priced.deliveryAddress.country !== inMarket.country) {
        const other = marketOfCountry(priced.deliveryAddress.country);
        throw new Invalid(
          other
            ? fill('delivery-address-other-market', MARKETS[other].countryName, inMarket.countryName, marketLabel(other), inMarket.pickupCity, inMarket.countryName)
            : fill('delivery-address-no-market', inMarket.countryName, inMarket.pickupCity, inMarket.countryName),
          { switchMarket: other },
        );
      }
      // A locker is a delivery near the address: its fee replaces the speed's.
      let locker: Awaited<ReturnType<LockerOffers['choose']>> | null = null;
      if (input.locker && priced.deliveryOption === 'delivery') {
        if (!lockers) throw new Invalid(message('locker-needs-address'));
        locker = await lockers.choose(market, priced.deliveryAddress, input.locker);
      }
      // Gift wrapping is a line of the order's money: its fee is part of the total from here on.
      const gift = input.gift ?? null;
      const wrapMinor = giftWrapMinor(gift, gift?.wrap && onDelivery ? await onDelivery.giftWrapFee(market) : 0);
      // The rule the checkout page shows its total by: the locker's fee instead of the speed's, and the wrapping.
      const { deliveryFeeMinor: deliveryFee, totalMinor } = checkoutTotals(priced, { lockerFeeMinor: locker?.feeMinor ?? null, giftWrapMinor: wrapMinor, storeCreditMinor: 0 });
      const shipTo: AddressDto = priced.deliveryOption === 'delivery' && priced.deliveryAddress ? priced.deliveryAddress : priced.pickupAddress;
      const snapshot: PaymentSnapshot = {
        cartId: priced.cartId,
        callbackUrl,
        deliveryOption: priced.deliveryOption,
        deliverySpeed: priced.deliveryOption === 'delivery' && !locker ? priced.deliverySpeed : null,
        shipTo,
        lines: priced.lines.map(({ stock: _s, active: _a, priced: _p, categoryId: _c, ...l }) => l),
        subtotalMinor: priced.subtotalMinor,
        discountMinor: priced.discountMinor,
        discountCode: priced.discount?.code ?? null,
        promotionId: priced.discount?.promotionId ?? null,
        codeId: priced.discount?.codeId ?? null,
        deliveryFeeMinor: deliveryFee,
        totalMinor,
        paymentMethod: 'online',
        dueOnDeliveryMinor: 0,
        storeCreditMinor: 0,
        gift,
        giftWrapMinor: wrapMinor,
        locker: locker?.point ?? null,
        business: input.business ?? null,
      };
      // Store credit comes off first; whatever is left is paid online or (by the market's rules) at the door.
      if (input.useStoreCredit && storeCredit) {
        snapshot.storeCreditMinor = creditToUse(await storeCredit.balance(user.id, priced.currency), totalMinor);
      }
      const discount = priced.discount;
      if (discount && !promotions) throw new Error('a discount without the promotions service');
      const credit = snapshot.storeCreditMinor;
      const cartId = priced.cartId;
      const start: CheckoutStart = {
        userId: user.id,
        email: user.email,
        currency: priced.currency,
        snapshot,
        // One payment per attempt: the cart's row lock serialises starts of this cart (the payment service).
        attempt: { key, request, lockCart: (tx) => cart.lockForCheckout(tx, cartId) },
        // The code's place under its limits, and the credit spent, are taken with the payment row, or none is
        // (Conflict: 'This code has already been used.' / the credit changed meanwhile).
        hold:
          discount || credit > 0
            ? async (tx: Tx, paymentId: string) => {
                if (discount) await promotions!.hold(tx, { applied: discount, userId: user.id, paymentId, currency: priced.currency });
                if (credit > 0) await storeCredit!.spend(tx, { userId: user.id, currency: priced.currency, amountMinor: credit, paymentId });
              }
            : undefined,
      };
      const leftMinor = totalMinor - credit;
      // Nobody at a locker takes money: a locker parcel is paid before it leaves.
      if (locker && input.paymentMethod === 'on_delivery' && leftMinor > 0) throw new Invalid(message('locker-pays-online'));
      if (input.paymentMethod === 'on_delivery' && leftMinor > 0) {
        if (!onDelivery) throw new Conflict(message('pod-disabled', market));
        const terms = await onDelivery.termsFor(user.id, market, leftMinor, cartId);
        if (!terms.allowed) throw new Conflict(terms.text ?? message('pod-disabled', market));
        snapshot.paymentMethod = 'on_delivery';
        snapshot.dueOnDeliveryMinor = terms.dueMinor;
        // Counted again with the payment row, under the shopper's lock: another checkout of theirs may be starting now.
        const dueMinor = terms.dueMinor;
        start.guard = {
          lock: (tx) => onDelivery.lockShopper(tx, user.id),
          check: (tx) => onDelivery.confirmTerms(tx, { userId: user.id, market, totalMinor: leftMinor, cartId, dueMinor }),
        };
      }
      // Store credit covers what is paid now: nothing to charge, the order is placed at once.
      if (credit > 0 && snapshot.dueOnDeliveryMinor + credit === totalMinor && snapshot.paymentMethod !== 'on_delivery') {
        return payments.startCheckout(start, 'store_credit');
      }
      if (snapshot.paymentMethod !== 'on_delivery') return payments.startCheckout(start, 'online');
      const terms = { depositMinor: totalMinor - credit - snapshot.dueOnDeliveryMinor };
      // Above the cap: the deposit is paid online first, and the order is placed when it is confirmed.
      if (terms.depositMinor > 0) return payments.startCheckout(start, 'online');
      // Wholly on delivery: a payment that charges nothing, fulfilled at once (the stock is taken now).
      // The answer sends the shopper to the return page, which finds the order placed.
      return payments.startCheckout(start, 'on_delivery');
    },
  };
}
export type CheckoutService = ReturnType<typeof createCheckoutService>;
