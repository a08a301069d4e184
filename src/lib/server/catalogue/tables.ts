import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { MARKET_CODES } from '@/lib/domain/markets';
import { users } from '@/lib/server/accounts/tables';
import { bytea, createdAt, money, tsvector } from '@/lib/server/infra/db/columns';
import { media } from '@/lib/server/infra/tables';

/** The catalogue feature's tables: only its modules write them, each table by its owner in eslint/table-owners.js (lint rule house/table-writes). */

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

/** The houses whose pieces the store sells: a product names one (shown above its name, the brand search engines are told). */
export const designers = pgTable(
  'designers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    slug: text('slug').notNull().unique(),
    /** A short text for the A–Z page and the back office. */
    about: text('about').notNull().default(''),
  },
  // One designer per name however it is cased: the import finds a designer by its name.
  (t) => [uniqueIndex('designers_name_uq').on(sql`lower(${t.name})`)],
);

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
    /** The designer (null: none named yet). */
    designerId: integer('designer_id').references(() => designers.id, { onDelete: 'restrict' }),
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
    index('products_designer_idx').on(t.designerId),
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
 * A variant's price in a market (docs/decisions/0004), in that market's currency's minor units,
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
    /** exchange: a unit held for a return's exchange; exchange_release: given back (rejected); return: a returned unit back on sale; import: set by a catalogue import. */
    kind: text('kind', { enum: ['opening', 'order', 'cancellation', 'refund', 'adjustment', 'exchange', 'exchange_release', 'return', 'import'] }).notNull(),
    reason: text('reason'),
    orderId: uuid('order_id'),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('stock_ledger_variant_idx').on(t.variantId, t.createdAt)],
);

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

/**
 * A spreadsheet staff uploaded to change the catalogue in one go (catalogue/import/): the file
 * itself (and its ZIP of pictures) so that whichever server's worker takes it works on the same
 * bytes, where it stands (checking, checked, applying, applied, rejected with its problems, failed),
 * its progress, every problem found, and what applying it changes. The worker claims one due row
 * at a time with a lease (infra/leased-work.ts). Written only by catalogue/import/rows.ts.
 */
export const catalogueImports = pgTable(
  'catalogue_imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    fileName: text('file_name').notNull(),
    status: text('status', { enum: ['checking', 'checked', 'rejected', 'applying', 'applied', 'failed'] }).notNull(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email').notNull(),
    csv: bytea('csv').notNull(),
    images: bytea('images'),
    rows: integer('rows').notNull().default(0),
    progressDone: integer('progress_done').notNull().default(0),
    progressTotal: integer('progress_total').notNull().default(0),
    /** Every problem found: `{ row, column, message }`. */
    errors: jsonb('errors').notNull().default([]),
    /** What applying changes (domain/catalogue-import.ts ImportSummary), once checked. */
    summary: jsonb('summary'),
    /** Each image cell's picture, fetched and stored by the check (media hash by cell text); the apply reuses them. */
    imageHashes: jsonb('image_hashes'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
  },
  (t) => [index('catalogue_imports_due_idx').on(t.status, t.nextAttemptAt), index('catalogue_imports_created_idx').on(t.createdAt, t.id)],
);
