import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { SHIPMENT_KINDS, SHIPMENT_STATUSES, TRACKING_STATUSES } from '@/lib/domain/delivery';
import { returns } from '@/lib/server/aftersales/tables';
import { createdAt } from '@/lib/server/infra/db/columns';
import { orders } from '@/lib/server/orders/tables';

/** The delivery feature's tables: only its modules write them, each table by its owner in eslint/table-owners.js (lint rule house/table-writes). */

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
