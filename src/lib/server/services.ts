import { sql } from 'drizzle-orm';
import { createAccountService } from '@/lib/server/accounts/accounts';
import { createAddressService } from '@/lib/server/accounts/addresses';
import { createFeedService } from './catalogue/feeds';
import { createCatalogueService } from '@/lib/server/catalogue/reading';
import { createSearch } from '@/lib/server/catalogue/search';
import { createCodeService } from '@/lib/server/accounts/codes';
import { createPhoneVerification } from '@/lib/server/accounts/phone-verification';
import { startBackups } from '@/lib/server/operations/backups';
import { startHousekeeping } from '@/lib/server/operations/housekeeping';
import { startRetention } from '@/lib/server/operations/retention';
import { startReconciliation } from '@/lib/server/payments/reconciliation';
import type { ScheduledJob } from '@/lib/server/infra/jobs';
import { startWorker } from '@/lib/server/infra/leased-work';
import { createManualCourier } from '@/lib/server/delivery/manual';
import { deliveryCourier, selectCouriers, selectLockerCouriers, selectLockers } from '@/lib/server/delivery/select';
import type { Lockers } from '@/lib/server/delivery/lockers';
import { createDeliveryNotices } from '@/lib/server/delivery/notices';
import type { Courier } from '@/lib/server/delivery/port';
import { createShipments, marketOfOrder, requestShipment, shipmentLabelFacts } from '@/lib/server/delivery/shipments';
import { createPackingSlips } from '@/lib/server/delivery/packing-slip';
import type { MarketCode } from '@/lib/domain/markets';
import { startSimulatedTransferConfirmations } from '@/lib/server/payments/simulated';
import { getConfig, type Config } from '@/lib/server/infra/config';
import { openDatabase, type Database, type Db } from '@/lib/server/infra/db/client';
import { createLogger, type Logger } from '@/lib/server/infra/log';
import { createMailer, createOutboxReader, type Mailer } from '@/lib/server/infra/mail';
import { createMediaService, type MediaReference } from '@/lib/server/infra/media';
import { users } from '@/lib/server/accounts/tables';
import { categories, productImages } from '@/lib/server/catalogue/tables';
import { contentPictures } from '@/lib/server/content/tables';
import { createPromotionService } from '@/lib/server/promotions/promotions';
import { createNewsletterService } from '@/lib/server/newsletter/newsletter';
import { createRateLimiter, LIMITS } from '@/lib/server/infra/rate-limit';
import { createCodeTries } from '@/lib/server/promotions/code-tries';
import { createLinkSigner } from '@/lib/server/infra/signing';
import { createGiftReturnAccess, giftReturnLink } from '@/lib/server/aftersales/gift-return-access';
import { createSessionService } from '@/lib/server/accounts/sessions';
import { createAfterSignIn } from '@/lib/server/accounts/after-sign-in';
import { createBuyingServices } from '@/lib/server/checkout/buying';
import { localCacheBus, pgCacheBus, type CacheBus } from '@/lib/server/storefront/cache-bus';
import { createCatalogueAdmin } from '@/lib/server/catalogue/admin';
import { createCatalogueImports } from '@/lib/server/catalogue/import';
import { noPageCache, processPageCache, type PageCacheInvalidator } from '@/lib/server/storefront/page-cache';
import { ReadMemo } from '@/lib/server/infra/read-memo';
import type { PaymentProvider } from '@/lib/server/payments/port';
import { createNotificationService, textSenderFor, whatsappSenderFor } from '@/lib/server/notifications/notifications';
import { createTextOutboxReader } from '@/lib/server/notifications/outbox';
import type { TextSender, WhatsAppSender } from '@/lib/server/notifications/port';
// ---- back office
import { createAuditLog } from '@/lib/server/backoffice/audit';
import { createBooksService } from '@/lib/server/books/books';
import { createEInvoicing } from '@/lib/server/books/e-invoicing';
import { createStaffService } from '@/lib/server/backoffice/staff';
import { createStockService } from '@/lib/server/catalogue/stock';
import { createBackInStock } from '@/lib/server/catalogue/back-in-stock';
import { createAdminReports } from '@/lib/server/backoffice/admin-reports';
import { createCollectionService } from '@/lib/server/orders/collection';
import { createStoreCreditService } from '@/lib/server/aftersales/store-credit';
import { createReturnService } from '@/lib/server/aftersales/returns';
import { createOrderMoneyService } from '@/lib/server/orders/order-money';
import { createHelpService } from '@/lib/server/aftersales/help';
import { createContentPages } from '@/lib/server/content/pages';
import { readPageFiles } from '@/lib/server/content/files';
import { MARKETS, DEFAULT_MARKET } from '@/lib/domain/markets';
// ---- end back office
import { createErasure } from '@/lib/server/privacy/erasure';
import { createDataExport } from '@/lib/server/privacy/export';
import { createPrivacyService } from '@/lib/server/privacy/privacy';
import { createDataRequests } from '@/lib/server/privacy/requests';
import { createCustomerViews } from '@/lib/server/privacy/views';

