import { sql } from 'drizzle-orm';
import type { ChosenPickupPoint } from '@/lib/domain/pickup-points';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { ROLES } from '@/lib/domain/account-rules';
import {
  HELP_STATUSES,
  HELP_TOPICS,
  RETURN_METHODS,
  RETURN_REASONS,
  RETURN_RESOLUTIONS,
  RETURN_STATUSES,
  STORE_CREDIT_KINDS,
} from '@/lib/domain/after-sales';
import { COUNTRIES } from '@/lib/domain/geo';
import { DEFAULT_MARKET, MARKET_CODES } from '@/lib/domain/markets';
import { ORDER_MONEY_KINDS } from '@/lib/domain/order-money';
import { ORDER_STATUSES } from '@/lib/domain/orders';
import { UPDATE_CHANNELS } from '@/lib/domain/order-updates';
import { COLLECTION_METHODS, COLLECTION_OUTCOMES, ONLINE_CHANNELS, PAYMENT_METHODS } from '@/lib/domain/payment-methods';
import { DELIVERY_OPTIONS, DELIVERY_SPEED_IDS } from '@/lib/domain/shipping';
import { SHIPMENT_KINDS, SHIPMENT_STATUSES, TRACKING_STATUSES } from '@/lib/domain/delivery';

/** Raw bytes (images). PGlite and pg both hand back Uint8Array/Buffer. */
const tsvector = customType<{ data: string; driverData: string }>({
  dataType() {
    return 'tsvector';
  },
});

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
});

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
/** Money is always integer minor units (kobo, cents). */
const money = (name: string) => bigint(name, { mode: 'number' }).notNull();

// ---------------------------------------------------------------- catalogue

export const categories = pgTable(
  'categories',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    parentId: integer('parent_id').references((): any => categories.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    slug: text('slug').notNull().unique(),
    description: text('description'),
    /** media.hash of the banner image (parent categories). */
    imageHash: text('image_hash').references(() => media.hash),
    position: integer('position').notNull().default(0),
  },
  (t) => [index('categories_parent_idx').on(t.parentId, t.position)],
);

export const colors = pgTable('colors', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull().unique(),
  hex: text('hex').notNull(),
});

export const sizes = pgTable('sizes', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull().unique(),
  position: integer('position').notNull().default(0),
});

export const products = pgTable(
  'products',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    slug: text('slug').notNull().unique(),
    description: text('description').notNull(),
    /** Prices are per variant and market: variant_prices. */
    /** The sub-category; its parent is the product's first category. */
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id),
    salesCount: integer('sales_count').notNull().default(0),
    active: boolean('active').notNull().default(true),
    /** A bag's outer size in centimetres, "width × height × depth" (domain/catalogue.ts parseDimensions); null: none stated. */
    dimensionsCm: text('dimensions_cm'),
    createdAt: createdAt(),
    /**
     * What search reads: the name (weight A), the categories and colours (B) and the
     * description (C), unaccented, English stems. Written only by src/lib/server/catalogue/search.ts.
     */
    searchDocument: tsvector('search_document'),
  },
  (t) => [
    index('products_search_idx').using('gin', t.searchDocument),
    index('products_category_idx').on(t.categoryId),
    // The back office's products list: newest first, paged by key on both.
    index('products_created_idx').on(t.createdAt, t.id),
    // Its search by any part of the name (ILIKE '%q%').
    index('products_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
    index('products_sales_idx').on(t.salesCount, t.id),
  ],
);

export const productImages = pgTable(
  'product_images',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    mediaHash: text('media_hash')
      .notNull()
      .references(() => media.hash),
    alt: text('alt').notNull(),
    /** The colour this image shows (the gallery follows the chosen colour); null: it shows every colour. */
    colorId: integer('color_id').references(() => colors.id),
  },
  (t) => [unique('product_images_position_uq').on(t.productId, t.position)],
);

/** A purchasable product x size x colour, with its stock. Size or colour is null where the product has none. */
export const variants = pgTable(
  'variants',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    sizeId: integer('size_id').references(() => sizes.id),
    colorId: integer('color_id').references(() => colors.id),
    stock: integer('stock').notNull().default(0),
    // ---- back office: stock keeping unit, set by staff
    sku: text('sku'),
    // ---- end back office
  },
  (t) => [
    uniqueIndex('variants_sku_uq').on(t.sku).where(sql`${t.sku} is not null`),
    // The back office's products search by any part of a SKU.
    index('variants_sku_trgm_idx').using('gin', sql`${t.sku} gin_trgm_ops`),
    unique('variants_product_size_color_uq').on(t.productId, t.sizeId, t.colorId).nullsNotDistinct(),
    index('variants_size_idx').on(t.sizeId),
    index('variants_color_idx').on(t.colorId),
    check('variants_stock_nonnegative', sql`${t.stock} >= 0`),
  ],
);

/**
 * A variant's price in a market (DESIGN.md "Markets"), in that market's currency's minor units,
 * set by staff and never converted at a rate. A variant without a row for a market is not sold
 * there; a product is sold in a market when one of its variants is, at its lowest price there
 * ("from"). Written only by the catalogue admin (catalogue/admin/prices.ts) and the seed.
 */
export const variantPrices = pgTable(
  'variant_prices',
  {
    variantId: integer('variant_id')
      .notNull()
      .references(() => variants.id, { onDelete: 'cascade' }),
    /** A market code of src/lib/domain/markets.ts (NG, ZA). */
    market: text('market').notNull(),
    priceMinor: money('price_minor'),
  },
  (t) => [
    primaryKey({ columns: [t.variantId, t.market] }),
    index('variant_prices_market_idx').on(t.market, t.variantId),
    check('variant_prices_price_nonnegative', sql`${t.priceMinor} >= 0`),
  ],
);

/**
 * Each product's "from" price per market (the lowest of its variants' prices there): a rollup of
 * variant_prices kept by the database itself (triggers in migration 0015, `ml_refresh_from_prices`), so
 * listings, search and sorting by price read one row per product instead of aggregating every
 * variant's price per request. A product is sold in a market exactly when it has a row.
 */
export const productFromPrices = pgTable(
  'product_from_prices',
  {
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    market: text('market').notNull(),
    priceMinor: money('price_minor'),
  },
  (t) => [primaryKey({ columns: [t.productId, t.market] }), index('product_from_prices_market_price_idx').on(t.market, t.priceMinor, t.productId)],
);

