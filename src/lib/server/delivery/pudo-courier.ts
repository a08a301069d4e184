import { z } from 'zod';
import { courierHttp, memoryBookingMemo, type BookingMemo } from './courier-http';
import { CourierRefused, WebhookRejected, type Booking, type BookingInput, type Courier, type CourierAddress, type Parcel, type TrackingEvent, type TrackingStatus } from './port';
import { fill, message } from '@/lib/domain/messages';

/**
 * PUDO as a courier (ADR 0048): a parcel to a locker is booked with PUDO itself, door (the store's
 * pickup address) to locker, on the account's API key (`Authorization: Bearer <key>`):
 *   POST /api/v1/rates {collection_address, delivery_address:{terminal_id}, parcels[]}  -> {rates:[{rate, service_level{code,name}}]}
 *   POST /api/v1/shipments {… delivery_address:{terminal_id}, service_level_code, customer_reference}  -> {id, custom_tracking_reference, status}
 *   GET  /api/v1/shipments?customer_reference=…                        -> [{id, custom_tracking_reference, customer_reference}]
 *   PUT  /api/v1/shipments/{id} {status:'cancelled'}
 *   GET  /api/v1/tracking/shipments?id=…                               -> {status, tracking_events[{id, date, status, message, location}]}
 *   GET  /generate/waybill/{id}?api_key=…                              -> the waybill PDF (the key in the query, as PUDO's link takes it)
 * PUDO documents no tracking webhook: its parcels are polled (the shipments worker's pollDue).
 * The store's key is part of customer_reference ("<order reference>/<key>"), so a retried booking
 * finds the parcel it made before asking for another one.
 */

export interface PudoCourierOptions {
  apiKey: string;
  baseUrl: string;
  /** Where a shopper follows a parcel ({ref}: the waybill); null: no link, the store's timeline only. */
  trackingUrl: string | null;
  memo?: BookingMemo;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

const rate = z.object({ rate: z.coerce.number(), service_level: z.object({ code: z.string(), name: z.string() }).loose() }).loose();
const ratesResponse = z.object({ rates: z.array(rate) }).loose();
const shipment = z.object({ id: z.coerce.number(), custom_tracking_reference: z.string(), customer_reference: z.string().nullish() }).loose();
const trackingEvent = z.object({ id: z.coerce.number(), date: z.string(), status: z.string(), message: z.string().nullish(), location: z.string().nullish() }).loose();
const trackingResponse = z.object({ tracking_events: z.array(trackingEvent).nullish() }).loose();
const labelLink = z.object({ url: z.string() }).loose();

/** PUDO's statuses (its documented vocabulary) as ours; its own bookkeeping ones (quote-pending…) are not the shopper's: null. */
const STATUS: Record<string, TrackingStatus> = {
  submitted: 'booked',
  'collection-assigned': 'booked',
  'collection-unassigned': 'booked',
  'deposit-pending': 'booked',
  'customer-deposited': 'picked_up',
  'courier-collected': 'picked_up',
  collected: 'picked_up',
  'at-hub': 'in_transit',
  'in-transit': 'in_transit',
  'at-destination-hub': 'in_transit',
  'delivery-assigned': 'in_transit',
  'returned-to-hub': 'in_transit',
  // In the locker and waiting for the shopper's code: not delivered until collected.
  'in-locker': 'out_for_delivery',
  'ready-for-collection': 'out_for_delivery',
  'out-for-delivery': 'out_for_delivery',
  'customer-collected': 'delivered',
  'collected-by-recipient': 'delivered',
  delivered: 'delivered',
  'delivery-failed-attempt': 'failed_attempt',
  'delivery-exception': 'failed_attempt',
  'collection-failed': 'failed_attempt',
  'collection-exception': 'failed_attempt',
  'returned-to-sender': 'returned',
  cancelled: 'cancelled',
  'cancel-booking-expired': 'cancelled',
};

export function pudoStatus(raw: string): TrackingStatus | null {
  return STATUS[raw.trim().toLowerCase()] ?? null;
}

function door(a: CourierAddress) {
  return {
    type: 'business',
    company: a.name,
    street_address: [a.line1, a.line2].filter((p) => p && p.trim()).join(', '),
    local_area: a.landmark ?? '',
    city: a.city,
    zone: a.region,
    country: 'ZA',
    code: a.postalCode ?? '',
  };
}

const contact = (a: CourierAddress) => ({ name: a.name, mobile_number: a.phone, email: a.email ?? '' });

function parcels(p: Parcel) {
  return [{ parcel_description: p.description, submitted_length_cm: p.lengthCm, submitted_width_cm: p.widthCm, submitted_height_cm: p.heightCm, submitted_weight_kg: p.weightGrams / 1000 }];
}

/** The locker a booking goes to: PUDO books only to its own lockers, from the store's door. */
function lockerOf(input: Pick<BookingInput, 'kind' | 'locker' | 'collectMinor'>): string {
  if (input.kind !== 'delivery' || input.locker?.network !== 'pudo') throw new CourierRefused(message('pudo-lockers-only'));
  // A locker hands a parcel over for a code; nobody is there to take money.
  if ((input.collectMinor ?? 0) > 0) throw new CourierRefused(message('pudo-no-cash'));
  return input.locker.id;
}

export function createPudoCourier(opts: PudoCourierOptions): Courier {
  const http = courierHttp({ baseUrl: opts.baseUrl, headers: () => ({ authorization: `Bearer ${opts.apiKey}` }), fetch: opts.fetch, timeoutMs: opts.timeoutMs });
  const memo = opts.memo ?? memoryBookingMemo();
  const base = opts.baseUrl.replace(/\/+$/, '');

  function parsed<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
    const r = schema.safeParse(body);
    if (!r.success) throw new CourierRefused(fill('courier-answer-shape', 'PUDO', what));
    return r.data;
  }