/** Where an image is shown: a profile's picture, a product's image, a category's banner, a content page's picture (an image none names may go). */
export const MEDIA_REFERENCES: readonly MediaReference[] = [users.imageHash, productImages.mediaHash, categories.imageHash, contentPictures.hash];

/**
 * The composition root: every service is built here from explicit dependencies.
 * Tests call createServices with their own database, clock and adapters.
 */
export interface Deps {
  config: Config;
  db: Db;
  clock: () => Date;
  log: Logger;
  /** Tests may pass their own; otherwise SMTP or the dev outbox, by configuration. */
  mailer?: Mailer;
  /** Tests may pass their own; otherwise chosen by PAYMENT_PROVIDER. */
  paymentProvider?: PaymentProvider;
  /** Tests may pass their own; otherwise Clickatell or the dev outbox, by SMS_PROVIDER. */
  textSender?: TextSender;
  /** Tests may pass their own (null: none); otherwise the Cloud API, the dev outbox or none, by WHATSAPP. */
  whatsappSender?: WhatsAppSender | null;
  /** Invalidates cached catalogue pages (on every app server); none by default. */
  pageCache?: PageCacheInvalidator;
  /** Tests may pass their own; otherwise each market's courier by configuration. */
  couriers?: Record<MarketCode, Courier>;
  /** Tests may pass their own; otherwise each market's lockers by configuration (LOCKERS_ZA). */
  lockers?: Partial<Record<MarketCode, Lockers>>;
  /** Tests may pass their own; otherwise the couriers booking their own lockers (LOCKERS_ZA=pudo). */
  lockerCouriers?: Courier[];
}