/**
 * The last finished copy of each shopping feed (catalogue/feeds/kept-copies.ts): its ETag, when it was built,
 * the version of the text it was written with, and its layout (`pieces`: the gzip segments in
 * order, each a product range with a fingerprint of what the range read). The segments' bytes are
 * in `feed_pieces`: an app server that starts answers from the copy at once, streaming its pieces
 * from the database, and reads again only the ranges whose fingerprint no longer matches.
 */
export const feedCopies = pgTable('feed_copies', {
  /** `google:NG`, `meta:ZA`, … */
  feed: text('feed').primaryKey(),
  etag: text('etag').notNull(),
  builtAt: timestamp('built_at', { withTimezone: true }).notNull(),
  format: text('format').notNull(),
  pieces: jsonb('pieces').notNull(),
});

/** A gzip segment of a feed copy, by the hash of its bytes (shared by the copies that hold it; unreferenced ones are removed after a while). */
export const feedPieces = pgTable(
  'feed_pieces',
  {
    feed: text('feed').notNull(),
    hash: text('hash').notNull(),
    deflate: bytea('deflate').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.feed, t.hash] })],
);

// ---------------------------------------------------------------- accounts

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  /** Stored lower-cased; unique. */
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  phoneNumber: text('phone_number').notNull(),
  country: text('country', { enum: COUNTRIES }).notNull(),
  imageHash: text('image_hash').references(() => media.hash),
  verifiedAt: timestamp('verified_at', { withTimezone: true }),
  createdAt: createdAt(),
  // ---- back office: roles
  /** customer (default), staff (catalogue, stock, orders, customers) or owner (also staff and the audit log). */
  role: text('role', { enum: ROLES }).notNull().default('customer'),
  // ---- end back office
  /**
   * How the shopper gets order updates at phone_number besides mail: text (SMS), whatsapp (their
   * opt-in to the store's WhatsApp templates) or none; an inbound WhatsApp STOP sets none.
   */
  updatesChannel: text('updates_channel', { enum: UPDATE_CHANNELS }).notNull().default('none'),
  /** The number the shopper proved with a texted code (E.164); the phone counts as verified while it equals phone_number. */
  phoneVerifiedNumber: text('phone_verified_number'),
  /** Pay-on-delivery orders refused at the door since staff last lifted the block (pay on delivery stops at MAX_REFUSED_DELIVERIES). */
  refusedDeliveries: integer('refused_deliveries').notNull().default(0),
  /**
   * When the account was deleted: the person is erased (name, e-mail, phone, picture) and the row
   * stays only as the anonymous id the kept orders, payments and ledgers point to.
   */
  erasedAt: timestamp('erased_at', { withTimezone: true }),
},
  (t) => [
    // The back office's customers list, newest first.
    index('users_created_idx').on(t.createdAt.desc().nullsFirst(), t.email),
    // Its search (any part of the e-mail, the name or the phone number, ILIKE '%q%') and the orders
    // list's search by e-mail: trigram indexes, so 200,000 accounts are not read for each search.
    index('users_email_trgm_idx').using('gin', sql`${t.email} gin_trgm_ops`),
    index('users_name_trgm_idx').using('gin', sql`(${t.firstName} || ' ' || ${t.lastName}) gin_trgm_ops`),
    index('users_phone_trgm_idx').using('gin', sql`${t.phoneNumber} gin_trgm_ops`),
  ],
);

/**
 * Each mobile number an account proved with a texted code, held by that account until staff
 * release it: another account cannot verify it meanwhile. Deliveries refused at the door count
 * against the number as well as the account, and stay with the number when it is released.
 * Written only by src/lib/server/accounts/phone-verification.ts.
 */
export const verifiedPhones = pgTable(
  'verified_phones',
  {
    /** E.164. */
    phone: text('phone').primaryKey(),
    /** The account holding the number; null once staff released it (its refusals stay). */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    refusedDeliveries: integer('refused_deliveries').notNull().default(0),
    verifiedAt: timestamp('verified_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('verified_phones_user_idx').on(t.userId)],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the opaque token; the token itself is never stored. */
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    // ---- back office: step-up
    /** Set once a staff sign-in is confirmed from a known browser or with an e-mailed code; staff rights need it. */
    staffVerifiedAt: timestamp('staff_verified_at', { withTimezone: true }),
    // ---- end back office
    /** When the account's e-mail was last proved with a code in this session (a data download, an account deletion, a staff data request). */
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export const oneTimeCodes = pgTable(
  'one_time_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    email: text('email').notNull(),
    purpose: text('purpose', { enum: ['verify', 'reset', 'staff-device', 'verify-phone', 'confirm', 'gift-return'] }).notNull(),
    /** verify-phone: the E.164 number the code was texted to (the one it proves). */
    phone: text('phone'),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('one_time_codes_email_idx').on(t.email, t.purpose, t.createdAt)],
);

/** Fixed-window counters shared by every app server. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull().default(0),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  windowEnd: timestamp('window_end', { withTimezone: true }).notNull(),
});

export const addresses = pgTable(
  'addresses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    country: text('country', { enum: COUNTRIES }).notNull(),
    state: text('state').notNull(),
    city: text('city').notNull(),
    address: text('address').notNull(),
    /** '' where the country needs none and the shopper gave none (ZIP_REQUIRED). */
    zipCode: text('zip_code').notNull(),
    /** For the courier: a landmark or directions, and the number to call at the door; null when not given. */
    landmark: text('landmark'),
    deliveryPhone: text('delivery_phone'),
    active: boolean('active').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('addresses_user_idx').on(t.userId),
    uniqueIndex('addresses_one_default_uq').on(t.userId).where(sql`${t.active}`),
  ],
);

// ---------------------------------------------------------------- buying

