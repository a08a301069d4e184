import { STORE_NAME } from './brand';

/**
 * Delivery by courier, without I/O: what a shipment's booking and tracking statuses are, and how a
 * shopper reads them on the order's timeline.
 */

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
