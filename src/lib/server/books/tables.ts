import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { MARKET_CODES } from '@/lib/domain/markets';
import { VAT_LINE_KINDS, type DatedRate, type RateBucket } from '@/lib/domain/vat';
import { createdAt, money } from '@/lib/server/infra/db/columns';
import { orderItems, orders } from '@/lib/server/orders/tables';
import type { TaxDocumentLine, TaxDocumentParty } from './pdf/tax-document-view';

/** The books' tables: only its modules write them, each table by its owner in eslint/table-owners.js (lint rule house/table-writes). */

/**
 * Each market's tax settings as the owner set them (books/settings.ts, the one writer): whether the
 * shop is registered, the seller as its documents name it, the rates with the day each applies
 * from, which charges besides the goods are taxed, and how VAT periods run. A market without a row
 * is not registered.
 */
export const taxSettings = pgTable(
  'tax_settings',
  {
    market: text('market', { enum: MARKET_CODES }).primaryKey(),
    registered: boolean('registered').notNull(),
    legalName: text('legal_name').notNull(),
    /** The seller's address, one printed line per line. */
    address: text('address').notNull(),
    /** The VAT number (ZA) or TIN (NG). */
    taxNumber: text('tax_number').notNull(),
    rates: jsonb('rates').$type<DatedRate[]>().notNull(),
    deliveryTaxed: boolean('delivery_taxed').notNull().default(true),
    giftWrapTaxed: boolean('gift_wrap_taxed').notNull().default(true),
    lockerFeeTaxed: boolean('locker_fee_taxed').notNull().default(true),
    /** A VAT period's length in months (1 or 2), and for two: whether periods start in odd months (Jan–Feb…) or even ones (Feb–Mar…). */
    periodMonths: integer('period_months').notNull().default(1),
    periodStartsOdd: boolean('period_starts_odd').notNull().default(true),
    /** Printed on every document (the demo store's numbers are not real). */
    notice: text('notice'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('tax_settings_period', sql`${t.periodMonths} in (1, 2)`)],
);

/**
 * An order's money per line with its VAT, fixed when the order is placed (books/order-vat.ts, the
 * one writer): every item, the delivery (or the locker's fee) and the gift wrap. The lines add up to
 * the order's total; net + VAT = gross on each.
 */
export const orderVatLines = pgTable(
  'order_vat_lines',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: VAT_LINE_KINDS }).notNull(),
    orderItemId: integer('order_item_id').references(() => orderItems.id, { onDelete: 'cascade' }),
    description: text('description').notNull(),
    quantity: integer('quantity').notNull(),
    grossMinor: money('gross_minor'),
    netMinor: money('net_minor'),
    vatMinor: money('vat_minor'),
    rateBasisPoints: integer('rate_basis_points').notNull(),
  },
  (t) => [
    index('order_vat_lines_order_idx').on(t.orderId, t.id),
    check('order_vat_lines_sum', sql`${t.netMinor} + ${t.vatMinor} = ${t.grossMinor} and ${t.vatMinor} >= 0 and ${t.netMinor} >= 0`),
  ],
);

/**
 * Gap-free numbering: one row per market, series and year, its last number taken under the row's
 * lock in the transaction that issues the document (books/numbering.ts), so a rollback gives the
 * number back and no two transactions take the same one.
 */
export const taxDocumentCounters = pgTable(
  'tax_document_counters',
  {
    market: text('market', { enum: MARKET_CODES }).notNull(),
    kind: text('kind', { enum: ['invoice', 'credit-note'] }).notNull(),
    year: integer('year').notNull(),
    last: integer('last').notNull(),
  },
  (t) => [primaryKey({ columns: [t.market, t.kind, t.year] })],
);

/**
 * Tax invoices and credit notes as issued (books/documents.ts, the one writer): what they print is
 * kept whole, so a later change of settings or address never changes a document. The row is also
 * the e-invoicing outbox: a worker hands each one once to the e-invoicing port and keeps what it
 * returns (a reference number, QR data).
 */
export const taxDocuments = pgTable(
  'tax_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: text('number').notNull().unique(),
    market: text('market', { enum: MARKET_CODES }).notNull(),
    kind: text('kind', { enum: ['invoice', 'credit-note'] }).notNull(),
    // Orders are never deleted (an erasure keeps them for the books); a test's cleanup takes its documents with them.
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** A credit note: the invoice it reduces. */
    reducesId: uuid('reduces_id'),
    /** What made it, once: `order` (the sale), `difference:<payment>` (an exchange's extra payment), `money:<order_money row>` (an amount given back). */
    source: text('source').notNull(),
    form: text('form', { enum: ['full', 'abridged'] }).notNull(),
    currency: text('currency').notNull(),
    netMinor: money('net_minor'),
    vatMinor: money('vat_minor'),
    grossMinor: money('gross_minor'),
    seller: jsonb('seller').$type<TaxDocumentParty>().notNull(),
    buyer: jsonb('buyer').$type<TaxDocumentParty>(),
    lines: jsonb('lines').$type<TaxDocumentLine[]>().notNull(),
    byRate: jsonb('by_rate').$type<RateBucket[]>().notNull(),
    reason: text('reason'),
    notice: text('notice'),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    /** E-invoicing: waiting to be handed to the port, handed (with what it returned), or failed (retried). */
    eInvoicingStatus: text('e_invoicing_status', { enum: ['waiting', 'handed'] }).notNull().default('waiting'),
    eInvoicingAttempts: integer('e_invoicing_attempts').notNull().default(0),
    eInvoicingNextAt: timestamp('e_invoicing_next_at', { withTimezone: true }).notNull().defaultNow(),
    eInvoicingLeaseUntil: timestamp('e_invoicing_lease_until', { withTimezone: true }),
    eInvoicingReference: text('e_invoicing_reference'),
    eInvoicingQr: text('e_invoicing_qr'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('tax_documents_source_uq').on(t.orderId, t.source),
    index('tax_documents_order_idx').on(t.orderId, t.issuedAt),
    // The VAT report: a market's documents of a period.
    index('tax_documents_period_idx').on(t.market, t.issuedAt),
    index('tax_documents_e_invoicing_idx').on(t.eInvoicingNextAt).where(sql`${t.eInvoicingStatus} = 'waiting'`),
    check('tax_documents_sum', sql`${t.netMinor} + ${t.vatMinor} = ${t.grossMinor}`),
    check('tax_documents_credit_reduces', sql`(${t.kind} = 'credit-note') = (${t.reducesId} is not null)`),
  ],
);
