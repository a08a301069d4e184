import { AppError } from '@/lib/domain/errors';
import { fill } from '@/lib/domain/messages';

/**
 * The courier port: the store books, tracks and cancels parcels through this, never through a
 * courier's API directly. One adapter per courier (manual, Shipbubble, ShipLogic), chosen per
 * market by configuration (COURIER_NG, COURIER_ZA); PUDO books the parcels going to its lockers.
 */

export type { CourierAddress, CourierName } from '@/lib/domain/delivery';
import type { CourierAddress, CourierName } from '@/lib/domain/delivery';

/** One parcel: sizes come from the category's parcel size (configuration), value from the order. */
export interface Parcel {
  weightGrams: number;
  lengthCm: number;
  widthCm: number;
  heightCm: number;
  /** Declared value in minor units of `currency`. */
  valueMinor: number;
  currency: 'NGN' | 'ZAR';
  description: string;
}

/** A price a courier offers for a parcel. */
export interface Quote {
  /** The courier's own handle for this rate (Shipbubble's request_token, ShipLogic's service level code). */
  rateRef: string;
  /** The courier's service name as a shopper may read it ("The Courier Guy Economy"). */
  service: string;
  feeMinor: number;
  currency: 'NGN' | 'ZAR';
  minDays: number;
  maxDays: number;
}

export interface BookingInput {
  /**
   * The store's key for this booking (the shipment row's id): asked twice with the same key, an
   * adapter answers the first booking, never a second parcel.
   */
  key: string;
  /** The order's reference as the shopper and staff see it (printed on the label). */
  orderReference: string;
  kind: 'delivery' | 'return';
  from: CourierAddress;
  to: CourierAddress;
  parcel: Parcel;
  /** A rate from `quote`, when the courier needs one to book (Shipbubble); otherwise the adapter quotes. */
  rateRef?: string | null;
  /** Money the rider collects at the door (pay on delivery), minor units; 0 or absent when nothing. */
  collectMinor?: number;
  /**
   * A courier's locker the parcel goes to (a PUDO locker's code); `to` is then the locker's
   * address with the shopper to tell. Null or absent: to the door.
   */
  locker?: { network: 'pudo'; id: string } | null;
}

export interface Booking {
  /** The courier's id for the shipment (what cancel, track and label take). */
  shipmentId: string;
  trackingNumber: string;
  /** Where the shopper follows the parcel on the courier's own site; null when the courier has none. */
  trackingUrl: string | null;
  /** Where the label (PDF) is fetched from, when the courier gives a link rather than bytes. */
  labelUrl: string | null;
}

export type TrackingStatus =
  | 'booked'
  | 'picked_up'
  | 'in_transit'
  | 'out_for_delivery'
  | 'delivered'
  | 'failed_attempt'
  | 'returned'
  | 'cancelled';

export interface TrackingEvent {
  /** The courier's id for this event (or a hash of its content when it gives none): replays carry the same one. */
  eventId: string;
  status: TrackingStatus;
  at: Date;
  /** The courier's own words ("Arrived at Ikeja hub"). */
  description: string;
  location?: string | null;
  /** Given by some couriers when the parcel is out for delivery. */
  rider?: { name: string | null; phone: string | null } | null;
}

export interface WebhookUpdate {
  shipmentId: string | null;
  trackingNumber: string | null;
  events: TrackingEvent[];
  /** A well-signed event of a kind the store does not use: its kind, for the log; nothing is recorded. */
  ignored?: string;
}

export interface Courier {
  readonly name: CourierName;
  /** Rates for a parcel from where the courier collects to `to` (or to the courier's locker there), cheapest first. */
  quote(from: CourierAddress, to: CourierAddress, parcel: Parcel, locker?: BookingInput['locker']): Promise<Quote[]>;
  /**
   * Books a shipment. Idempotent on `input.key`. Throws CourierRefused when the courier answers
   * no (a bad address, no rate), AppError 'unavailable' when it cannot be reached (the booking may
   * or may not exist then: asking again with the same key is safe).
   */
  book(input: BookingInput): Promise<Booking>;
  /** Cancels a booked shipment that has not been picked up. */
  cancel(shipmentId: string): Promise<void>;
  /** Every event so far, oldest first (the poll for couriers without webhooks, and a check). */
  track(shipmentId: string): Promise<TrackingEvent[]>;
  /** The label as a PDF. */
  label(shipmentId: string): Promise<Uint8Array>;
  /**
   * Reads a tracking webhook: checks its signature against the raw body and throws
   * WebhookRejected when it does not match. Replays are the caller's concern (eventId).
   */
  parseWebhook(headers: Headers, rawBody: string): WebhookUpdate;
}

/** The courier answered and said no: trying again with the same input will not help. */
export class CourierRefused extends AppError {
  constructor(reason: string) {
    super('invalid', fill('courier-refused', reason));
  }
}

/** A webhook whose signature does not match, or whose body cannot be read. */
export class WebhookRejected extends AppError {
  constructor(reason: string) {
    super('unauthorized', fill('courier-webhook-rejected', reason));
  }
}
