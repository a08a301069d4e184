import { z } from 'zod';
import { courierHttp, contentId, hmacHex, memoryBookingMemo, sameHex, signedWebhookJson, webhookKind, type BookingMemo } from './courier-http';
import { CourierRefused, WebhookRejected, type Booking, type Courier, type CourierAddress, type Parcel, type Quote, type TrackingEvent, type TrackingStatus } from './port';
import { fill, message } from '@/lib/domain/messages';

/**
 * Shipbubble (Nigeria), https://api.shipbubble.com/v1 with the account's API key as a Bearer token
 * (docs.shipbubble.com; shapes as in Shipbubble's own SDK's OpenAPI description):
 *   POST /shipping/address/validate {name, email, phone, address}        -> data.address_code
 *   POST /shipping/fetch_rates {sender_address_code, reciever_address_code, pickup_date,
 *        category_id, package_items[], package_dimension, delivery_instructions}
 *                                                                       -> data.request_token, data.couriers[]
 *   POST /shipping/labels {request_token, service_code}                 -> data.order_id, tracking_url, courier.tracking_code
 *   POST /shipping/labels/cancel/{order_id}
 *   GET  /shipping/labels/list/{order_id}                               -> data.results[0] (status, package_status[], waybill_document)
 * Webhooks carry x-ship-signature: HMAC-SHA512 of the raw body keyed with the API key (ADR 0033).
 *
 * A rate's reference is "<request_token>|<service_code>": a label is made from exactly that rate,
 * and Shipbubble ties one request token to one rate request, so a retried booking that reuses the
 * stored rate cannot route a second parcel (see ADR 0033 for the idempotency approach).
 */

export interface ShipbubbleOptions {
  apiKey: string;
  /** Defaults to the API key, which is what Shipbubble signs webhooks with. */
  webhookSecret?: string | null;
  baseUrl: string;
  /** Shipbubble's label category for the store's goods (GET /shipping/labels/categories: "Fashion wears"). */
  categoryId: number;
  memo?: BookingMemo;
  fetch?: typeof fetch;
  timeoutMs?: number;
  clock?: () => Date;
}

const envelope = z.object({ status: z.string().optional(), message: z.string().optional() }).loose();
const validateResponse = envelope.extend({ data: z.object({ address_code: z.union([z.number(), z.string()]) }).loose() });
const courierRate = z
  .object({
    courier_name: z.string(),
    service_code: z.string(),
    total: z.coerce.number(),
    currency: z.string().optional(),
    delivery_eta: z.string().nullish(),
  })
  .loose();
const ratesResponse = envelope.extend({ data: z.object({ request_token: z.string(), couriers: z.array(courierRate) }).loose() });
const labelResponse = envelope.extend({
  data: z
    .object({
      order_id: z.string(),
      tracking_url: z.string().nullish(),
      courier: z.object({ tracking_code: z.string().nullish() }).loose().nullish(),
    })
    .loose(),
});
const riderInfo = z.object({ name: z.string().nullish(), phone: z.string().nullish() }).loose().nullish();
const packageStatus = z.object({ status: z.string(), datetime: z.string() }).loose();
const label = z
  .object({
    order_id: z.string(),
    status: z.string().nullish(),
    tracking_url: z.string().nullish(),
    waybill_document: z.string().nullish(),
    package_status: z.array(packageStatus).nullish(),
    courier: z.object({ tracking_code: z.string().nullish(), rider_info: riderInfo }).loose().nullish(),
    rider_info: riderInfo,
  })
  .loose();
const listResponse = envelope.extend({ data: z.object({ results: z.array(label) }).loose() });
const webhookBody = label.extend({ event: z.string(), date: z.string().nullish() });

/**
 * Shipbubble's statuses (pending, confirmed, picked_up, in_transit, completed, cancelled, as its
 * webhook simulator lists them, in its two spellings: "picked_up" and "Picked up") as ours.
 */
