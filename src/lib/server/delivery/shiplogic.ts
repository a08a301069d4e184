import { z } from 'zod';
import { courierHttp, daysUntil, hmacHex, memoryBookingMemo, sameHex, webhookJson, type BookingMemo } from './courier-http';
import { sigV4Headers, type SigV4Credentials } from './sigv4';
import { CourierRefused, WebhookRejected, type Booking, type Courier, type CourierAddress, type Parcel, type TrackingEvent, type TrackingStatus } from './port';
import { fill, message } from '@/lib/domain/messages';

/**
 * ShipLogic (South Africa: The Courier Guy's platform), https://api.shiplogic.com, with the
 * account's API key as a Bearer token, or for accounts that have only the original credentials, an
 * AWS access key pair signing each request (SigV4, `sigv4.ts`; ADR 0033):
 *   POST /rates {collection_address, delivery_address, parcels[], declared_value}  -> rates[{rate, service_level{code,name,delivery_date_from,delivery_date_to}}]
 *   POST /shipments {… service_level_code, customer_reference}                      -> {id, short_tracking_reference, …}
 *   GET  /shipments?customer_reference=…                                            -> {shipments:[…]}
 *   POST /shipments/cancel {tracking_reference}
 *   GET  /tracking/shipments?tracking_reference=…                                   -> {shipments:[{tracking_events[]}]}
 *   GET  /shipments/label?id=…                                                      -> {url} (a signed PDF link)
 * The store's key is part of customer_reference ("<order reference>/<key>"), so a retried booking
 * finds the parcel it made before asking for another one, even after a crash mid-booking.
 */

export interface ShiplogicOptions {
  /** A Bearer API key, or SigV4 credentials (region af-south-1, service execute-api unless told). */
  auth: { apiKey: string } | SigV4Credentials;
  /** Signs tracking webhooks (x-shiplogic-signature, HMAC-SHA256 of the body, hex; ADR 0033). */
  webhookSecret: string | null;
  baseUrl: string;
  /** Where a shopper follows a parcel; {ref} is the tracking reference. */
  trackingUrl: string;
  memo?: BookingMemo;
  fetch?: typeof fetch;
  timeoutMs?: number;
  clock?: () => Date;
}

const rate = z
  .object({
    rate: z.coerce.number(),
    service_level: z.object({ code: z.string(), name: z.string(), delivery_date_from: z.string().nullish(), delivery_date_to: z.string().nullish() }).loose(),
  })
  .loose();
const ratesResponse = z.object({ rates: z.array(rate) }).loose();
const shipment = z.object({ id: z.coerce.number(), short_tracking_reference: z.string(), custom_tracking_reference: z.string().nullish(), customer_reference: z.string().nullish() }).loose();
const shipmentsResponse = z.object({ shipments: z.array(shipment) }).loose();
const trackingEvent = z.object({ id: z.coerce.number(), date: z.string(), status: z.string(), message: z.string().nullish(), location: z.string().nullish() }).loose();
const trackingResponse = z
  .object({ shipments: z.array(z.object({ short_tracking_reference: z.string().nullish(), tracking_events: z.array(trackingEvent).nullish() }).loose()) })
  .loose();
const labelResponse = z.object({ url: z.string() }).loose();
const webhookBody = z
  .object({
    shipment_id: z.coerce.number().nullish(),
    short_tracking_reference: z.string().nullish(),
    custom_tracking_reference: z.string().nullish(),
    status: z.string().nullish(),
    event_time: z.string().nullish(),
    tracking_events: z.array(trackingEvent).nullish(),
  })
  .loose();

