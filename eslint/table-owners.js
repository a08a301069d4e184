// @ts-check
/**
 * One owner per table: every insert, update and delete of a table is in the one module that owns
 * it, so a rule about a table (an exactly-once guarantee, a ledger, a role) lives in one place.
 * Other modules call the owner. The lint rule house/table-writes (eslint/house.js) enforces this
 * map; tests/unit/table-owners.test.ts checks that every table has an entry.
 *
 * Modules are named by their path under src/lib/server, without the extension; a table's owner is
 * in the feature whose tables file declares it.
 */

/** @type {Record<string, string>} Each table (by the name its tables file exports) and the module that writes it. */
export const TABLE_OWNERS = {
  addresses: 'accounts/addresses',
  auditLog: 'backoffice/audit',
  backInStockRequests: 'catalogue/back-in-stock',
  backupRuns: 'operations/backups',
  cartItems: 'cart/cart',
  carts: 'cart/cart',
  categories: 'catalogue/admin/categories',
  designers: 'catalogue/admin/designers',
  colors: 'demo/seed',
  contentPages: 'content/pages',
  contentPictures: 'content/pages',
  contentRevisions: 'content/pages',
  customerViews: 'privacy/views',
  dataRequests: 'privacy/requests',
  favourites: 'accounts/favourites',
  feedCopies: 'catalogue/feeds/kept-copies',
  feedPieces: 'catalogue/feeds/kept-copies',
  helpMessages: 'aftersales/help',
  helpRequests: 'aftersales/help',
  mailOutbox: 'infra/mail',
  marketSettings: 'markets/settings',
  verifiedPhones: 'accounts/phone-verification',
  media: 'infra/media',
  newsletterConsentEvents: 'newsletter/newsletter',
  newsletterSubscriptions: 'newsletter/newsletter',
  oneTimeCodes: 'accounts/codes',
  // The dashboard's rollup of orders, kept by migration 0016's triggers: nothing writes it but them.
  orderVatLines: 'books/order-vat',
  orderDailyTotals: 'orders/order-placing',
  orderEvents: 'orders/order-status',
  orderMoney: 'orders/order-money',
  orderItems: 'orders/order-placing',
  owedRefunds: 'orders/owed-refunds',
  orders: 'orders/order-placing',
  payments: 'payments/rows',
  // Units sold per day and product, kept by migration 0017's triggers on order lines and orders: nothing writes it but them.
  productDailySales: 'orders/order-placing',
  productImages: 'catalogue/admin/images',
  // A rollup of variant_prices the database keeps (migration 0015's triggers): nothing writes it but them.
  productFromPrices: 'catalogue/admin/prices',
  products: 'catalogue/admin/products',
  promotionCodes: 'promotions/rows',
  promotionRedemptions: 'promotions/rows',
  promotions: 'promotions/rows',
  rateLimits: 'infra/rate-limit',
  returnItems: 'aftersales/returns/rows',
  returns: 'aftersales/returns/rows',
  searchLog: 'catalogue/search',
  searchTerms: 'catalogue/search',
  sessions: 'accounts/sessions',
  taxDocumentCounters: 'books/numbering',
  taxDocuments: 'books/documents',
  taxSettings: 'books/settings',
  shipmentEvents: 'delivery/shipments',
  shipments: 'delivery/shipments',
  sizes: 'demo/seed',
  staffDevices: 'backoffice/staff',
  stockLedger: 'catalogue/stock',
  storeCreditBalances: 'aftersales/store-credit',
  storeCreditEntries: 'aftersales/store-credit',
  textOutbox: 'notifications/outbox',
  whatsappOutbox: 'notifications/outbox',
  users: 'accounts/accounts',
  variantPrices: 'catalogue/admin/prices',
  variants: 'catalogue/admin/variants',
  catalogueImports: 'catalogue/import/rows',
};

/**
 * Facts kept on another module's rows, each with its one writer: stock on hand and units sold
 * belong to the stock module (a sale takes stock, writes the ledger and counts the sale in one
 * call), an account's role to the staff module (grant and revoke). `table.column`, as the tables
 * files name them; an update's `.set({ column })` names the columns it writes.
 * @type {Record<string, string>}
 */
export const COLUMN_OWNERS = {
  'variants.stock': 'catalogue/stock',
  'products.salesCount': 'catalogue/stock',
  'users.role': 'backoffice/staff',
  'users.phoneVerifiedNumber': 'accounts/phone-verification',
  // An order's status and its dates move only through order-status's moveLocked (under the order's row lock).
  'orders.status': 'orders/order-status',
  'orders.deliveredAt': 'orders/order-status',
  'orders.cancelledAt': 'orders/order-status',
  'orders.updatedAt': 'orders/order-status',
  // The confirmation mail's mark (reconciliation mails the orders without it).
  'orders.confirmationMailedAt': 'orders/order-mails',
  // Units refunded by line, taken and given back by the line refunds' bookkeeping.
  'orderItems.refundedQuantity': 'orders/line-refunds',
  // Settling a pay-on-delivery order at the door, and the shopper's refusals (counted, and lifted by staff).
  'orders.collectionOutcome': 'orders/collection',
  'orders.collectionMethod': 'orders/collection',
  'orders.collectedMinor': 'orders/collection',
  'orders.collectedAt': 'orders/collection',
  'users.refusedDeliveries': 'orders/collection',
};

/**
 * Code that is not a module of the running store, and the features whose tables it may write:
 * the seeds fill an empty database (or grow it, for measuring); the dump loads a whole backup,
 * every table as it was, into an empty store (restore, db:move).
 * @type {Record<string, string[]>}
 */
export const ASIDE = {
  'demo/*': ['catalogue', 'accounts'],
  'operations/dump': ['*'],
  'operations/dump-files': ['*'],
};