export function createServices(deps: Deps) {
  const { db, clock } = deps;
  const media = createMediaService({ db, references: MEDIA_REFERENCES });
  // Catalogue data kept in memory and the route cache are invalidated together, by the same tags.
  const readMemo = new ReadMemo(clock, deps.config.PAGE_CACHE_SECONDS * 1000);
  const bus = deps.pageCache ?? noPageCache;
  const pageCache: PageCacheInvalidator = {
    async invalidate(tags) {
      readMemo.invalidate(tags);
      await bus.invalidate(tags);
    },
  };
  const sessions = createSessionService({ db, clock, memo: readMemo, invalidate: (tags) => pageCache.invalidate(tags) });
  // Search: full text and trigram matching, shared by the collection page and the catalogue API.
  const search = createSearch({ db, log: deps.log });
  const catalogue = createCatalogueService({ db, memo: readMemo, search });
  // Shopping feeds, kept while the catalogue pages are (brought up to date by the same invalidations, ADR 0031).
  const feeds = createFeedService({
    db,
    site: deps.config.PUBLIC_SITE_URL,
    keep: deps.config.PAGE_CACHE_SECONDS > 0,
    onError: (err) => deps.log.error('bringing a shopping feed up to date failed; the last copy is answered', { err }),
  });
  // ---- back office
  const audit = createAuditLog({ db, clock });
  const stock = createStockService({ db, clock, pageCache, audit });
  const catalogueAdmin = createCatalogueAdmin({ db, clock, pageCache, audit, media, search });
  // About, Privacy and Contact: the markdown files are their first versions, then editors take over.
  const contentPages = createContentPages({ db, clock, pageCache, audit, seeds: () => readPageFiles(), timeZone: MARKETS[DEFAULT_MARKET].timeZone, media });
  // The catalogue's spreadsheet: checked and applied by the shared worker, one file at a time.
  const catalogueImports = createCatalogueImports({ db, clock, log: deps.log, audit, media, pageCache, search, site: deps.config.PUBLIC_SITE_URL, useAdvisoryLock: Boolean(deps.config.DATABASE_URL) });
  // ---- end back office
  const mailer = deps.mailer ?? createMailer(deps);
  const outbox = createOutboxReader({ db });
  const signer = createLinkSigner(deps.config.linkSecret);
  // Order updates by text or WhatsApp, as each shopper chose (notifications.notifyShopper).
  const notifications = createNotificationService({
    db,
    log: deps.log,
    giftReturnLink: (orderId) => giftReturnLink(signer, deps.config.PUBLIC_SITE_URL, orderId),
    sender: deps.textSender ?? textSenderFor(deps),
    whatsapp: deps.whatsappSender === undefined ? whatsappSenderFor(deps) : deps.whatsappSender,
    siteUrl: deps.config.PUBLIC_SITE_URL,
  });
  const textOutbox = createTextOutboxReader({ db });
  const limiter = createRateLimiter({ db, clock });
  const codes = createCodeService({ db, clock, limiter });
  const signUpLimits = {
    perMinute: { ...LIMITS.signUpsPerAddressPerMinute, max: deps.config.SIGNUPS_PER_ADDRESS_PER_MINUTE },
    perHour: { ...LIMITS.signUpsPerAddressPerHour, max: deps.config.SIGNUPS_PER_ADDRESS_PER_HOUR },
  };
  const accounts = createAccountService({ db, clock, log: deps.log, mailer, sessions, media, limiter, codes, signUpLimits, whatsappOffered: deps.config.whatsapp !== 'off' });
  const addresses = createAddressService({ db, clock });
  const phoneVerification = createPhoneVerification({ db, codes, limiter, sender: notifications.sender, log: deps.log, audit });
  const promotions = createPromotionService({ db, clock, audit });
  // After the sale: store credit, spent at checkout and granted by returns and staff.
  const storeCredit = createStoreCreditService({ db, clock, audit, mailer, log: deps.log, siteUrl: deps.config.PUBLIC_SITE_URL });
  const newsletter = createNewsletterService({ db, clock, log: deps.log, mailer, limiter, promotions, signer, siteUrl: deps.config.PUBLIC_SITE_URL });
  // "Email me when it is back": the newsletter's double opt-in (signed links, mail limits) for a sold-out choice.
  const backInStock = createBackInStock({ db, clock, log: deps.log, mailer, limiter, signer, siteUrl: deps.config.PUBLIC_SITE_URL });
  // Delivery: each market's courier as configured (COURIER_NG, COURIER_ZA); the store's own by default.
  const courierCollection = { NG: deps.config.couriers.NG.collection, ZA: deps.config.couriers.ZA.collection };
  const manualCourier = createManualCourier({ labelFacts: shipmentLabelFacts(db, courierCollection) });
  const couriers: Record<MarketCode, Courier> = deps.couriers ?? selectCouriers(deps.config, { manual: () => manualCourier });
  // A locker's parcel is booked with the locker's own courier when one is configured (PUDO).
  const lockerCouriers: Courier[] = deps.lockerCouriers ?? selectLockerCouriers(deps.config);
  const buying = createBuyingServices({
    ...deps,
    lockers: deps.lockers ?? selectLockers(deps.config),
    mailer,
    pageCache,
    readMemo,
    audit,
    promotions,
    notifications,
    storeCredit,
    codeTries: createCodeTries(limiter),
    // Ready to ship asks for the shipment in its transaction; the worker (built below, called only later) books it.
    shipments: {
      ask: (tx, order) => requestShipment(tx, { orderId: order.id, kind: 'delivery', courier: deliveryCourier(order, couriers, lockerCouriers) }, clock()),
      bookNow: () => shipments.runDue(),
    },
  });
  const deliveryNotices = createDeliveryNotices({ db, mailer, notifications, log: deps.log, siteUrl: deps.config.PUBLIC_SITE_URL });
  const shipments = createShipments({ db, clock, log: deps.log, couriers, lockerCouriers, courierCollection, parcelSizes: deps.config.parcelSizes, orders: buying.orders, notices: deliveryNotices });
  // ---- back office
  const staff = createStaffService({ db, clock, log: deps.log, mailer, codes, sessions, audit });
  const adminReports = createAdminReports({ db, clock, memo: readMemo });
  // Pay on delivery: staff settle at the door (the market rules are buying's onDelivery).
  const collection = createCollectionService({ db, orders: buying.orders, owedRefunds: buying.owedRefunds, audit, log: deps.log, clock, pageCache });
  // ---- end back office
  // After the sale: returns and exchanges, their money through the payment and store credit.
  const returns = createReturnService({
    db,
    clock,
    log: deps.log,
    mailer,
    audit,
    payments: buying.payments,
    payOwedRefunds: () => buying.owedRefunds.runDue(),
    storeCredit,
    pageCache,
    siteUrl: deps.config.PUBLIC_SITE_URL,
    // An approved collection is booked with the market's courier, as a delivery is.
    shipments: {
      ask: (tx, ret) => requestShipment(tx, { orderId: ret.orderId, returnId: ret.id, kind: 'return', courier: couriers[marketOfOrder(ret.currency)].name }, clock()),
      // Staff shipping an exchange's replacement book it with the market's courier too.
      sendExchange: (tx, ret) => requestShipment(tx, { orderId: ret.orderId, returnId: ret.id, kind: 'exchange', courier: couriers[marketOfOrder(ret.currency)].name }, clock()),
      bookNow: () => shipments.runDue(),
    },
  });
  // A gift's return by its recipient: the texted link, their phone proven, their account, the request.
  const giftReturns = createGiftReturnAccess({
    clock,
    log: deps.log,
    signer,
    codes,
    limiter,
    sender: notifications.sender,
    accounts,
    phones: phoneVerification,
    returns,
    siteUrl: deps.config.PUBLIC_SITE_URL,
  });
  // The packing slip staff print: the order as the back office reads it, a gift's return link on its card.
  const books = createBooksService({ db, clock, audit });
  const eInvoicing = createEInvoicing({ db, clock, log: deps.log });
  const packingSlips = createPackingSlips({ orders: buying.orders, giftReturnLink: giftReturns.linkFor });
  const help = createHelpService({ db, clock, mailer, audit, log: deps.log, siteUrl: deps.config.PUBLIC_SITE_URL });
  // The shopper's data: a copy, the account's deletion (the person erased, the books kept), staff requests.
  const dataExport = createDataExport({ db, clock });
  const erasure = createErasure({ db, clock, sessions, media });
  const privacy = createPrivacyService({ clock, codes, sessions, limiter, mailer, dataExport, erasure });
  const dataRequests = createDataRequests({ db, clock, audit, dataExport, erasure, settings: buying.marketSettings, pageCache });
  const customerViews = createCustomerViews({ db, clock });
  // What a signed-out shopper reached for, done once they sign in.
  const afterSignIn = createAfterSignIn({ signer, log: deps.log, cart: buying.cart, favourites: buying.favourites });
  return {
    ...deps,
    media,
    sessions,
    afterSignIn,
    catalogue,
    feeds,
    search,
    catalogueAdmin,
    contentPages,
    catalogueImports,
    pageCache,
    readMemo,
    mailer,
    outbox,
    notifications,
    textOutbox,
    limiter,
    codes,
    accounts,
    addresses,
    phoneVerification,
    newsletter,
    backInStock,
    promotions,
    ...buying,
    couriers,
    shipments,
    deliveryNotices,
    audit,
    stock,
    staff,
    adminReports,
    collection,
    storeCredit,
    returns,
    giftReturns,
    packingSlips,
    books,
    eInvoicing,
    orderMoney: createOrderMoneyService({ db }),
    help,
    dataExport,
    erasure,
    privacy,
    dataRequests,
    customerViews,
    async health(): Promise<{ database: boolean }> {
      try {
        await db.execute(sql`select 1`);
        return { database: true };
      } catch {
        return { database: false };
      }
    },
  };
}
export type Services = ReturnType<typeof createServices>;

