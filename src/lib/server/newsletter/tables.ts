import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from '@/lib/server/infra/db/columns';
import { promotionCodes } from '@/lib/server/promotions/tables';

/** The newsletter feature's tables: only its modules write them, each table by its owner in eslint/table-owners.js (lint rule house/table-writes). */

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
