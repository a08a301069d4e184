import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ROLES } from '@/lib/domain/account-rules';
import { COUNTRIES } from '@/lib/domain/geo';
import { UPDATE_CHANNELS } from '@/lib/domain/order-updates';
import { products } from '@/lib/server/catalogue/tables';
import { createdAt } from '@/lib/server/infra/db/columns';
import { media } from '@/lib/server/infra/tables';

/** The accounts feature's tables: only its modules write them, each table by its owner in eslint/table-owners.js (lint rule house/table-writes). */

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
