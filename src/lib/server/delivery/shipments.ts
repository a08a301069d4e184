import { randomUUID } from 'node:crypto';
import { alias } from 'drizzle-orm/pg-core';
import { and, asc, desc, eq, inArray, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { COURIER_LABELS, FINAL_TRACKING, MANUAL_EVENT_STATUSES, type ShipmentKind, type TrackingStatusCode } from '@/lib/domain/delivery';
import { AppError, Conflict, Invalid, NotFound } from '@/lib/domain/errors';
import { deliveryContact } from '@/lib/domain/gifts';
import { DEFAULT_MARKET, marketOfCurrency, type MarketCode } from '@/lib/domain/markets';
import { fill, message } from '@/lib/domain/messages';
import { formatMoney, toMajor, type CurrencyCode } from '@/lib/domain/money';
import { amountDueMinor } from '@/lib/domain/orders';
import { DEFAULT_PARCEL_SIZES, parcelForItems, type ParcelSize } from '@/lib/domain/parcels';
import { normalisePhone } from '@/lib/domain/phone';
import type { ChosenLocker } from '@/lib/domain/lockers';
import { BOUTIQUES, type AddressDto } from '@/lib/domain/shipping';
import { UUID } from '@/lib/domain/validation';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { users } from '@/lib/server/accounts/tables';
import { returnItems } from '@/lib/server/aftersales/tables';
import { categories, products } from '@/lib/server/catalogue/tables';
import { shipmentEvents, shipments } from '@/lib/server/delivery/tables';
import { orderItems, orders } from '@/lib/server/orders/tables';
import { backoffMs, dueRow, leaseOf, runClaimed } from '@/lib/server/infra/leased-work';
import type { Logger } from '@/lib/server/infra/log';
import type { ManualLabelFacts } from './manual';
import type { DeliveryNotices } from './notices';
import { CourierRefused, type BookingInput, type Courier, type CourierAddress, type CourierName, type Parcel, type TrackingEvent } from './port';

/**
 * Shipments (ADR 0032), the one writer of `shipments` and `shipment_events`. A shipment is asked
 * for in the transaction that decides it (staff mark an order "Ready to ship": requestShipment, one
 * delivery per order by a unique index), and booked by the worker every server runs: it claims the
 * row as refunds owed are claimed (FOR UPDATE SKIP LOCKED, a lease) and books with the row's id as
 * the courier's key, so a row taken again after a crash gets the first parcel back, never a second.
 * Tracking events (a courier's webhook, a poll, staff typing the store's own courier's) are recorded
 * once per courier event id; "delivered" delivers the order through the orders module.
 */

type ShipmentRow = typeof shipments.$inferSelect;
type EventRow = typeof shipmentEvents.$inferSelect;

/** Attempts before a booking is failed and left to staff. */
export const MAX_BOOKING_ATTEMPTS = 8;
/** How long a worker holds a shipment it is booking: longer than a courier call with its timeout. */
export const BOOKING_LEASE_MS = 2 * 60_000;
/** How often a courier without webhooks is asked for a parcel's events. */
export const POLL_EVERY_MS = 15 * 60_000;

/** Waits before the next booking attempt: 30 s, doubling, at most an hour. */
export function bookingBackoffMs(attempts: number): number {
  return backoffMs(attempts, { firstMs: 30_000, maxMs: 3_600_000 });
}

/**
 * Asks for a shipment in the caller's transaction (which holds the order's or the return's row
 * lock). A second ask for the same order's delivery, or the same return's collection, is nothing
 * (the unique indexes). Returns the row's id, or null.
 */
export async function requestShipment(tx: Tx, r: { orderId: string; kind: ShipmentKind; courier: CourierName; returnId?: string }, at: Date): Promise<string | null> {
  const [row] = await tx
    .insert(shipments)
    .values({ orderId: r.orderId, kind: r.kind, returnId: r.returnId ?? null, courier: r.courier, status: 'to_book', nextAttemptAt: at, createdAt: at, updatedAt: at })
    .onConflictDoNothing()
    .returning({ id: shipments.id });
  return row?.id ?? null;
}

/** The market of an order's currency (its courier, its boutique). */
export function marketOfOrder(currency: string): MarketCode {
  return marketOfCurrency(currency)?.code ?? DEFAULT_MARKET;
}

/** Tracking is still read (webhooks, polls) for parcels in these states: booked, or with the courier despite a cancel. */
const TRACKED: ShipmentRow['status'][] = ['booked', 'to_cancel', 'cancel_failed'];

interface OrderFacts {
  trackingNumber: string;
  currency: string;
  totalMinor: number;
  status: (typeof orders.$inferSelect)['status'];
  dueOnDeliveryMinor: number;
  collectionOutcome: string | null;
  address: AddressDto;
  phone: string;
  email: string;
  country: (typeof users.$inferSelect)['country'];
  /** A gift's recipient: the courier calls them, not the buyer. */
  gift: { recipientName: string; recipientPhone: string } | null;
  /** The order's lines by top category (the parcel's boxes). */
  items: { categorySlug: string | null; quantity: number }[];
  /** A PUDO locker the shopper chose: the parcel goes there, not to the address. */
  locker: ChosenLocker | null;
}

const topCategory = alias(categories, 'top_category');

/** The order's facts; with `returnId`, the parcel's pieces are that return's lines (a collection, an exchange's replacement of the same pieces in another size). */
async function orderFacts(db: Db, orderId: string, returnId: string | null = null): Promise<OrderFacts | null> {
  const [row] = await db
    .select({
      trackingNumber: orders.trackingNumber,
      currency: orders.currency,
      totalMinor: orders.totalMinor,
      status: orders.status,
      dueOnDeliveryMinor: orders.dueOnDeliveryMinor,
      collectionOutcome: orders.collectionOutcome,
      address: orders.deliveryAddress,
      phone: users.phoneNumber,
      email: users.email,
      country: users.country,
      giftRecipientName: orders.giftRecipientName,
      giftRecipientPhone: orders.giftRecipientPhone,
      locker: orders.locker,
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId))
    .limit(1);
  if (!row) return null;
  // A product's category is a sub-category; the parcel's box is its parent's (bags, shoes…), or its own at the top.
  const items = await db
    .select({ categorySlug: sql<string | null>`coalesce(${topCategory.slug}, ${categories.slug})`, quantity: sql<number>`coalesce(${returnItems.quantity}, ${orderItems.quantity})` })
    .from(orderItems)
    .leftJoin(returnItems, returnId ? and(eq(returnItems.orderItemId, orderItems.id), eq(returnItems.returnId, returnId)) : sql`false`)
    .leftJoin(products, eq(products.id, orderItems.productId))
    .leftJoin(categories, eq(categories.id, products.categoryId))
    .leftJoin(topCategory, eq(topCategory.id, categories.parentId))
    .where(and(eq(orderItems.orderId, orderId), returnId ? sql`${returnItems.id} is not null` : undefined));
  const { giftRecipientName, giftRecipientPhone, ...facts } = row;
  const gift = giftRecipientName && giftRecipientPhone ? { recipientName: giftRecipientName, recipientPhone: giftRecipientPhone } : null;
  return { ...facts, address: row.address as AddressDto, gift, items, locker: row.locker ?? null };
}

/** The shopper's end of the parcel: the order's address and who the rider calls (deliveryContact), else the account's number. */
function shopperAddress(f: OrderFacts): CourierAddress {
  const a = f.address;
  const contact = deliveryContact({ gift: f.gift, deliveryAddress: a });
  const raw = contact.phone || f.phone;
  const phone = normalisePhone(raw, a.country);
  return {
    name: contact.name,
    phone: phone.ok ? phone.e164 : raw,
    email: f.email,
    line1: a.address,
    city: a.city,
    region: a.state,
    postalCode: a.zipCode || null,
    country: marketOfOrder(f.currency),
    landmark: a.landmark ?? null,
  };
}

/** Where couriers collect from, per market, when configured (COURIER_COLLECTION_NG, COURIER_COLLECTION_ZA). */
export type CourierCollections = Partial<Record<MarketCode, CourierAddress | null>>;

/** The store's end: where the courier collects as configured, else the market's boutique. */
function storeAddress(market: MarketCode, courierCollection: CourierCollections = {}): CourierAddress {
  const configured = courierCollection[market];
  if (configured) return configured;
  const b = BOUTIQUES[market];
  return {
    name: b.location.name,
    phone: b.phone.replace(/\s/g, ''),
    email: b.email,
    line1: b.location.address,
    city: b.location.city,
    region: b.location.state,
    postalCode: b.location.zipCode || null,
    country: market,
  };
}

/** A delivery to a locker: the locker's address, with the shopper (or recipient) to text the collection code to. */
function toLockerAddress(shopper: CourierAddress, p: ChosenLocker): CourierAddress {
  return { ...shopper, line1: p.address || p.name, line2: `PUDO locker ${p.name} (${p.id})`, city: p.city || shopper.city, postalCode: null, landmark: null };
}

/**
 * The booking the courier is asked for: a delivery goes from the boutique to the shopper, a return
 * the other way; the parcel is the order's pieces boxed by category (PARCEL_SIZES), its declared
 * value the order's total.
 */
function bookingInput(row: ShipmentRow, f: OrderFacts, courierCollection?: CourierCollections, sizes: Readonly<Record<string, ParcelSize>> = DEFAULT_PARCEL_SIZES): BookingInput {
  const market = marketOfOrder(f.currency);
  const shopper = shopperAddress(f);
  const store = storeAddress(market, courierCollection);
  const parcel: Parcel = { ...parcelForItems(sizes, f.items), valueMinor: f.totalMinor, currency: market === 'ZA' ? 'ZAR' : 'NGN', description: `Order ${f.trackingNumber}` };
  // An exchange's replacement goes out as a delivery does (nothing to collect at the door).
  const outbound = row.kind !== 'return';
  return {
    key: row.id,
    orderReference: f.trackingNumber,
    kind: outbound ? 'delivery' : 'return',
    from: outbound ? store : shopper,
    to: outbound ? (row.kind === 'delivery' && f.locker ? toLockerAddress(shopper, f.locker) : shopper) : store,
    locker: row.kind === 'delivery' && f.locker ? { network: f.locker.courier, id: f.locker.id } : null,
    parcel,
    collectMinor: row.kind === 'delivery' ? amountDueMinor(f) : 0,
    rateRef: row.rateRef,
  };
}

/** What the store's own courier prints on a label, read from the shipment and its order. */
export function shipmentLabelFacts(db: Db, courierCollection?: CourierCollections) {
  return async (shipmentId: string): Promise<ManualLabelFacts | null> => {
    if (!UUID.test(shipmentId)) return null;
    const [row] = await db.select().from(shipments).where(eq(shipments.id, shipmentId)).limit(1);
    if (!row?.trackingNumber) return null;
    const f = await orderFacts(db, row.orderId, row.returnId);
    if (!f) return null;
    const input = bookingInput(row, f, courierCollection);
    const collect = input.collectMinor ? formatMoney(toMajor(input.collectMinor), f.currency as CurrencyCode).replace('₦', 'NGN ').replace(/^R\s?/, 'ZAR ') : null;
    return { orderReference: f.trackingNumber, trackingNumber: row.trackingNumber, kind: input.kind, from: input.from, to: input.to, collect };
  };
}

/** An event staff type for the store's own courier (the back office form). */
export const staffEventSchema = z.object({
  status: z.enum(MANUAL_EVENT_STATUSES),
  description: z.string().trim().max(300).default(''),
  location: z.string().trim().max(120).default(''),
  riderName: z.string().trim().max(80).default(''),
  riderPhone: z.string().trim().max(30).default(''),
});
export type StaffEvent = z.infer<typeof staffEventSchema>;

/** A shipment as the order pages show it, its events oldest first. */
export interface ShipmentView {
  id: string;
  kind: ShipmentKind;
  /** The return it collects or whose replacement it takes out; null for the order's delivery. */
  returnId: string | null;
  courier: string;
  courierLabel: string;
  status: ShipmentRow['status'];
  trackingStatus: TrackingStatusCode | null;
  trackingNumber: string | null;
  trackingUrl: string | null;
  lastError: string | null;
  /** Booking (or cancelling) calls so far, and when the worker asks again (to_book, to_cancel). */
  attempts: number;
  nextAttemptAt: Date;
  /** Staff may ask for the booking again now: it failed, or it waits after calls that went unanswered. */
  retryable: boolean;
  events: Pick<EventRow, 'status' | 'at' | 'description' | 'location' | 'riderName' | 'riderPhone'>[];
}

export function createShipments(deps: {
  db: Db;
  clock?: () => Date;
  log: Logger;
  /** The courier of each market. */
  couriers: Record<MarketCode, Courier>;
  /** Couriers booking to their own lockers (PUDO's), as the shipment row names them. */
  lockerCouriers?: readonly Courier[];
  /** Delivers the order when the courier says so (the orders module owns delivered_at). */
  orders: { deliverByCourier(tx: Tx, orderId: string, at: Date): Promise<unknown> };
  notices?: DeliveryNotices;
  /** Where the couriers collect, as configured (the boutique where none is set). */
  courierCollection?: CourierCollections;
  /** Parcel sizes by top category (PARCEL_SIZES over the domain's table). */
  parcelSizes?: Readonly<Record<string, ParcelSize>>;
  leaseMs?: number;
}) {
  const { db, log } = deps;
  const clock = deps.clock ?? (() => new Date());
  const leaseMs = deps.leaseMs ?? BOOKING_LEASE_MS;

  function courierNamed(name: string): Courier | null {
    return [...Object.values(deps.couriers), ...(deps.lockerCouriers ?? [])].find((c) => c.name === name) ?? null;
  }

  async function claimIn(status: 'to_book' | 'to_cancel'): Promise<ShipmentRow | null> {
    const now = clock();
    const [row] = await db
      .update(shipments)
      .set(leaseOf(shipments, now, leaseMs))
      .where(inArray(shipments.id, dueRow(db, { table: shipments, ...shipments }, status, now)))
      .returning();
    return row ?? null;
  }
  const claim = () => claimIn('to_book');

  /** No lease is running on the row (nobody is calling the courier for it right now). */
  const unleased = (now: Date) => or(isNull(shipments.leaseUntil), sql`${shipments.leaseUntil} <= ${now}`);

  /**
   * Deliveries of cancelled orders: a parcel booked and not yet collected is to be cancelled with its
   * courier (the worker does it, leased, as it books); one never asked for (no call made yet) or
   * given up is simply not booked. One asked for with calls unanswered stays to book: the worker
   * books it on the same key (the parcel the courier may hold, never a second) and then cancels it.
   */
  async function sweepCancelled(): Promise<number> {
    const now = clock();
    const cancelledOrder = inArray(shipments.orderId, db.select({ id: orders.id }).from(orders).where(eq(orders.status, 'cancelled')));
    const toCancel = await db
      .update(shipments)
      .set({ status: 'to_cancel', attempts: 0, nextAttemptAt: now, leaseUntil: null, lastError: null, updatedAt: now })
      .where(and(eq(shipments.status, 'booked'), eq(shipments.kind, 'delivery'), or(isNull(shipments.trackingStatus), eq(shipments.trackingStatus, 'booked')), cancelledOrder))
      .returning({ id: shipments.id });
    const dropped = await db
      .update(shipments)
      .set({ status: 'cancelled', leaseUntil: null, updatedAt: now })
      .where(and(eq(shipments.kind, 'delivery'), or(eq(shipments.status, 'failed'), and(eq(shipments.status, 'to_book'), eq(shipments.attempts, 0))), unleased(now), cancelledOrder))
      .returning({ id: shipments.id });
    return toCancel.length + dropped.length;
  }

  /**
   * Cancels a claimed parcel with its courier. A refusal is checked against the courier's own
   * tracking (a cancel whose answer was lost is refused the second time as already cancelled);
   * no answer is asked again later, as a booking is.
   */
  async function cancelWithCourier(row: ShipmentRow): Promise<boolean> {
    const courier = courierNamed(row.courier);
    const settle = async (set: Partial<typeof shipments.$inferInsert>) => {
      const now = clock();
      return db.transaction(async (tx) => {
        const done = await tx
          .update(shipments)
          .set({ ...set, leaseUntil: null, updatedAt: now })
          .where(and(eq(shipments.id, row.id), eq(shipments.status, 'to_cancel')))
          .returning({ id: shipments.id });
        if (done.length && set.status === 'cancelled') {
          await tx.insert(shipmentEvents).values({ shipmentId: row.id, courierEventId: 'store:cancelled', status: 'cancelled', at: now, description: '' }).onConflictDoNothing();
        }
      });
    };
    try {
      if (!courier || !row.courierShipmentId) throw new CourierRefused(fill('courier-not-configured', row.courier));
      try {
        await courier.cancel(row.courierShipmentId);
      } catch (err) {
        if (!(err instanceof CourierRefused)) throw err;
        const events = await courier.track(row.courierShipmentId).catch(() => []);
        if (events.at(-1)?.status !== 'cancelled') throw err;
      }
      await settle({ status: 'cancelled', trackingStatus: 'cancelled', lastError: null });
      log.info('shipment cancelled with the courier', { shipmentId: row.id, orderId: row.orderId, courier: row.courier });
      return true;
    } catch (err) {
      const answer = err instanceof Error ? err.message : String(err);
      const last = err instanceof CourierRefused || row.attempts >= MAX_BOOKING_ATTEMPTS;
      await settle({ status: last ? 'cancel_failed' : 'to_cancel', lastError: answer.slice(0, 500), nextAttemptAt: new Date(clock().getTime() + bookingBackoffMs(row.attempts)) });
      if (!(err instanceof AppError)) log.error('shipment cancel failed', { shipmentId: row.id, err });
      else log.warn('shipment not cancelled', { shipmentId: row.id, attempts: row.attempts, last, err });
      return false;
    }
  }

  /**
   * The booking with the rate it is made on: a courier that quotes (not the store's own) is asked once,
   * and its cheapest rate is written on the row before any booking call, so every retry books on that
   * same rate.
   */
  async function withRate(courier: Courier, row: ShipmentRow, input: BookingInput): Promise<BookingInput> {
    if (input.rateRef || courier.name === 'manual') return input;
    const [cheapest] = await courier.quote(input.from, input.to, input.parcel, input.locker);
    if (!cheapest) throw new CourierRefused(message('courier-no-rate'));
    const [kept] = await db
      .update(shipments)
      .set({ rateRef: sql`coalesce(${shipments.rateRef}, ${cheapest.rateRef})`, updatedAt: clock() })
      .where(eq(shipments.id, row.id))
      .returning({ rateRef: shipments.rateRef });
    return { ...input, rateRef: kept?.rateRef ?? cheapest.rateRef };
  }

  /** Books a claimed shipment with its courier, keyed by the row's id; the outcome goes on the row. */
  async function book(row: ShipmentRow): Promise<boolean> {
    try {
      const courier = courierNamed(row.courier);
      if (!courier) throw new CourierRefused(fill('courier-not-configured', row.courier));
      const facts = await orderFacts(db, row.orderId, row.returnId);
      if (!facts) throw new CourierRefused(message('courier-order-gone'));
      // Cancelled before any call was made: nothing is booked. After one, the same key is asked again
      // (the courier may hold a parcel), and the cancel sweep then takes it back.
      if (facts.status === 'cancelled' && row.attempts <= 1 && row.kind === 'delivery') {
        await db
          .update(shipments)
          .set({ status: 'cancelled', leaseUntil: null, updatedAt: clock() })
          .where(and(eq(shipments.id, row.id), eq(shipments.status, 'to_book')));
        return false;
      }
      const booking = await courier.book(await withRate(courier, row, bookingInput(row, facts, deps.courierCollection, deps.parcelSizes)));
      const now = clock();
      await db.transaction(async (tx) => {
        const done = await tx
          .update(shipments)
          .set({
            status: 'booked',
            courierShipmentId: booking.shipmentId,
            trackingNumber: booking.trackingNumber,
            trackingUrl: booking.trackingUrl,
            labelUrl: booking.labelUrl,
            trackingStatus: sql`coalesce(${shipments.trackingStatus}, 'booked')`,
            bookedAt: now,
            leaseUntil: null,
            lastError: null,
            updatedAt: now,
          })
          .where(and(eq(shipments.id, row.id), eq(shipments.status, 'to_book')))
          .returning({ id: shipments.id });
        if (done.length) {
          await tx
            .insert(shipmentEvents)
            .values({ shipmentId: row.id, courierEventId: 'store:booked', status: 'booked', at: now, description: '' })
            .onConflictDoNothing();
        }
      });
      log.info('shipment booked', { shipmentId: row.id, orderId: row.orderId, courier: row.courier, trackingNumber: booking.trackingNumber });
      return true;
    } catch (err) {
      const answer = err instanceof Error ? err.message : String(err);
      // Refused (a bad address, no rate): asking again will not help; no answer: the same key is asked again later.
      const last = err instanceof CourierRefused || row.attempts >= MAX_BOOKING_ATTEMPTS;
      const now = clock();
      await db
        .update(shipments)
        .set({ status: last ? 'failed' : 'to_book', lastError: answer.slice(0, 500), nextAttemptAt: new Date(now.getTime() + bookingBackoffMs(row.attempts)), leaseUntil: null, updatedAt: now })
        .where(and(eq(shipments.id, row.id), eq(shipments.status, 'to_book')));
      if (!(err instanceof AppError)) log.error('shipment booking failed', { shipmentId: row.id, err });
      else log.warn('shipment not booked', { shipmentId: row.id, attempts: row.attempts, last, err });
      return false;
    }
  }

  /**
   * Records a shipment's events: each courier event id once (a replay adds nothing), the shipment's
   * latest status, and a new "delivered" delivers the order in the same transaction. The shopper is
   * told of what is new after the commit. Returns the events added.
   */
  async function record(row: ShipmentRow, events: TrackingEvent[], actorId: string | null = null): Promise<EventRow[]> {
    if (events.length === 0) return [];
    const result = await db.transaction(async (tx) => {
      const added = await tx
        .insert(shipmentEvents)
        .values(
          events.map((e) => ({
            shipmentId: row.id,
            courierEventId: e.eventId,
            status: e.status,
            at: e.at,
            description: e.description,
            location: e.location ?? null,
            riderName: e.rider?.name ?? null,
            riderPhone: e.rider?.phone ?? null,
            actorId,
          })),
        )
        .onConflictDoNothing()
        .returning();
      if (added.length === 0) return { added, earlier: [] as TrackingStatusCode[] };
      const all = await tx.select({ id: shipmentEvents.id, status: shipmentEvents.status }).from(shipmentEvents).where(eq(shipmentEvents.shipmentId, row.id)).orderBy(desc(shipmentEvents.at), desc(shipmentEvents.id));
      await tx.update(shipments).set({ trackingStatus: all[0]!.status, updatedAt: clock() }).where(eq(shipments.id, row.id));
      const delivered = added.find((e) => e.status === 'delivered');
      if (delivered && row.kind === 'delivery') await deps.orders.deliverByCourier(tx, row.orderId, delivered.at);
      const addedIds = new Set(added.map((e) => e.id));
      return { added, earlier: all.filter((e) => !addedIds.has(e.id)).map((e) => e.status) };
    });
    // A cancelled order's parcel still moving (the courier would not cancel it) tells the shopper nothing;
    // an exchange's replacement comes to the shopper as a delivery does, with the same updates.
    if (row.kind !== 'return' && row.status === 'booked' && deps.notices) await tell(row.orderId, row.kind, result.added, result.earlier);
    return result.added;
  }

  /** The shopper hears "on its way" once (the first pick-up or transit), and each later milestone as it comes. */
  async function tell(orderId: string, parcel: 'delivery' | 'exchange', added: EventRow[], earlier: TrackingStatusCode[]) {
    const notices = deps.notices!;
    const moving = (s: TrackingStatusCode) => s === 'picked_up' || s === 'in_transit';
    if (added.some((e) => moving(e.status)) && !earlier.some(moving)) await notices.onItsWay(orderId, parcel);
    for (const e of added) {
      if (e.status === 'out_for_delivery') await notices.outForDelivery(orderId, { name: e.riderName, phone: e.riderPhone }, parcel);
      if (e.status === 'failed_attempt') await notices.failedAttempt(orderId, parcel);
    }
    if (added.some((e) => e.status === 'delivered')) await notices.delivered(orderId, parcel);
  }

  async function get(shipmentId: string): Promise<ShipmentRow> {
    if (!UUID.test(shipmentId)) throw new NotFound(message('shipment-not-found'));
    const [row] = await db.select().from(shipments).where(eq(shipments.id, shipmentId)).limit(1);
    if (!row) throw new NotFound(message('shipment-not-found'));
    return row;
  }

  return {
    /**
     * The worker's run: deliveries of cancelled orders are cancelled with their couriers (or not
     * booked), then what is due is booked, one row at a time, at most `limit` of each; returns how
     * many were booked.
     */
    async runDue({ limit = 20 }: { limit?: number } = {}): Promise<number> {
      await sweepCancelled();
      await runClaimed(() => claimIn('to_cancel'), cancelWithCourier, limit);
      const booked = await runClaimed(claim, book, limit);
      // A booking that finished for an order cancelled meanwhile is cancelled in this same run.
      if (booked > 0 && (await sweepCancelled()) > 0) await runClaimed(() => claimIn('to_cancel'), cancelWithCourier, limit);
      return booked;
    },

    /**
     * Staff: a failed booking, or one waiting after unanswered calls, is asked for again now (the
     * worker books it on the same key and kept rate: a parcel the courier made is answered, never a
     * second). Not for a cancelled order. Returns the order's id.
     */
    async retry(shipmentId: string): Promise<{ orderId: string }> {
      const row = await get(shipmentId);
      const now = clock();
      const [order] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, row.orderId)).limit(1);
      if (order?.status === 'cancelled') throw new Conflict(message('shipment-retry-refused'));
      const [done] = await db
        .update(shipments)
        // Kept at one attempt when calls were made, so a cancel meanwhile still books on the key before cancelling.
        .set({ status: 'to_book', attempts: sql`least(${shipments.attempts}, 1)`, nextAttemptAt: now, leaseUntil: null, updatedAt: now })
        .where(and(eq(shipments.id, row.id), or(eq(shipments.status, 'failed'), and(eq(shipments.status, 'to_book'), sql`${shipments.attempts} > 0`, unleased(now)))))
        .returning({ id: shipments.id });
      if (!done) throw new Conflict(message('shipment-retry-refused'));
      return { orderId: row.orderId };
    },

    /**
     * Staff: a parcel the courier would not cancel is asked to be cancelled again now (the same
     * worker cancels it, starting afresh). Pressed twice, the second finds it already on its way
     * (`queued: false`) and changes nothing. Returns the order's id.
     */
    async retryCancel(shipmentId: string): Promise<{ orderId: string; queued: boolean }> {
      const row = await get(shipmentId);
      const now = clock();
      const [done] = await db
        .update(shipments)
        .set({ status: 'to_cancel', attempts: 0, nextAttemptAt: now, leaseUntil: null, updatedAt: now })
        .where(and(eq(shipments.id, row.id), eq(shipments.status, 'cancel_failed')))
        .returning({ id: shipments.id });
      if (done) return { orderId: row.orderId, queued: true };
      const [current] = await db.select({ status: shipments.status }).from(shipments).where(eq(shipments.id, row.id)).limit(1);
      if (current?.status === 'to_cancel' || current?.status === 'cancelled') return { orderId: row.orderId, queued: false };
      throw new Conflict(message('shipment-cancel-retry-refused'));
    },

    /** Takes a due row without booking it (tests: a worker that dies after its claim). */
    claim,

    /**
     * A courier's webhook: the signature is checked against the raw body (WebhookRejected, 401),
     * then its events are recorded on the shipment they name. Returns how many were new; a signed
     * event of a kind the store does not use is logged and acknowledged (`ignored`).
     */
    async acceptWebhook(courierName: string, headers: Headers, rawBody: string): Promise<{ known: boolean; added: number; ignored?: true }> {
      const courier = courierNamed(courierName);
      if (!courier) throw new NotFound(message('courier-not-found'));
      const update = courier.parseWebhook(headers, rawBody);
      if (update.ignored !== undefined) {
        log.info('courier webhook of a kind the store does not use', { courier: courier.name, kind: update.ignored });
        return { known: false, added: 0, ignored: true };
      }
      const match = [
        update.shipmentId ? eq(shipments.courierShipmentId, update.shipmentId) : undefined,
        update.trackingNumber ? eq(shipments.trackingNumber, update.trackingNumber) : undefined,
      ].filter((m) => m !== undefined);
      if (match.length === 0) return { known: false, added: 0 };
      const [row] = await db
        .select()
        .from(shipments)
        .where(and(eq(shipments.courier, courier.name), inArray(shipments.status, TRACKED), or(...match)))
        .limit(1);
      if (!row) {
        log.warn('courier webhook for an unknown shipment', { courier: courier.name, shipmentId: update.shipmentId, trackingNumber: update.trackingNumber });
        return { known: false, added: 0 };
      }
      return { known: true, added: (await record(row, update.events)).length };
    },

    /**
     * Asks couriers for the events of parcels still moving, each at most every POLL_EVERY_MS (the
     * store's own courier has nothing to ask). A parcel is taken by a conditional update, so two
     * servers do not ask for it at once. Returns how many events were new.
     */
    async pollDue({ limit = 20 }: { limit?: number } = {}): Promise<number> {
      const now = clock();
      const cutoff = new Date(now.getTime() - POLL_EVERY_MS);
      const due = or(isNull(shipments.polledAt), lt(shipments.polledAt, cutoff));
      const candidates = await db
        .select({ id: shipments.id })
        .from(shipments)
        .where(and(inArray(shipments.status, TRACKED), sql`${shipments.courier} <> 'manual'`, or(isNull(shipments.trackingStatus), notInArray(shipments.trackingStatus, [...FINAL_TRACKING])), due))
        .orderBy(asc(shipments.polledAt))
        .limit(limit);
      let added = 0;
      for (const { id } of candidates) {
        const [row] = await db.update(shipments).set({ polledAt: now }).where(and(eq(shipments.id, id), due)).returning();
        const courier = row && courierNamed(row.courier);
        if (!row?.courierShipmentId || !courier) continue;
        try {
          added += (await record(row, await courier.track(row.courierShipmentId))).length;
        } catch (err) {
          log.warn('courier tracking poll failed', { shipmentId: id, courier: row.courier, err });
        }
      }
      return added;
    },

    /** Staff type an event of the store's own courier (the rider's name and phone with "out for delivery"). */
    async addStaffEvent(shipmentId: string, input: StaffEvent, actorId: string | null): Promise<{ orderId: string; added: boolean }> {
      const row = await get(shipmentId);
      if (row.courier !== 'manual') throw new Invalid(message('shipment-not-manual'));
      if (row.status !== 'booked') throw new Conflict(message('shipment-not-found'));
      let riderPhone: string | null = null;
      if (input.riderPhone) {
        const phone = normalisePhone(input.riderPhone, marketOfOrder((await orderFacts(db, row.orderId))?.currency ?? '') === 'ZA' ? 'south_africa' : 'nigeria');
        if (!phone.ok) throw new Invalid(message('rider-phone-invalid'), { field: 'riderPhone' });
        riderPhone = phone.e164;
      }
      const event: TrackingEvent = {
        eventId: `staff:${randomUUID()}`,
        status: input.status,
        at: clock(),
        description: input.description,
        location: input.location || null,
        rider: input.riderName || riderPhone ? { name: input.riderName || null, phone: riderPhone } : null,
      };
      const added = await record(row, [event], actorId);
      return { orderId: row.orderId, added: added.length > 0 };
    },

    /** The label as a PDF, from the shipment's courier. */
    async label(shipmentId: string): Promise<{ pdf: Uint8Array; trackingNumber: string }> {
      const row = await get(shipmentId);
      const courier = courierNamed(row.courier);
      if (row.status !== 'booked' || !row.courierShipmentId || !courier) throw new NotFound(message('shipment-not-found'));
      return { pdf: await courier.label(row.courierShipmentId), trackingNumber: row.trackingNumber ?? row.id };
    },

    /** An order's shipments with their timelines, oldest first. */
    async forOrder(orderId: string): Promise<ShipmentView[]> {
      if (!UUID.test(orderId)) return [];
      const rows = await db.select().from(shipments).where(eq(shipments.orderId, orderId)).orderBy(asc(shipments.createdAt));
      if (rows.length === 0) return [];
      const events = await db
        .select()
        .from(shipmentEvents)
        .where(
          inArray(
            shipmentEvents.shipmentId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(asc(shipmentEvents.at), asc(shipmentEvents.id));
      return rows.map((r) => ({
        id: r.id,
        kind: r.kind,
        returnId: r.returnId,
        courier: r.courier,
        courierLabel: COURIER_LABELS[r.courier] ?? r.courier,
        status: r.status,
        trackingStatus: r.trackingStatus,
        trackingNumber: r.trackingNumber,
        trackingUrl: r.trackingUrl,
        lastError: r.lastError,
        attempts: r.attempts,
        nextAttemptAt: r.nextAttemptAt,
        retryable: r.status === 'failed' || (r.status === 'to_book' && r.attempts > 0),
        events: events
          .filter((e) => e.shipmentId === r.id)
          .map((e) => ({ status: e.status, at: e.at, description: e.description, location: e.location, riderName: e.riderName, riderPhone: e.riderPhone })),
      }));
    },
  };
}
export type Shipments = ReturnType<typeof createShipments>;
