import { sql } from 'drizzle-orm';
import { bigint, boolean, check, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { MARKET_CODES } from '@/lib/domain/markets';
import { money } from '@/lib/server/infra/db/columns';

/** The markets feature's tables: only its modules write them, each table by its owner in eslint/table-owners.js (lint rule house/table-writes). */

/**
 * Each market's pay-on-delivery rules (and gift wrapping's fee) as staff set them; a market without a row uses
 * DEFAULT_PAY_ON_DELIVERY_RULES. Written only by markets/settings.ts.
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
    /** The fee for delivery to a courier's locker (a PUDO locker), minor units; null: DEFAULT_LOCKER_FEE_MINOR. */
    lockerFeeMinor: bigint('locker_fee_minor', { mode: 'number' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('market_settings_cap_below_ceiling', sql`${t.podCapMinor} >= 0 and ${t.podCapMinor} <= ${t.podCeilingMinor}`),
    check('market_settings_deposit_share', sql`${t.podDepositPercent} between 1 and 100`),
    check('market_settings_privacy_days', sql`${t.privacyRequestDays} between 1 and 90`),
    check('market_settings_max_open_orders', sql`${t.podMaxOpenOrders} between 1 and 100`),
    check('market_settings_gift_wrap', sql`${t.giftWrapMinor} >= 0`),
    check('market_settings_locker_fee', sql`${t.lockerFeeMinor} >= 0`),
  ],
);