const STATUS: Record<string, TrackingStatus> = {
  submitted: 'booked',
  'collection-assigned': 'booked',
  'collection-unassigned': 'booked',
  'awaiting-dropoff': 'booked',
  collected: 'picked_up',
  'at-hub': 'in_transit',
  'on-hold': 'in_transit',
  manifested: 'in_transit',
  'ready-for-dispatch': 'in_transit',
  'in-transit': 'in_transit',
  'at-destination-hub': 'in_transit',
  'returned-to-hub': 'in_transit',
  'delivery-assigned': 'in_transit',
  'delivery-unassigned': 'in_transit',
  'in-locker': 'in_transit',
  'ready-for-pickup': 'in_transit',
  'out-for-delivery': 'out_for_delivery',
  delivered: 'delivered',
  'collected-from-locker': 'delivered',
  'collected-from-counter': 'delivered',
  'delivery-failed-attempt': 'failed_attempt',
  'delivery-exception': 'failed_attempt',
  'delivery-rejected': 'failed_attempt',
  undeliverable: 'failed_attempt',
  'collection-failed-attempt': 'failed_attempt',
  'collection-exception': 'failed_attempt',
  'collection-rejected': 'failed_attempt',
  'returned-to-sender': 'returned',
  cancelled: 'cancelled',
};

/** ShipLogic's status as ours; its internal ones (on-hold-internal, floor-check, swad-…) are not the shopper's: null. */
export function shiplogicStatus(raw: string): TrackingStatus | null {
  return STATUS[raw.trim().toLowerCase()] ?? null;
}

function address(a: CourierAddress) {
  return {
    type: 'residential',
    company: '',
    street_address: [a.line1, a.line2].filter((p) => p && p.trim()).join(', '),
    local_area: a.landmark ?? '',
    city: a.city,
    zone: a.region,
    country: 'ZA',
    code: a.postalCode ?? '',
  };
}

function contact(a: CourierAddress) {
  return { name: a.name, mobile_number: a.phone, email: a.email ?? '' };
}

function parcels(p: Parcel) {
  return [
    {
      parcel_description: p.description,
      submitted_length_cm: p.lengthCm,
      submitted_width_cm: p.widthCm,
      submitted_height_cm: p.heightCm,
      submitted_weight_kg: p.weightGrams / 1000,
    },
  ];
}