export function shipbubbleStatus(raw: string): TrackingStatus | null {
  const s = raw.trim().toLowerCase().replace(/[\s-]+/g, '_');
  switch (s) {
    case 'pending':
    case 'confirmed':
      return 'booked';
    case 'picked_up':
      return 'picked_up';
    case 'in_transit':
      return 'in_transit';
    case 'out_for_delivery':
      return 'out_for_delivery';
    case 'completed':
    case 'delivered':
      return 'delivered';
    case 'failed':
    case 'failed_delivery':
    case 'failed_attempt':
      return 'failed_attempt';
    case 'returned':
      return 'returned';
    case 'cancelled':
    case 'canceled':
      return 'cancelled';
    default:
      return null;
  }
}

/** Shipbubble's delivery_eta words ("Within 24 hours", "Between 5 - 7 business days", "Same day delivery") as days. */
export function etaDays(eta: string | null | undefined): { minDays: number; maxDays: number } {
  const text = (eta ?? '').toLowerCase();
  if (text.includes('same day')) return { minDays: 0, maxDays: 0 };
  const numbers = [...text.matchAll(/\d+/g)].map((m) => Number(m[0]));
  if (numbers.length === 0) return { minDays: 1, maxDays: 7 };
  const inDays = numbers.map((n) => (text.includes('hour') ? Math.max(1, Math.ceil(n / 24)) : n));
  return { minDays: Math.min(...inDays), maxDays: Math.max(...inDays) };
}

function oneLine(a: CourierAddress): string {
  return [a.line1, a.line2, a.city, a.region, a.postalCode, 'Nigeria'].filter((p) => p && p.trim()).join(', ');
}

