import { STORE_NAME } from './brand';

/**
 * Delivery by courier, without I/O: what a shipment's booking and tracking statuses are, and how a
 * shopper reads them on the order's timeline.
 */

/** The couriers the store books with (the courier port's adapters, chosen per market by configuration). */
export type CourierName = 'manual' | 'shipbubble' | 'shiplogic' | 'pudo';

/** An address as a courier needs it: who to call, where to go. */
export interface CourierAddress {
  name: string;
  /** E.164 (+2348031234567). */
  phone: string;
  email?: string | null;
  line1: string;
  line2?: string | null;
  city: string;
  /** State (NG) or province (ZA). */
  region: string;
  postalCode?: string | null;
  country: 'NG' | 'ZA';
  /** A landmark or directions for the rider. */
  landmark?: string | null;
}

/**
 * Where a shipment's booking is: waiting for the worker, booked with the courier, or given up (staff
 * look); once its order is cancelled, waiting to be cancelled with the courier, cancelled (or never
 * booked), or refused by the courier (staff look).
 */
export const SHIPMENT_STATUSES = ['to_book', 'booked', 'failed', 'to_cancel', 'cancelled', 'cancel_failed'] as const;
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];

/** An order's delivery, a return's collection, or an exchange's replacement going out to the shopper. */
export const SHIPMENT_KINDS = ['delivery', 'return', 'exchange'] as const;
export type ShipmentKind = (typeof SHIPMENT_KINDS)[number];

/** What happened to a parcel, as couriers report it (the courier port's TrackingStatus). */
export const TRACKING_STATUSES = ['booked', 'picked_up', 'in_transit', 'out_for_delivery', 'delivered', 'failed_attempt', 'returned', 'cancelled'] as const;
export type TrackingStatusCode = (typeof TRACKING_STATUSES)[number];

/** The timeline's words for each status. */
export const TRACKING_LABELS: Record<TrackingStatusCode, string> = {
  booked: 'Booked with the courier',
  picked_up: 'Picked up',
  in_transit: 'In transit',
  out_for_delivery: 'Out for delivery',
  delivered: 'Delivered',
  failed_attempt: 'Delivery attempt failed',
  returned: 'Returned to us',
  cancelled: 'Shipment cancelled',
};

/** A return's collection goes the other way (from the shopper to the store): the words that differ. */
const COLLECTION_LABELS: Partial<Record<TrackingStatusCode, string>> = {
  booked: 'Collection booked with the courier',
  picked_up: 'Collected from you',
  out_for_delivery: 'On its way to the store',
  delivered: 'Delivered to the store',
  failed_attempt: 'Collection attempt failed',
  returned: 'Brought back to you',
};

/** A status as the timeline of a parcel of this kind reads it. */
export function trackingLabel(kind: ShipmentKind, status: TrackingStatusCode): string {
  return (kind === 'return' ? COLLECTION_LABELS[status] : undefined) ?? TRACKING_LABELS[status];
}

/** The heading of a parcel's timeline: the order's delivery, a return's collection, an exchange's replacement. */
export const SHIPMENT_TITLES: Record<ShipmentKind, string> = {
  delivery: 'Delivery',
  return: 'Collection',
  exchange: 'Your new piece',
};

/** Statuses after which a parcel's tracking no longer changes (polling stops). */
export const FINAL_TRACKING: readonly TrackingStatusCode[] = ['delivered', 'returned', 'cancelled'];

/** Statuses staff may type for the store's own (manual) courier. */
export const MANUAL_EVENT_STATUSES = ['picked_up', 'in_transit', 'out_for_delivery', 'delivered', 'failed_attempt', 'returned'] as const satisfies readonly TrackingStatusCode[];

/** The courier's name as shoppers read it. */
export const COURIER_LABELS: Record<string, string> = {
  manual: `${STORE_NAME} delivery`,
  shipbubble: 'Shipbubble',
  shiplogic: 'The Courier Guy',
  pudo: 'PUDO',
};
