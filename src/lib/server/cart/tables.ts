import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { DEFAULT_MARKET, MARKET_CODES } from '@/lib/domain/markets';
import { DELIVERY_OPTIONS, DELIVERY_SPEED_IDS } from '@/lib/domain/shipping';
import { addresses, users } from '@/lib/server/accounts/tables';
import { variants } from '@/lib/server/catalogue/tables';
import { createdAt } from '@/lib/server/infra/db/columns';

/** The cart feature's tables: only its modules write them, each table by its owner in eslint/table-owners.js (lint rule house/table-writes). */

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
  /** A saved address chosen at checkout for this order only; null: the default address. Cleared once the order is placed. */
  deliveryAddressId: uuid('delivery_address_id').references(() => addresses.id, { onDelete: 'set null' }),
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