export const carts = pgTable('carts', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** null: not chosen yet, the default applies (delivery when a default address exists). */
  deliveryOption: text('delivery_option', { enum: DELIVERY_OPTIONS }),
  /** Express, Standard or Economy for a delivery; null: not chosen yet (DEFAULT_DELIVERY_SPEED applies). */
  deliverySpeed: text('delivery_speed', { enum: DELIVERY_SPEED_IDS }),
  /** The market the cart was last priced in; a shopper who changes market is told the cart was re-priced. */
  market: text('market', { enum: MARKET_CODES }).notNull().default(DEFAULT_MARKET),
  /** The discount code the shopper applied (as typed, upper-cased); re-checked whenever the cart is priced. */
  discountCode: text('discount_code'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const cartItems = pgTable(
  'cart_items',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    cartId: uuid('cart_id')
      .notNull()
      .references(() => carts.id, { onDelete: 'cascade' }),
    variantId: integer('variant_id')
      .notNull()
      .references(() => variants.id),
    quantity: integer('quantity').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('cart_items_cart_variant_uq').on(t.cartId, t.variantId),
    check('cart_items_quantity_range', sql`${t.quantity} between 1 and 10`),
  ],
);

export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reference: text('reference').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** The checkout's cart (a checkout payment only: an exchange's difference has none). */
    cartId: uuid('cart_id'),
    /**
     * on_delivery: nothing is charged online (the whole order is paid at the door); store_credit: the
     * shopper's store credit covers everything. Both have amount_minor 0.
     */
    provider: text('provider', { enum: ['simulated', 'paystack', 'on_delivery', 'store_credit'] }).notNull(),
    /** What the payment is for: a checkout (becomes an order), or the difference of a dearer exchange (return_id). */
    purpose: text('purpose', { enum: ['checkout', 'exchange_difference'] }).notNull().default('checkout'),
    returnId: uuid('return_id'),
    amountMinor: money('amount_minor'),
    currency: text('currency').notNull(),
    email: text('email').notNull(),
    /**
     * initialized -> paid -> fulfilled; or failed; or abandoned (never paid, given up by reconciliation);
     * or needs_refund when stock ran out after payment. A refund makes it refunded or partially_refunded.
     * pending: the shopper says the money is on its way (a bank transfer); the provider confirms it later.
     */
    status: text('status', {
      enum: ['initialized', 'pending', 'paid', 'fulfilled', 'failed', 'abandoned', 'needs_refund', 'partially_refunded', 'refunded'],
    })
      .notNull()
      .default('initialized'),
    /** Refunded so far, in minor units (never more than amount_minor). */
    refundedMinor: bigint('refunded_minor', { mode: 'number' }).notNull().default(0),
    /** A refund claimed and sent to the provider but not yet recorded; blocks a second one meanwhile. */
    refundPendingMinor: bigint('refund_pending_minor', { mode: 'number' }),
    /** The key of the claim in progress (an owed refund's), sent to the provider: a claim found after a crash is finished with the same key, never paid twice. */
    refundPendingKey: text('refund_pending_key'),
    /** When the latest refund was recorded, and the provider's id for it. */
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    refundId: text('refund_id'),
    /** The checkout as priced when payment started: lines, fee, option, address. */
    snapshot: jsonb('snapshot').notNull(),
    /** The channel the shopper paid through, as the provider reports it (card, bank_transfer, ussd, bank, eft…); null until known. */
    channel: text('channel', { enum: ONLINE_CHANNELS }),
    /**
     * A checkout attempt's key, sent by its form or island (`Idempotency-Key` on the API), unique per
     * shopper: a resend with it answers this payment. `request_digest` is what the attempt asked for
     * (a resend asking for something else is refused); null for payments started without a key.
     */
    idempotencyKey: text('idempotency_key'),
    requestDigest: text('request_digest'),
    /** Where the shopper pays: the provider's page, or the return page of a payment charging nothing. A resend answers it again. */
    authorizationUrl: text('authorization_url'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payments_user_idx').on(t.userId),
    uniqueIndex('payments_idempotency_key_idx').on(t.userId, t.idempotencyKey).where(sql`${t.idempotencyKey} is not null`),
    // A checkout's start looks for the open payment of its cart (under the cart's row lock).
    index('payments_cart_open_idx').on(t.cartId).where(sql`${t.status} in ('initialized', 'paid')`),
    check('payments_on_delivery_charges_nothing', sql`${t.provider} not in ('on_delivery', 'store_credit') or ${t.amountMinor} = 0`),
    check('payments_difference_has_return', sql`(${t.purpose} = 'exchange_difference') = (${t.returnId} is not null)`),
    check('payments_checkout_has_cart', sql`${t.purpose} <> 'checkout' or ${t.cartId} is not null`),
    index('payments_return_idx').on(t.returnId),
    // The sweeps every app server runs every few seconds look only at payments still in motion: a
    // few rows among a million settled ones, found by these small partial indexes.
    index('payments_open_idx').on(t.createdAt).where(sql`${t.status} in ('initialized', 'pending', 'paid')`),
    index('payments_pending_idx').on(t.provider, t.updatedAt).where(sql`${t.status} = 'pending'`),
    index('payments_needs_refund_idx').on(t.createdAt).where(sql`${t.status} = 'needs_refund'`),
    index('payments_refund_claimed_idx').on(t.updatedAt).where(sql`${t.refundPendingMinor} is not null`),
  ],
);

