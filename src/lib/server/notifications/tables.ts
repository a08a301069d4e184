import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from '@/lib/server/infra/db/columns';

/** The notifications feature's tables: only its modules write them, each table by its owner in eslint/table-owners.js (lint rule house/table-writes). */

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