interface Runtime {
  services: Services;
  database: Database;
}

let booting: Promise<Runtime> | undefined;
let inFlight = 0;
let draining = false;

/** Opens the database (migrating and seeding an empty one) once per process. */
export function getRuntime(): Promise<Runtime> {
  booting ??= boot().catch((err) => {
    booting = undefined;
    throw err;
  });
  return booting;
}

export async function getServices(): Promise<Services> {
  return (await getRuntime()).services;
}

async function boot(): Promise<Runtime> {
  const config = getConfig();
  const log = createLogger(config.LOG_LEVEL);
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const cacheBus = await openCacheBus(config, log);
  const services = createServices({ config, db: database.db, clock: () => new Date(), log, pageCache: cacheBus });
  // Invalidations from other app servers (the cache bus) reach the in-memory catalogue reads too.
  processPageCache().onInvalidate((tags) => services.readMemo.invalidate(tags));
  // A search answered from the route cache is recorded for the report as a rendered one is.
  processPageCache().onServed(({ searched }) => searched && services.search.record(searched.query, searched.results, searched.market));
  // A live store starts empty: its catalogue comes from staff, never from demo data.
  if (config.demo) {
    const { seedIfEmpty } = await import('@/lib/server/demo/seed');
    await seedIfEmpty(services);
  }
  log.info('store ready', { driver: database.driver, provider: config.PAYMENT_PROVIDER });
  // The jobs' timers stop and their runs in progress end, and the searches still queued for the
  // report are written, before the database closes.
  const jobs: (ScheduledJob | undefined)[] = [];
  installShutdown(database, cacheBus, log, async () => {
    for (const job of jobs) job?.stop();
    await Promise.all(jobs.map((job) => job?.running()));
    await services.search.flush();
  });
  jobs.push(startHousekeeping(services));
  // Once a day: outboxes, old carts and the search log past their periods (never the books).
  jobs.push(startRetention(services));
  // BACKUP_EVERY_HOURS: a backup into BACKUP_DIR, one server at a time.
  jobs.push(startBackups({ database, clock: services.clock, log, config }));
  // Payments confirmed but never fulfilled (a crash, a lost webhook) become orders; sold-out ones are refunded.
  jobs.push(startReconciliation(services));
  // Refunds owed (cancels, refused deposits, rejected exchanges) are paid by every server; rows are claimed, never shared.
  // Shipments to book go through the same worker, couriers without webhooks are asked for their events, and
  // back-in-stock requests a restock made due are mailed once, by whichever server claims them first.
  jobs.push(
    startWorker(
      {
        'refund worker': () => services.owedRefunds.runDue(),
        'shipment booking': () => services.shipments.runDue(),
        'courier tracking poll': () => services.shipments.pollDue(),
        'back-in-stock mails': () => services.backInStock.sendDue(),
        // A page scheduled for a time now come is published (and dropped from every server's cache).
        'scheduled pages': () => services.contentPages.publishDue(),
        'catalogue imports': () => services.catalogueImports.runDue(),
        // Every tax document once to the e-invoicing port (none by default).
        'e-invoicing': () => services.eInvoicing.runDue(),
      },
      { log },
    ),
  );
  // The simulated provider's "webhook": bank transfers the shopper said were sent are confirmed a little later.
  if (services.paymentProvider.name === 'simulated') {
    jobs.push(
      startSimulatedTransferConfirmations({
        ...services,
        transferDelayMs: config.SIMULATED_TRANSFER_DELAY_MS,
        useAdvisoryLock: Boolean(config.DATABASE_URL),
      }),
    );
  }
  return { services, database };
}

/** Request accounting for graceful shutdown. */
export const lifecycle = {
  get draining() {
    return draining;
  },
  enter() {
    inFlight++;
  },
  leave() {
    inFlight--;
  },
};

/** Route cache invalidations reach every app server through PostgreSQL; PGlite is one process. */
export async function openCacheBus(config: Config, log: Logger): Promise<CacheBus> {
  return config.DATABASE_URL ? pgCacheBus({ databaseUrl: config.DATABASE_URL, log }) : localCacheBus();
}

function installShutdown(database: Database, cacheBus: CacheBus, log: Logger, beforeClose: () => Promise<void>) {
  const stop = async (signal: string) => {
    if (draining) return;
    draining = true;
    log.info('shutting down', { signal, inFlight });
    const deadline = Date.now() + 10_000;
    // Idle for two looks in a row: a request just handed over on a closing connection is counted too.
    let idleLooks = 0;
    while (idleLooks < 2 && Date.now() < deadline) {
      idleLooks = inFlight > 0 ? 0 : idleLooks + 1;
      await new Promise((r) => setTimeout(r, 50));
    }
    await beforeClose();
    await cacheBus.close();
    await database.close().catch((err) => log.error('database close failed', { err }));
    log.info('stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