export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    trackingNumber: text('tracking_number').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    paymentId: uuid('payment_id')
      .notNull()
      .unique()
      .references(() => payments.id),
    status: text('status', { enum: ORDER_STATUSES })
      .notNull()
      .default('pending'),
    deliveryOption: text('delivery_option', { enum: DELIVERY_OPTIONS }).notNull(),
    /** The delivery's speed (null for pickup, and for orders from before speeds were chosen). */
    deliverySpeed: text('delivery_speed', { enum: DELIVERY_SPEED_IDS }),
    subtotalMinor: money('subtotal_minor'),
    /** Money off the subtotal from a discount code (0 without one); total = subtotal - discount + delivery. */
    discountMinor: bigint('discount_minor', { mode: 'number' }).notNull().default(0),
    /** The code as the shopper applied it, and its promotion; null without one. */
    discountCode: text('discount_code'),
    promotionId: integer('promotion_id').references(() => promotions.id),
    deliveryFeeMinor: money('delivery_fee_minor'),
    totalMinor: money('total_minor'),
    currency: text('currency').notNull(),
    /** Address as it was when ordered (delivery address, or the pickup store). */
    deliveryAddress: jsonb('delivery_address').notNull(),
    /** How it is paid: an online channel, or on_delivery (any deposit went online through the order's payment). */
    paymentMethod: text('payment_method', { enum: PAYMENT_METHODS }).notNull().default('card'),
    /** What is still to be paid at the door (minor units; 0 for an order paid online). */
    dueOnDeliveryMinor: bigint('due_on_delivery_minor', { mode: 'number' }).notNull().default(0),
    /** Pay on delivery, settled by staff: paid (with how and how much) or refused at the door; null while to collect. */
    collectionOutcome: text('collection_outcome', { enum: COLLECTION_OUTCOMES }),
    collectionMethod: text('collection_method', { enum: COLLECTION_METHODS }),
    collectedMinor: bigint('collected_minor', { mode: 'number' }),
    collectedAt: timestamp('collected_at', { withTimezone: true }),
    /** Store credit used at checkout (minor units); the payment charged total - due on delivery - this. */
    storeCreditMinor: bigint('store_credit_minor', { mode: 'number' }).notNull().default(0),
    /** When it was delivered (status delivered): the 3-day return window runs from here. */
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /** When the shopper cancelled it (status cancelled). */
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /**
     * A gift (ADR 0035): the recipient the courier calls (phone in E.164), the message for the
     * packing slip and whether it shows prices; null name for an order that is not a gift.
     */
    giftRecipientName: text('gift_recipient_name'),
    giftRecipientPhone: text('gift_recipient_phone'),
    giftMessage: text('gift_message'),
    giftHidePrices: boolean('gift_hide_prices').notNull().default(false),
    giftWrap: boolean('gift_wrap').notNull().default(false),
    /** Gift wrapping's fee (minor units; 0 without it): total = subtotal - discount + delivery + gift wrap. */
    giftWrapMinor: bigint('gift_wrap_minor', { mode: 'number' }).notNull().default(0),
    /**
     * A courier pickup point the parcel goes to instead of the address (ADR 0041: a PUDO locker,
     * `{courier, id, name, address, city, distanceKm}`); null for delivery to the door and pickup.
     */
    pickupPoint: jsonb('pickup_point').$type<ChosenPickupPoint>(),
    /** When the confirmation mail went out; null until then (reconciliation sends it if a crash lost it). */
    confirmationMailedAt: timestamp('confirmation_mailed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('orders_user_idx').on(t.userId, t.createdAt),
    // The back office's orders list (newest first, paged by key on both) and the dashboard's last 30 days.
    index('orders_created_idx').on(t.createdAt, t.id),
    // The orders list filtered by status: a rare status must not be found by walking every newer order.
    index('orders_status_created_idx').on(t.status, t.createdAt, t.id),
    // The orders list's search by any part of a tracking number.
    index('orders_tracking_trgm_idx').using('gin', sql`${t.trackingNumber} gin_trgm_ops`),
    // The dashboard's cash collected at the door.
    index('orders_collected_idx').on(t.collectionOutcome).where(sql`${t.collectionOutcome} is not null`),
    index('orders_unmailed_idx').on(t.createdAt).where(sql`${t.confirmationMailedAt} is null`),
    // The back office's "To collect" list.
    index('orders_to_collect_idx')
      .on(t.createdAt)
      .where(sql`${t.paymentMethod} = 'on_delivery' and ${t.collectionOutcome} is null`),
    check('orders_due_on_delivery_only', sql`${t.paymentMethod} = 'on_delivery' or ${t.dueOnDeliveryMinor} = 0`),
    check('orders_gift_whole', sql`(${t.giftRecipientName} is null) = (${t.giftRecipientPhone} is null)`),
    check('orders_gift_wrap_fee', sql`${t.giftWrapMinor} >= 0 and (${t.giftWrap} or ${t.giftWrapMinor} = 0)`),
  ],
);

/**
 * Orders and their totals per UTC day, currency and status: the dashboard's rollup, so
 * its figures read a few hundred rows rather than a million orders. Kept by the database itself:
 * the triggers of migration 0016 add each inserted, changed or deleted order's difference, in the
 * same transaction. Nothing else writes it.
 */
export const orderDailyTotals = pgTable(
  'order_daily_totals',
  {
    day: date('day', { mode: 'string' }).notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    orders: integer('orders').notNull(),
    totalMinor: money('total_minor'),
  },
  (t) => [primaryKey({ columns: [t.day, t.currency, t.status] })],
);

/**
 * Units sold per UTC day, order status and product (as the line names it): the dashboard's top
 * products and return rate, a few thousand rows a day instead of every order line of 30
 * days. Kept by the database: the triggers of migration 0017 follow inserted, changed and deleted
 * order lines and every order whose status or day changes. Nothing else writes it.
 */
export const productDailySales = pgTable(
  'product_daily_sales',
  {
    day: date('day', { mode: 'string' }).notNull(),
    status: text('status').notNull(),
    productId: integer('product_id').notNull(),
    productName: text('product_name').notNull(),
    units: integer('units').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.status, t.productId, t.productName] })],
);

export const orderItems = pgTable(
  'order_items',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    variantId: integer('variant_id')
      .notNull()
      .references(() => variants.id),
    productName: text('product_name').notNull(),
    productImage: text('product_image').notNull(),
    color: text('color'),
    size: text('size'),
    quantity: integer('quantity').notNull(),
    unitPriceMinor: money('unit_price_minor'),
    lineTotalMinor: money('line_total_minor'),
    /** This line's share of the order's discount (spread in proportion; the shares add up to the whole). */
    discountMinor: bigint('discount_minor', { mode: 'number' }).notNull().default(0),
    /** Units staff refunded from the back office's line refund: never returned (or refunded) again. */
    refundedQuantity: integer('refunded_quantity').notNull().default(0),
  },
  (t) => [index('order_items_order_idx').on(t.orderId), check('order_items_refunded_within', sql`${t.refundedQuantity} between 0 and ${t.quantity}`)],
);

/**
 * Refunds an order owes (ADR 0024): written in the transaction that owes them (a cancel, a refused
 * delivery's deposit, a rejected exchange's difference), paid by the refund worker on every server
 * (orders/owed-refunds.ts, the one writer). `lease_until` marks a row being paid; a lease that ran
 * out (the server died) lets another worker finish it with the same provider key.
 */
