import { createOwedRefunds } from '@/lib/server/orders/owed-refunds';
import { paymentRefundLedger } from '@/lib/server/orders/order-money';
/** Wires the buying side (shipping, cart, orders, payments, checkout, favourites) from the shared deps. */
import { createCartService } from '@/lib/server/cart/cart';
import { checkoutFulfilment, createCheckoutService } from './checkout';
import { createOnDeliveryService } from './on-delivery';
import { createMarketSettings } from '@/lib/server/markets/settings';
import { createLockerOffers } from './lockers';
import type { Lockers } from '@/lib/server/delivery/lockers';
import type { MarketCode } from '@/lib/domain/markets';
import type { Config } from '@/lib/server/infra/config';
import type { Db } from '@/lib/server/infra/db/client';
import { createFavouriteService } from '@/lib/server/accounts/favourites';
import type { Logger } from '@/lib/server/infra/log';
import type { Mailer } from '@/lib/server/infra/mail';
import { createOrderService } from '@/lib/server/orders/orders';
import { createPaystackProvider } from '@/lib/server/payments/paystack';
import type { PaymentProvider } from '@/lib/server/payments/port';
import { createSimulatedProvider } from '@/lib/server/payments/simulated';
import { paymentRecords } from '@/lib/server/payments/rows';
import { createPaymentService } from '@/lib/server/payments/service';
import { createShippingService } from '@/lib/server/cart/shipping';
import type { PageCacheInvalidator } from '@/lib/server/storefront/page-cache';
import type { ReadMemo } from '@/lib/server/infra/read-memo';
import type { AuditLog } from '@/lib/server/backoffice/audit';
import { createOrderRefunds } from '@/lib/server/orders/order-refunds';
import type { PromotionService } from '@/lib/server/promotions/promotions';
import type { CodeTries } from '@/lib/server/promotions/code-tries';
import type { ShopperNotifications } from '@/lib/server/notifications/notifications';
import type { StoreCreditService } from '@/lib/server/aftersales/store-credit';
import { exchangeDifferences } from '@/lib/server/aftersales/returns';

export function paymentProviderFor(config: Config, db: Db): PaymentProvider {
  if (config.PAYMENT_PROVIDER === 'paystack') {
    return createPaystackProvider({ secretKeys: config.paystackSecretKeys, baseUrl: config.PAYSTACK_BASE_URL });
  }
  return createSimulatedProvider({ records: paymentRecords(db), transferDelayMs: config.SIMULATED_TRANSFER_DELAY_MS });
}

export function createBuyingServices(deps: {
  config: Config;
  db: Db;
  clock: () => Date;
  log: Logger;
  mailer: Mailer;
  paymentProvider?: PaymentProvider;
  pageCache: PageCacheInvalidator;
  readMemo?: ReadMemo;
  audit?: AuditLog;
  /** Discount codes: checked by the cart, held with a payment, used with its order, released without one. */
  promotions?: PromotionService;
  notifications?: ShopperNotifications;
  /** Store credit: spent at checkout (held with the payment), given back when it never becomes an order or is cancelled. */
  storeCredit?: StoreCreditService;
  /** Limits the discount codes a shopper tries. */
  codeTries?: CodeTries;
  /** Delivery by courier: the shipment asked for when an order is ready to ship (delivery/shipments.ts). */
  shipments?: Parameters<typeof createOrderService>[0]['shipments'];
  /** The couriers' lockers (PUDO's) offered at checkout, per market. */
  lockers?: Partial<Record<MarketCode, Lockers>>;
}) {
  const { config, db, clock, log, mailer } = deps;
  const paymentProvider = deps.paymentProvider ?? paymentProviderFor(config, db);
  const shipping = createShippingService({ db });
  const { promotions } = deps;
  const cart = createCartService({ db, shipping, promotions, codeTries: deps.codeTries, memo: deps.readMemo, invalidate: (tags) => deps.pageCache.invalidate(tags) });
  const orders = createOrderService({
    db,
    mailer,
    log,
    siteUrl: config.PUBLIC_SITE_URL,
    audit: deps.audit,
    pageCache: deps.pageCache,
    clock,
    notifications: deps.notifications,
    // A cancel owes back what went online; the refund worker pays it (built below; called only later).
    payOwedRefunds: () => owedRefunds.runDue(),
    storeCredit: deps.storeCredit,
    promotions,
    shipments: deps.shipments,
  });
  const marketSettings = createMarketSettings({ db, clock, audit: deps.audit });
  const onDelivery = createOnDeliveryService({ db, settings: marketSettings });
  const payments = createPaymentService({
    db,
    provider: paymentProvider,
    fulfilment: checkoutFulfilment({ orders, cart, pageCache: deps.pageCache, promotions, storeCredit: deps.storeCredit, onDelivery }),
    log,
    clock,
    // What a payment holds besides its row: a discount code's place and the store credit it spends.
    holds: {
      async release(tx, paymentId) {
        await promotions?.release(tx, paymentId);
        await deps.storeCredit?.release(tx, paymentId);
      },
    },
    // A dearer exchange's difference marks its return paid.
    differences: exchangeDifferences({ db, clock, orderFor: async (orderId) => (await orders.load(orderId))! }),
    // Every refund is the order's money going back, within what the order has left.
    refundLedger: paymentRefundLedger(clock),
  });
  const lockers = createLockerOffers({ points: deps.lockers ?? {}, fee: (market) => onDelivery.lockerFee(market), log });
  const checkout = createCheckoutService({ cart, payments, siteUrl: config.PUBLIC_SITE_URL, promotions, onDelivery, storeCredit: deps.storeCredit, lockers });
  const favourites = createFavouriteService({ db, memo: deps.readMemo, pageCache: deps.pageCache });
  const orderRefunds = createOrderRefunds({ orders, payments, audit: deps.audit });
  const owedRefunds = createOwedRefunds({ db, clock, log, payments });
  return { shipping, cart, orders, payments, checkout, marketSettings, onDelivery, lockers, favourites, paymentProvider, orderRefunds, owedRefunds };
}