export function createShipbubbleCourier(opts: ShipbubbleOptions): Courier {
  const http = courierHttp({ baseUrl: opts.baseUrl, headers: () => ({ authorization: `Bearer ${opts.apiKey}` }), fetch: opts.fetch, timeoutMs: opts.timeoutMs });
  const memo = opts.memo ?? memoryBookingMemo();
  const clock = opts.clock ?? (() => new Date());
  const webhookKey = opts.webhookSecret || opts.apiKey;
  /** Address codes by the address as sent: the store's pickup address is validated once per process. */
  const codes = new Map<string, number>();

  function parsed<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
    const r = schema.safeParse(body);
    if (!r.success) throw new CourierRefused(fill('courier-answer-shape', 'Shipbubble', what));
    return r.data;
  }

  async function addressCode(a: CourierAddress): Promise<number> {
    const request = { name: a.name, email: a.email ?? '', phone: a.phone, address: oneLine(a) };
    const memoKey = JSON.stringify(request);
    const known = codes.get(memoKey);
    if (known !== undefined) return known;
    const body = parsed(validateResponse, await http.json('POST', '/shipping/address/validate', request), 'the address check');
    const code = Number(body.data.address_code);
    codes.set(memoKey, code);
    return code;
  }

  async function rates(from: CourierAddress, to: CourierAddress, parcel: Parcel, instructions: string | null): Promise<{ token: string; quotes: Quote[] }> {
    const [sender, receiver] = [await addressCode(from), await addressCode(to)];
    const pickupDate = clock().toISOString().slice(0, 10);
    const body = parsed(
      ratesResponse,
      await http.json('POST', '/shipping/fetch_rates', {
        sender_address_code: sender,
        reciever_address_code: receiver,
        pickup_date: pickupDate,
        category_id: opts.categoryId,
        package_items: [{ name: parcel.description, description: parcel.description, unit_weight: parcel.weightGrams / 1000, unit_amount: parcel.valueMinor / 100, quantity: 1 }],
        package_dimension: { length: parcel.lengthCm, width: parcel.widthCm, height: parcel.heightCm },
        ...(instructions ? { delivery_instructions: instructions } : {}),
      }),
      'the rates',
    );
    const quotes = body.data.couriers
      .map((c) => ({
        rateRef: `${body.data.request_token}|${c.service_code}`,
        service: c.courier_name,
        feeMinor: Math.round(c.total * 100),
        currency: 'NGN' as const,
        ...etaDays(c.delivery_eta),
      }))
      .sort((a, b) => a.feeMinor - b.feeMinor);
    return { token: body.data.request_token, quotes };
  }

  async function labelOf(orderId: string) {
    const body = parsed(listResponse, await http.json('GET', `/shipping/labels/list/${encodeURIComponent(orderId)}`), 'the shipment');
    const found = body.data.results.find((r) => r.order_id === orderId);
    if (!found) throw new CourierRefused(fill('courier-shipment-unknown', 'Shipbubble', orderId));
    return found;
  }

  function eventsOf(l: z.infer<typeof label>): TrackingEvent[] {
    const rider = l.courier?.rider_info ?? l.rider_info ?? null;
    const events: TrackingEvent[] = [];
    for (const p of l.package_status ?? []) {
      const status = shipbubbleStatus(p.status);
      if (!status) continue;
      const at = new Date(p.datetime);
      if (Number.isNaN(at.getTime())) continue;
      events.push({ eventId: contentId('shipbubble', l.order_id, status, at.toISOString()), status, at, description: p.status });
    }
    events.sort((a, b) => a.at.getTime() - b.at.getTime());
    // Shipbubble names the rider on the shipment, not on an event: the rider is the latest leg's.
    const last = events.at(-1);
    if (last && rider && (rider.name || rider.phone) && (last.status === 'out_for_delivery' || last.status === 'in_transit')) {
      last.rider = { name: rider.name ?? null, phone: rider.phone ?? null };
    }
    return events;
  }

  return {
    name: 'shipbubble',
    async quote(from, to, parcel) {
      return (await rates(from, to, parcel, to.landmark ?? null)).quotes;
    },
    async book(input): Promise<Booking> {
      const remembered = await memo.get(input.key);
      if (remembered) return remembered;
      let rateRef = input.rateRef ?? null;
      if (!rateRef) {
        const cheapest = (await rates(input.from, input.to, input.parcel, input.to.landmark ?? null)).quotes[0];
        if (!cheapest) throw new CourierRefused(message('shipbubble-no-courier'));
        rateRef = cheapest.rateRef;
      }
      const [requestToken, serviceCode] = rateRef.split('|');
      if (!requestToken || !serviceCode) throw new CourierRefused(message('shipbubble-rate-foreign'));
      const body = parsed(labelResponse, await http.json('POST', '/shipping/labels', { request_token: requestToken, service_code: serviceCode }), 'the label');
      const d = body.data;
      const booking: Booking = {
        shipmentId: d.order_id,
        trackingNumber: d.courier?.tracking_code || d.order_id,
        trackingUrl: d.tracking_url ?? null,
        labelUrl: null,
      };
      await memo.put(input.key, booking);
      return booking;
    },
    async cancel(shipmentId) {
      await http.json('POST', `/shipping/labels/cancel/${encodeURIComponent(shipmentId)}`);
    },
    async track(shipmentId) {
      return eventsOf(await labelOf(shipmentId));
    },
    async label(shipmentId) {
      const l = await labelOf(shipmentId);
      if (!l.waybill_document) throw new CourierRefused(message('shipbubble-no-waybill'));
      return http.bytes(l.waybill_document);
    },
    parseWebhook(headers, rawBody) {
      const signature = headers.get('x-ship-signature');
      // Shipbubble's page names SHA512 (and, in one revision, SHA256): the length says which.
      const algorithm = signature?.length === 64 ? 'sha256' : 'sha512';
      if (!sameHex(signature, hmacHex(algorithm, webhookKey, rawBody))) throw new WebhookRejected(fill('courier-signature-mismatch', 'x-ship-signature'));
      const json = signedWebhookJson(rawBody);
      const parsed = webhookBody.safeParse(json);
      // Well signed but not a shipment's event (a wallet top-up, a kind added later): acknowledged, so it is not sent again.
      if (!parsed.success) return { shipmentId: null, trackingNumber: null, events: [], ignored: webhookKind(json) };
      const l = parsed.data;
      const events = eventsOf(l);
      // A status the history does not list yet (shipment.status.changed before package_status
      // catches up) still counts, stamped with the event's date.
      const now = shipbubbleStatus(l.status ?? '');
      const dated = l.date ? new Date(l.date) : null;
      if (now && !events.some((e) => e.status === now) && dated && !Number.isNaN(dated.getTime())) {
        events.push({ eventId: contentId('shipbubble', l.order_id, now, dated.toISOString()), status: now, at: dated, description: l.status ?? now });
      }
      return { shipmentId: l.order_id, trackingNumber: l.courier?.tracking_code ?? null, events };
    },
  };
}