export const owedRefunds = pgTable(
  'owed_refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** The payment it goes back to (null for store credit). */
    paymentId: uuid('payment_id'),
    returnId: uuid('return_id'),
    amountMinor: money('amount_minor'),
    currency: text('currency').notNull(),
    destination: text('destination', { enum: ['payment', 'store_credit'] }).notNull(),
    reason: text('reason').notNull(),
    /** owed: waiting for the worker; paid; failed: the provider refused it too often (staff may retry); stuck: its outcome is unknown (staff check the provider). */
    status: text('status', { enum: ['owed', 'paid', 'failed', 'stuck'] }).notNull().default('owed'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** The provider's last answer (its refusal, or its refund id once paid). */
    lastAnswer: text('last_answer'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('owed_refunds_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'owed'`),
    index('owed_refunds_order_idx').on(t.orderId),
    index('owed_refunds_status_idx').on(t.status, t.createdAt),
    check('owed_refunds_positive', sql`${t.amountMinor} > 0`),
    check('owed_refunds_payment_has_one', sql`(${t.destination} = 'payment') = (${t.paymentId} is not null)`),
  ],
);

/**
 * The money of an order, one row per amount that came in or went back (ADR 0019): charged online,
 * collected at the door, store credit used, an exchange difference paid (positive); refunded to a
 * payment, a released refund claim (positive), credited, transferred (negative). Written in the
 * transaction that moves the money, only by orders/order-money.ts; what an order may still give back
 * is read from here.
 */
export const orderMoney = pgTable(
  'order_money',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ORDER_MONEY_KINDS }).notNull(),
    amountMinor: money('amount_minor'),
    currency: text('currency').notNull(),
    /** The line and how many of its units it concerns (a line refund, a return), where it does. */
    orderItemId: integer('order_item_id'),
    units: integer('units'),
    /** What moved it: the payment (charged, refunded), the return (credited, transferred, a difference). */
    paymentId: uuid('payment_id'),
    returnId: uuid('return_id'),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [
    index('order_money_order_idx').on(t.orderId, t.id),
    index('order_money_payment_idx').on(t.paymentId).where(sql`${t.paymentId} is not null`),
    check('order_money_nonzero', sql`${t.amountMinor} <> 0`),
    check(
      'order_money_signed',
      sql`(${t.kind} in ('charged', 'collected', 'credit_used', 'difference_paid', 'refund_released')) = (${t.amountMinor} > 0)`,
    ),
    // What comes in is written once: an order is charged, collected and paid with credit once, a difference paid once.
    uniqueIndex('order_money_once_in_uq').on(t.orderId, t.kind).where(sql`${t.kind} in ('charged', 'collected', 'credit_used')`),
    uniqueIndex('order_money_difference_once_uq').on(t.paymentId).where(sql`${t.kind} = 'difference_paid'`),
    // A return credits (or transfers) once; a cancelled order's credit comes back once.
    uniqueIndex('order_money_return_once_uq').on(t.returnId, t.kind).where(sql`${t.returnId} is not null and ${t.kind} in ('credited', 'transferred')`),
    uniqueIndex('order_money_cancel_credit_once_uq').on(t.orderId).where(sql`${t.returnId} is null and ${t.kind} = 'credited'`),
  ],
);

export const favourites = pgTable(
  'favourites',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.productId] })],
);

/**
 * Newsletter subscribers (double opt-in). Consent is kept as NDPR and POPIA ask: when and how it
 * was given (source), when it was confirmed from the mail, when it was withdrawn; the history of
 * each change is in newsletter_consent_events. The welcome code is issued once per subscription.
 */
export const newsletterSubscriptions = pgTable('newsletter_subscriptions', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  email: text('email').notNull().unique(),
  status: text('status', { enum: ['pending', 'confirmed', 'unsubscribed'] }).notNull().default('pending'),
  /** Where consent was given: the home page box, the settings page. */
  source: text('source', { enum: ['home', 'settings'] }).notNull().default('home'),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true }),
  /** The one welcome code this subscription ever receives (unique: a second confirm cannot issue another). */
  welcomeCodeId: integer('welcome_code_id')
    .unique()
    .references(() => promotionCodes.id),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * "Email me when it is back": an address waiting for a sold-out variant. Double opt-in like the
 * newsletter: pending until its signed link is followed, then confirmed; a restock (stock from 0
 * through applyStockMoves) makes the confirmed ones due in the restock's transaction, and the
 * back-in-stock worker claims each due one once (notified) and mails it. Written only by
 * src/lib/server/catalogue/back-in-stock.ts.
 */
export const backInStockRequests = pgTable(
  'back_in_stock_requests',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    variantId: integer('variant_id')
      .notNull()
      .references(() => variants.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    status: text('status', { enum: ['pending', 'confirmed', 'due', 'notified'] }).notNull().default('pending'),
    /** The market the shopper asked from: the mail links to the product there. */
    market: text('market').notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    dueAt: timestamp('due_at', { withTimezone: true }),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('back_in_stock_variant_email_uq').on(t.variantId, t.email),
    index('back_in_stock_due_idx').on(t.status, t.dueAt),
    index('back_in_stock_email_idx').on(t.email),
  ],
);