export function createShiplogicCourier(opts: ShiplogicOptions): Courier {
  const clock = opts.clock ?? (() => new Date());
  const auth = opts.auth;
  const http = courierHttp({
    baseUrl: opts.baseUrl,
    headers: (request) => ('apiKey' in auth ? { authorization: `Bearer ${auth.apiKey}` } : sigV4Headers(auth, request, clock())),
    fetch: opts.fetch,
    timeoutMs: opts.timeoutMs,
  });
  const memo = opts.memo ?? memoryBookingMemo();

  function parsed<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
    const r = schema.safeParse(body);
    if (!r.success) throw new CourierRefused(fill('courier-answer-shape', 'ShipLogic', what));
    return r.data;
  }

  const bookingOf = (s: z.infer<typeof shipment>): Booking => ({
    shipmentId: s.short_tracking_reference,
    trackingNumber: s.short_tracking_reference,
    trackingUrl: opts.trackingUrl.replace('{ref}', encodeURIComponent(s.short_tracking_reference)),
    labelUrl: null,
  });

  function eventOf(e: z.infer<typeof trackingEvent>): TrackingEvent | null {
    const status = shiplogicStatus(e.status);
    const at = new Date(e.date);
    if (!status || Number.isNaN(at.getTime())) return null;
    return { eventId: `shiplogic:${e.id}`, status, at, description: e.message || e.status, location: e.location ?? null };
  }

  /** Oldest first; ShipLogic's event ids grow, so they order events stamped in the same instant. */
  const seq = (e: TrackingEvent) => Number(e.eventId.slice('shiplogic:'.length));
  const oldestFirst = (events: (TrackingEvent | null)[]) =>
    events.filter((e): e is TrackingEvent => e !== null).sort((a, b) => a.at.getTime() - b.at.getTime() || seq(a) - seq(b));

  async function shipmentByRef(ref: string) {
    const body = parsed(shipmentsResponse, await http.json('GET', `/shipments?tracking_reference=${encodeURIComponent(ref)}`), 'the shipment');
    const found = body.shipments.find((s) => s.short_tracking_reference === ref || s.custom_tracking_reference === ref);
    if (!found) throw new CourierRefused(fill('courier-shipment-unknown', 'ShipLogic', ref));
    return found;
  }

  return {
    name: 'shiplogic',
    async quote(from, to, parcel) {
      const body = parsed(
        ratesResponse,
        await http.json('POST', '/rates', { collection_address: address(from), delivery_address: address(to), parcels: parcels(parcel), declared_value: parcel.valueMinor / 100 }),
        'the rates',
      );
      const now = clock();
      return body.rates
        .map((r) => {
          const minDays = daysUntil(now, r.service_level.delivery_date_from) ?? 1;
          return {
            rateRef: r.service_level.code,
            service: `The Courier Guy ${r.service_level.name}`,
            feeMinor: Math.round(r.rate * 100),
            currency: 'ZAR' as const,
            minDays,
            maxDays: Math.max(minDays, daysUntil(now, r.service_level.delivery_date_to) ?? minDays),
          };
        })
        .sort((a, b) => a.feeMinor - b.feeMinor);
    },
    async book(input): Promise<Booking> {
      const remembered = await memo.get(input.key);
      if (remembered) return remembered;
      const reference = `${input.orderReference}/${input.key}`;
      const existing = parsed(shipmentsResponse, await http.json('GET', `/shipments?customer_reference=${encodeURIComponent(reference)}`), 'the shipments').shipments.find(
        (s) => s.customer_reference === reference,
      );
      if (existing) {
        const booking = bookingOf(existing);
        await memo.put(input.key, booking);
        return booking;
      }
      let serviceLevel = input.rateRef ?? null;
      if (!serviceLevel) {
        const cheapest = (await this.quote(input.from, input.to, input.parcel))[0];
        if (!cheapest) throw new CourierRefused(message('shiplogic-no-service-level'));
        serviceLevel = cheapest.rateRef;
      }
      const created = parsed(
        shipment,
        await http.json('POST', '/shipments', {
          collection_address: address(input.from),
          collection_contact: contact(input.from),
          delivery_address: address(input.to),
          delivery_contact: contact(input.to),
          parcels: parcels(input.parcel),
          service_level_code: serviceLevel,
          customer_reference: reference,
          declared_value: input.parcel.valueMinor / 100,
          special_instructions_delivery: input.to.landmark ?? '',
          mute_notifications: false,
        }),
        'the booking',
      );
      const booking = bookingOf(created);
      await memo.put(input.key, booking);
      return booking;
    },
    async cancel(shipmentId) {
      await http.json('POST', '/shipments/cancel', { tracking_reference: shipmentId });
    },
    async track(shipmentId) {
      const body = parsed(trackingResponse, await http.json('GET', `/tracking/shipments?tracking_reference=${encodeURIComponent(shipmentId)}`), 'the tracking');
      const found = body.shipments[0];
      if (!found) throw new CourierRefused(fill('courier-shipment-unknown', 'ShipLogic', shipmentId));
      return oldestFirst((found.tracking_events ?? []).map(eventOf));
    },
    async label(shipmentId) {
      const { id } = await shipmentByRef(shipmentId);
      const body = parsed(labelResponse, await http.json('GET', `/shipments/label?id=${id}`), 'the label');
      return http.bytes(body.url);
    },
    parseWebhook(headers, rawBody) {
      if (!opts.webhookSecret) throw new WebhookRejected(message('shiplogic-webhook-secret-missing'));
      if (!sameHex(headers.get('x-shiplogic-signature'), hmacHex('sha256', opts.webhookSecret, rawBody))) throw new WebhookRejected(fill('courier-signature-mismatch', 'x-shiplogic-signature'));
      const b = webhookJson(rawBody, webhookBody, 'a ShipLogic tracking event');
      return {
        shipmentId: b.short_tracking_reference ?? null,
        trackingNumber: b.short_tracking_reference ?? null,
        events: oldestFirst((b.tracking_events ?? []).map(eventOf)),
      };
    },
  };
}