  const bookingOf = (s: z.infer<typeof shipment>): Booking => ({
    shipmentId: String(s.id),
    trackingNumber: s.custom_tracking_reference,
    trackingUrl: opts.trackingUrl ? opts.trackingUrl.replace('{ref}', encodeURIComponent(s.custom_tracking_reference)) : null,
    labelUrl: null,
  });

  function eventOf(e: z.infer<typeof trackingEvent>): TrackingEvent | null {
    const status = pudoStatus(e.status);
    const at = new Date(e.date);
    if (!status || Number.isNaN(at.getTime())) return null;
    return { eventId: `pudo:${e.id}`, status, at, description: e.message || e.status, location: e.location ?? null };
  }

  async function rates(from: CourierAddress, locker: string, parcel: Parcel) {
    const body = parsed(ratesResponse, await http.json('POST', '/api/v1/rates', { collection_address: door(from), delivery_address: { terminal_id: locker }, parcels: parcels(parcel) }), 'the rates');
    return body.rates
      .map((r) => ({ rateRef: r.service_level.code, service: `PUDO ${r.service_level.name}`, feeMinor: Math.round(r.rate * 100), currency: 'ZAR' as const, minDays: 2, maxDays: 5 }))
      .sort((a, b) => a.feeMinor - b.feeMinor);
  }

  return {
    name: 'pudo',
    async quote(from, _to, parcel, locker) {
      if (locker?.network !== 'pudo') throw new CourierRefused(message('pudo-quotes-lockers-only'));
      return rates(from, locker.id, parcel);
    },
    async book(input): Promise<Booking> {
      const remembered = await memo.get(input.key);
      if (remembered) return remembered;
      const locker = lockerOf(input);
      const reference = `${input.orderReference}/${input.key}`;
      const found = parsed(z.array(shipment), await http.json('GET', `/api/v1/shipments?customer_reference=${encodeURIComponent(reference)}`), 'the shipments').find(
        (s) => s.customer_reference === reference,
      );
      if (found) {
        const booking = bookingOf(found);
        await memo.put(input.key, booking);
        return booking;
      }
      const serviceLevel = input.rateRef ?? (await rates(input.from, locker, input.parcel))[0]?.rateRef;
      if (!serviceLevel) throw new CourierRefused(message('pudo-no-box'));
      const created = parsed(
        shipment,
        await http.json('POST', '/api/v1/shipments', {
          collection_address: door(input.from),
          collection_contact: contact(input.from),
          delivery_address: { terminal_id: locker },
          delivery_contact: contact(input.to),
          parcels: parcels(input.parcel),
          service_level_code: serviceLevel,
          customer_reference: reference,
          special_instructions_collection: `Order ${input.orderReference}`,
        }),
        'the booking',
      );
      const booking = bookingOf(created);
      await memo.put(input.key, booking);
      return booking;
    },
    async cancel(shipmentId) {
      await http.json('PUT', `/api/v1/shipments/${encodeURIComponent(shipmentId)}`, { status: 'cancelled' });
    },
    async track(shipmentId) {
      const body = parsed(trackingResponse, await http.json('GET', `/api/v1/tracking/shipments?id=${encodeURIComponent(shipmentId)}`), 'the tracking');
      const seq = (e: TrackingEvent) => Number(e.eventId.slice('pudo:'.length));
      return (body.tracking_events ?? [])
        .map(eventOf)
        .filter((e): e is TrackingEvent => e !== null)
        .sort((a, b) => a.at.getTime() - b.at.getTime() || seq(a) - seq(b));
    },
    async label(shipmentId) {
      // The link carries the key: it is fetched here and never shown or logged.
      const bytes = await http.bytes(`${base}/generate/waybill/${encodeURIComponent(shipmentId)}?api_key=${encodeURIComponent(opts.apiKey)}`);
      if (new TextDecoder().decode(bytes.subarray(0, 5)) === '%PDF-') return bytes;
      // Some accounts answer a signed link to the PDF instead of the PDF.
      let link: unknown = null;
      try {
        link = JSON.parse(new TextDecoder().decode(bytes));
      } catch {
        throw new CourierRefused(fill('courier-answer-shape', 'PUDO', 'the waybill'));
      }
      return http.bytes(parsed(labelLink, link, 'the waybill').url);
    },
    parseWebhook() {
      throw new WebhookRejected(message('pudo-no-webhooks'));
    },
  };
}