/** Every change of newsletter consent: subscribed, confirmed, unsubscribed, resubscribed; with the source. */
export const newsletterConsentEvents = pgTable(
  'newsletter_consent_events',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    email: text('email').notNull(),
    action: text('action', { enum: ['subscribed', 'confirmed', 'unsubscribed', 'resubscribed'] }).notNull(),
    source: text('source', { enum: ['home', 'settings', 'mail-link'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('newsletter_consent_events_email_idx').on(t.email, t.createdAt)],
);

// ---------------------------------------------------------------- promotions

/**
 * A promotion: what it takes off and when it may be used. Percentage off the eligible subtotal, or
 * a fixed amount per market (minor units; a market without an amount cannot use the code). Limits
 * are enforced by the database: `redemptions` counts held and used redemptions and may never pass
 * `usage_limit` (a conditional update plus a check). `system_key` names the store's own promotions
 * ('newsletter-welcome', whose codes are issued one per subscriber).
 */
export const promotions = pgTable(
  'promotions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    description: text('description').notNull().default(''),
    kind: text('kind', { enum: ['percent', 'fixed'] }).notNull(),
    percentOff: integer('percent_off'),
    /** Fixed amount off per market, minor units: { NG?: number, ZA?: number }. */
    amountOff: jsonb('amount_off').$type<Partial<Record<(typeof MARKET_CODES)[number], number>>>().notNull().default({}),
    /** Minimum subtotal per market, minor units: { NG?: number, ZA?: number }. */
    minSubtotal: jsonb('min_subtotal').$type<Partial<Record<(typeof MARKET_CODES)[number], number>>>().notNull().default({}),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    usageLimit: integer('usage_limit'),
    /** Held and used redemptions together (released ones give their place back). */
    redemptions: integer('redemptions').notNull().default(0),
    oncePerCustomer: boolean('once_per_customer').notNull().default(false),
    firstOrderOnly: boolean('first_order_only').notNull().default(false),
    /** Only lines of these categories count (and are discounted); null: every line. */
    categoryIds: integer('category_ids').array(),
    status: text('status', { enum: ['active', 'paused'] }).notNull().default('active'),
    systemKey: text('system_key').unique(),
    /** For issued codes (the welcome promotion): how many days each code is valid. */
    codeValidDays: integer('code_valid_days'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('promotions_percent_range', sql`${t.percentOff} is null or ${t.percentOff} between 1 and 100`),
    check('promotions_kind_amount', sql`(${t.kind} = 'percent') = (${t.percentOff} is not null)`),
    check('promotions_within_limit', sql`${t.usageLimit} is null or ${t.redemptions} <= ${t.usageLimit}`),
    check('promotions_redemptions_nonnegative', sql`${t.redemptions} >= 0`),
  ],
);

/**
 * The codes of a promotion, stored upper-case (codes are case-insensitive). A shared code is one
 * row; the welcome promotion issues one row per subscriber, bound to that e-mail, valid until
 * `expires_at`, usable once (`usage_limit` 1, counted in `redemptions` like the promotion's).
 */
export const promotionCodes = pgTable(
  'promotion_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    promotionId: integer('promotion_id')
      .notNull()
      .references(() => promotions.id, { onDelete: 'cascade' }),
    code: text('code').notNull().unique(),
    /** Only the account with this e-mail (lower-case) may use the code; null: anyone. */
    email: text('email'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    usageLimit: integer('usage_limit'),
    redemptions: integer('redemptions').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('promotion_codes_promotion_idx').on(t.promotionId),
    check('promotion_codes_within_limit', sql`${t.usageLimit} is null or ${t.redemptions} <= ${t.usageLimit}`),
    check('promotion_codes_redemptions_nonnegative', sql`${t.redemptions} >= 0`),
  ],
);

/**
 * A code's use by one payment: held when payment starts, used when the order is placed (same
 * transaction), released when the payment fails, is declined or abandoned. `customer_key` is the
 * shopper's id when the promotion is once per customer (null otherwise), so the unique index below
 * lets the database refuse a second live redemption by the same customer.
 */
export const promotionRedemptions = pgTable(
  'promotion_redemptions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    promotionId: integer('promotion_id')
      .notNull()
      .references(() => promotions.id),
    codeId: integer('code_id')
      .notNull()
      .references(() => promotionCodes.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    customerKey: uuid('customer_key'),
    paymentId: uuid('payment_id')
      .notNull()
      .unique()
      .references(() => payments.id),
    orderId: uuid('order_id').references(() => orders.id),
    state: text('state', { enum: ['held', 'used', 'released'] }).notNull().default('held'),
    discountMinor: money('discount_minor'),
    currency: text('currency').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('promotion_redemptions_once_per_customer_uq')
      .on(t.promotionId, t.customerKey)
      .where(sql`${t.customerKey} is not null and ${t.state} <> 'released'`),
    index('promotion_redemptions_promotion_idx').on(t.promotionId, t.state),
  ],
);

// ---------------------------------------------------------------- infrastructure

/**
 * Binary images by content hash: generated product art (SVG sources), uploaded
 * profile pictures (WebP) and cached renditions (`{hash}.{width}.{format}`).
 */
export const media = pgTable('media', {
  hash: text('hash').primaryKey(),
  contentType: text('content_type').notNull(),
  bytes: bytea('bytes').notNull(),
  width: integer('width'),
  height: integer('height'),
  createdAt: createdAt(),
});

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('mail_outbox_to_idx').on(t.to, t.createdAt)],
);

/** Text messages (SMS) kept instead of sent when no SMS provider is configured: the dev outbox's texts. */
export const textOutbox = pgTable(
  'text_outbox',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** E.164, e.g. +2348031234567. */
    to: text('to').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('text_outbox_to_idx').on(t.to, t.createdAt)],
);

/** WhatsApp messages kept instead of sent when WHATSAPP=outbox: the dev outbox's WhatsApp messages. */
export const whatsappOutbox = pgTable(
  'whatsapp_outbox',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** E.164, e.g. +2348031234567. */
    to: text('to').notNull(),
    /** The template's name as registered with Meta (SHOPPER_UPDATES). */
    template: text('template').notNull(),
    /** The template's body parameters, in order. */
    params: jsonb('params').$type<string[]>().notNull(),
    /** The body as the shopper reads it. */
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('whatsapp_outbox_to_idx').on(t.to, t.createdAt)],
);

/**
 * Each market's pay-on-delivery rules (and gift wrapping's fee) as staff set them; a market without a row uses
 * DEFAULT_PAY_ON_DELIVERY_RULES. Written only by checkout/on-delivery.ts.
 */
export const marketSettings = pgTable(
  'market_settings',
  {
    market: text('market', { enum: MARKET_CODES }).primaryKey(),
    podEnabled: boolean('pod_enabled').notNull(),
    podCapMinor: money('pod_cap_minor'),
    podCeilingMinor: money('pod_ceiling_minor'),
    podDepositPercent: integer('pod_deposit_percent').notNull(),
    /** Days the store has to answer a shopper's data request (a copy, an erasure) made by mail or phone. */
    privacyRequestDays: integer('privacy_request_days').notNull().default(30),
    /** How many of a shopper's pay-on-delivery orders may be open (not yet settled at the door nor cancelled) at once. */
    podMaxOpenOrders: integer('pod_max_open_orders').notNull().default(2),
    /** Gift wrapping's fee in the market's minor units; null: DEFAULT_GIFT_WRAP_MINOR. */
    giftWrapMinor: bigint('gift_wrap_minor', { mode: 'number' }),
    /** The fee for delivery to a courier's pickup point (a PUDO locker), minor units; null: DEFAULT_PICKUP_POINT_FEE_MINOR. */
    pickupPointFeeMinor: bigint('pickup_point_fee_minor', { mode: 'number' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('market_settings_cap_below_ceiling', sql`${t.podCapMinor} >= 0 and ${t.podCapMinor} <= ${t.podCeilingMinor}`),
    check('market_settings_deposit_share', sql`${t.podDepositPercent} between 1 and 100`),
    check('market_settings_privacy_days', sql`${t.privacyRequestDays} between 1 and 90`),
    check('market_settings_max_open_orders', sql`${t.podMaxOpenOrders} between 1 and 100`),
    check('market_settings_gift_wrap', sql`${t.giftWrapMinor} >= 0`),
    check('market_settings_pickup_point_fee', sql`${t.pickupPointFeeMinor} >= 0`),
  ],
);

// ---------------------------------------------------------------- back office

/** Browsers a staff user has confirmed with an e-mailed code: SHA-256 of the random id in the device cookie. */
export const staffDevices = pgTable(
  'staff_devices',
  {
    deviceHash: text('device_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('staff_devices_user_idx').on(t.userId)],
);

/** Every staff write: who, what, on which entity, when, with a before/after summary. Written only by audit.ts. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email').notNull(),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    details: jsonb('details').notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_created_idx').on(t.createdAt)],
);

/**
 * Every stock change of a variant (opening balance, order, cancellation, refund, adjustment),
 * with who and why. The sum of a variant's deltas equals variants.stock. Written only by stock.ts.
 */
export const stockLedger = pgTable(
  'stock_ledger',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    variantId: integer('variant_id')
      .notNull()
      .references(() => variants.id, { onDelete: 'cascade' }),
    delta: integer('delta').notNull(),
    /** exchange: a unit held for a return's exchange; exchange_release: given back (rejected); return: a returned unit back on sale. */
    kind: text('kind', { enum: ['opening', 'order', 'cancellation', 'refund', 'adjustment', 'exchange', 'exchange_release', 'return'] }).notNull(),
    reason: text('reason'),
    orderId: uuid('order_id'),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('stock_ledger_variant_idx').on(t.variantId, t.createdAt)],
);

/** Status history of an order (who moved it, when). Written only by orders.ts. */
export const orderEvents = pgTable(
  'order_events',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('order_events_order_idx').on(t.orderId, t.createdAt)],
);

// ---------------------------------------------------------------- after the sale

/**
 * A shopper's store credit per market currency (minor units), never negative: the sum of the
 * shopper's ledger rows in that currency. The row is locked to spend, so two checkouts spend once.
 * Written only by aftersales/store-credit.ts.
 */
export const storeCreditBalances = pgTable(
  'store_credit_balances',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    currency: text('currency').notNull(),
    balanceMinor: bigint('balance_minor', { mode: 'number' }).notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.currency] }), check('store_credit_nonnegative', sql`${t.balanceMinor} >= 0`)],
);

/** Every grant and use of store credit; a shopper's rows in a currency add up to the balance. Written only by aftersales/store-credit.ts. */
export const storeCreditEntries = pgTable(
  'store_credit_entries',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    currency: text('currency').notNull(),
    deltaMinor: bigint('delta_minor', { mode: 'number' }).notNull(),
    kind: text('kind', { enum: STORE_CREDIT_KINDS }).notNull(),
    reason: text('reason'),
    orderId: uuid('order_id'),
    paymentId: uuid('payment_id'),
    returnId: uuid('return_id'),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('store_credit_entries_user_idx').on(t.userId, t.currency, t.createdAt),
    check('store_credit_entries_nonzero', sql`${t.deltaMinor} <> 0`),
    // A payment spends once and is given back once; a return credits once; an order's credit comes back once.
    uniqueIndex('store_credit_once_per_payment_uq').on(t.paymentId, t.kind).where(sql`${t.paymentId} is not null and ${t.kind} in ('spend', 'release')`),
    uniqueIndex('store_credit_once_per_return_uq').on(t.returnId).where(sql`${t.returnId} is not null`),
    uniqueIndex('store_credit_once_per_cancellation_uq').on(t.orderId).where(sql`${t.kind} = 'cancellation'`),
  ],
);

/** A shopper's return or exchange of some of an order's lines. Written only by aftersales/returns/rows.ts. */
export const returns = pgTable(
  'returns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reference: text('reference').notNull().unique(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** A gift's return (ADR 0045): the recipient's account its money goes to, as store credit; null = the buyer (user_id). */
    creditUserId: uuid('credit_user_id').references(() => users.id),
    status: text('status', { enum: RETURN_STATUSES }).notNull().default('requested'),
    reason: text('reason', { enum: RETURN_REASONS }).notNull(),
    resolution: text('resolution', { enum: RETURN_RESOLUTIONS }).notNull(),
    method: text('method', { enum: RETURN_METHODS }).notNull(),
    currency: text('currency').notNull(),
    /** What was paid for the returned units (their lines' totals less discount shares), minor units. */
    paidMinor: money('paid_minor'),
    /** An exchange: new units' price less the returned units' price; > 0 the shopper pays it before approval, < 0 goes back at shipping. */
    differenceMinor: bigint('difference_minor', { mode: 'number' }).notNull().default(0),
    differencePaidAt: timestamp('difference_paid_at', { withTimezone: true }),
    rejectionReason: text('rejection_reason'),
    /** Where the money went when settled: to the payment, as store credit, by a bank transfer staff recorded. */
    refundedMinor: bigint('refunded_minor', { mode: 'number' }).notNull().default(0),
    creditedMinor: bigint('credited_minor', { mode: 'number' }).notNull().default(0),
    transferredMinor: bigint('transferred_minor', { mode: 'number' }).notNull().default(0),
    transferReference: text('transfer_reference'),
    /** Set while its money is being sent (claimed under the row lock); a second refund is refused meanwhile. */
    settlingAt: timestamp('settling_at', { withTimezone: true }),
    /** The exchange's parcel. */
    shipmentTracking: text('shipment_tracking'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('returns_order_idx').on(t.orderId), index('returns_status_idx').on(t.status, t.createdAt)],
);

/** A returned line: how many units, the exchange's variant, what staff received. Written only by aftersales/returns/rows.ts. */
export const returnItems = pgTable(
  'return_items',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    returnId: uuid('return_id')
      .notNull()
      .references(() => returns.id, { onDelete: 'cascade' }),
    orderItemId: integer('order_item_id')
      .notNull()
      .references(() => orderItems.id),
    quantity: integer('quantity').notNull(),
    /** The exchange's variant (same product), held through the stock ledger from the request; its unit price in the order's market. */
    exchangeVariantId: integer('exchange_variant_id').references(() => variants.id),
    exchangeUnitPriceMinor: bigint('exchange_unit_price_minor', { mode: 'number' }),
    receivedQuantity: integer('received_quantity'),
    damagedQuantity: integer('damaged_quantity'),
  },
  (t) => [
    index('return_items_return_idx').on(t.returnId),
    index('return_items_order_item_idx').on(t.orderItemId),
    check('return_items_quantity_positive', sql`${t.quantity} > 0`),
    check('return_items_received_within', sql`${t.receivedQuantity} is null or (${t.receivedQuantity} between 0 and ${t.quantity})`),
    check('return_items_damaged_within', sql`${t.damagedQuantity} is null or (${t.damagedQuantity} between 0 and coalesce(${t.receivedQuantity}, 0))`),
  ],
);

/** "Get help with this order": a shopper's request and its thread. Written only by aftersales/help.ts. */
export const helpRequests = pgTable(
  'help_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    topic: text('topic', { enum: HELP_TOPICS }).notNull(),
    status: text('status', { enum: HELP_STATUSES }).notNull().default('open'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('help_requests_order_idx').on(t.orderId), index('help_requests_status_idx').on(t.status, t.updatedAt)],
);

export const helpMessages = pgTable(
  'help_messages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => helpRequests.id, { onDelete: 'cascade' }),
    /** The shopper, or staff answering (actor_id). */
    fromStaff: boolean('from_staff').notNull(),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('help_messages_request_idx').on(t.requestId, t.createdAt)],
);

// ---------------------------------------------------------------- search

/**
 * The words shoppers may mean: every word of the products' names, categories and colours, lower-case
 * and unaccented. Misspellings are matched to these by trigram similarity (pg_trgm).
 * Written only by src/lib/server/catalogue/search.ts.
 */
export const searchTerms = pgTable(
  'search_terms',
  {
    term: text('term').primaryKey(),
  },
  (t) => [index('search_terms_trgm_idx').using('gin', sql`${t.term} gin_trgm_ops`)],
);

/** What shoppers searched for (normalised) and how many products it found: the back office's report. */
export const searchLog = pgTable(
  'search_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    query: text('query').notNull(),
    results: integer('results').notNull(),
    market: text('market', { enum: MARKET_CODES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('search_log_created_idx').on(t.createdAt)],
);

// ---------------------------------------------------------------- privacy

/**
 * A shopper's request for a copy of their data or for their account's deletion that came by mail
 * or phone, recorded by staff with its deadline (the market's privacy_request_days). Written only by
 * privacy/requests.ts.
 */
export const dataRequests = pgTable(
  'data_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The account it concerns (its anonymous id once erased). */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind', { enum: ['export', 'erasure'] }).notNull(),
    channel: text('channel', { enum: ['mail', 'phone'] }).notNull(),
    market: text('market', { enum: MARKET_CODES }).notNull(),
    note: text('note').notNull().default(''),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    status: text('status', { enum: ['open', 'done'] }).notNull().default('open'),
    doneAt: timestamp('done_at', { withTimezone: true }),
    recordedBy: uuid('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    doneBy: uuid('done_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('data_requests_open_idx').on(t.status, t.dueAt), index('data_requests_user_idx').on(t.userId)],
);

/** Each time staff opened a customer's record in the back office: owners read it for breach questions. Written only by privacy/views.ts. */
export const customerViews = pgTable(
  'customer_views',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => users.id),
    staffId: uuid('staff_id').references(() => users.id, { onDelete: 'set null' }),
    staffEmail: text('staff_email').notNull(),
    viewedAt: timestamp('viewed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('customer_views_customer_idx').on(t.customerId, t.viewedAt)],
);

// ---------------------------------------------------------------- operations

/**
 * Every scheduled backup (src/lib/server/infra/backups.ts, its only writer): when, where, how big,
 * how long, or why it failed. /metrics reports the last ones; the scheduler skips a run when
 * another app server already took one within the period.
 */
export const backupRuns = pgTable(
  'backup_runs',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }).notNull(),
    ok: boolean('ok').notNull(),
    /** The file written (on the machine that took it), null when it failed. */
    file: text('file'),
    format: text('format'),
    bytes: bigint('bytes', { mode: 'number' }),
    ms: integer('ms').notNull(),
    error: text('error'),
    /** The app server that took it (its instance id). */
    instance: text('instance').notNull(),
  },
  (t) => [index('backup_runs_finished_idx').on(t.ok, t.finishedAt)],
);

/**
 * Parcels the store sends with a courier (a delivery, an exchange's replacement) or has collected (a return), the one writer
 * being delivery/shipments.ts. A row is written in the transaction that asks for it (staff mark the
 * order "Ready to ship") and booked by the shipment worker, which claims it as the refund worker
 * claims refunds (FOR UPDATE SKIP LOCKED, a lease) and books with the row's id as the courier's key,
 * so a booking taken again after a crash is answered with the first parcel.
 */
export const shipments = pgTable(
  'shipments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: SHIPMENT_KINDS }).notNull().default('delivery'),
    /** The return whose pieces a courier collects (kind return) or whose replacement it takes out (kind exchange); null for a delivery. */
    returnId: uuid('return_id').references(() => returns.id, { onDelete: 'cascade' }),
    /** The courier it is booked with (the market's, when it was asked for). */
    courier: text('courier').notNull(),
    status: text('status', { enum: SHIPMENT_STATUSES }).notNull().default('to_book'),
    /** The latest tracking status (by the event's time), null until the first event. */
    trackingStatus: text('tracking_status', { enum: TRACKING_STATUSES }),
    courierShipmentId: text('courier_shipment_id'),
    trackingNumber: text('tracking_number'),
    trackingUrl: text('tracking_url'),
    labelUrl: text('label_url'),
    /**
     * The courier's rate the parcel is booked on, kept before the first booking call: a retry after a
     * lost answer asks with the same rate, which a courier without keys of ours (Shipbubble) refuses
     * to use twice, instead of quoting afresh and booking a second parcel.
     */
    rateRef: text('rate_ref'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastError: text('last_error'),
    /** When the store last asked the courier for its events (couriers without webhooks). */
    polledAt: timestamp('polled_at', { withTimezone: true }),
    bookedAt: timestamp('booked_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One delivery per order: two staff pressing "Ready to ship" at once ask for one parcel.
    uniqueIndex('shipments_one_delivery_idx').on(t.orderId).where(sql`${t.kind} = 'delivery'`),
    // One collection per return, and one replacement per exchange.
    uniqueIndex('shipments_one_per_return_idx').on(t.returnId, t.kind).where(sql`${t.returnId} is not null`),
    index('shipments_order_idx').on(t.orderId),
    index('shipments_due_idx').on(t.nextAttemptAt).where(sql`${t.status} in ('to_book', 'to_cancel')`),
    // Parcels booked and not yet collected: the few a cancelled order may still take back from the courier.
    index('shipments_awaiting_pickup_idx').on(t.orderId).where(sql`${t.status} = 'booked' and ${t.kind} = 'delivery' and (${t.trackingStatus} is null or ${t.trackingStatus} = 'booked')`),
    index('shipments_courier_id_idx').on(t.courier, t.courierShipmentId),
    index('shipments_courier_tracking_idx').on(t.courier, t.trackingNumber),
  ],
);

/** A shipment's tracking events (its timeline); a courier's event id is recorded once, so a replay adds nothing. */
export const shipmentEvents = pgTable(
  'shipment_events',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    shipmentId: uuid('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    courierEventId: text('courier_event_id').notNull(),
    status: text('status', { enum: TRACKING_STATUSES }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    description: text('description').notNull().default(''),
    location: text('location'),
    riderName: text('rider_name'),
    riderPhone: text('rider_phone'),
    /** Staff who typed it (the manual courier); null from a courier. */
    actorId: uuid('actor_id'),
    createdAt: createdAt(),
  },
  (t) => [unique('shipment_events_once').on(t.shipmentId, t.courierEventId), index('shipment_events_shipment_idx').on(t.shipmentId, t.at)],
);
