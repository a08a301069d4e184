/**
 * A local stand-in for Shipbubble's API (https://api.shipbubble.com/v1, docs.shipbubble.com), with
 * the shapes of Shipbubble's own SDK's OpenAPI description. Every call needs `Authorization: Bearer
 * <apiKey>` (401 otherwise).
 *   POST /shipping/address/validate {name, email, phone, address}  -> {status:'success', data:{address_code, …}}
 *        (422 {status:'failed', message, errors[]} without a name, email, phone or address, or for an
 *        address containing "nowhere": a place no courier serves)
 *   POST /shipping/fetch_rates {sender_address_code, reciever_address_code, category_id, package_items, package_dimension, …}
 *        -> {status:'success', data:{request_token, couriers:[{courier_name, service_code, total, delivery_eta, …}], cheapest_courier, fastest_courier}}
 *   POST /shipping/labels {request_token, service_code} -> {status:'success', data:{order_id, status:'pending', tracking_url, courier:{tracking_code}, …}}
 *        A request token makes one label: asked again it is refused (422 "Request token has already been used").
 *   POST /shipping/labels/cancel/{order_id}: only before pickup (pending, confirmed); 400 after.
 *   GET  /shipping/labels/list/{order_id} -> {status:'success', data:{results:[{order_id, status, package_status[], courier, waybill_document, …}]}}
 *   GET  /waybills/{order_id}.pdf: the waybill (the document link, no key, as a storage link would be)
 * Tests move a parcel on with `advance`, take a signed webhook body with `webhook` (x-ship-signature:
 * HMAC-SHA512 of the body keyed with the API key), and make the API fail with `behaviour.status`.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { send, readBody } from './fake-http';

export interface FakeShipbubbleLabel {
  orderId: string;
  requestToken: string;
  serviceCode: string;
  status: string;
  trackingCode: string;
  history: { status: string; datetime: string }[];
  riderInfo: { name: string; phone: string } | null;
  shipTo: { name: string; phone: string; email: string; address: string };
}

export interface FakeShipbubble {
  baseUrl: string;
  apiKey: string;
  calls: { method: string; path: string; auth: string | null; body: any }[];
  labels: Map<string, FakeShipbubbleLabel>;
  /** Every answer is this HTTP status (500: Shipbubble is down) when not 200. */
  behaviour: { status: number };
  /** Moves a parcel on (Shipbubble's status codes: confirmed, picked_up, in_transit, completed, cancelled…). */
  advance(orderId: string, status: string, at?: Date, rider?: { name: string; phone: string }): void;
  /** The signed webhook Shipbubble sends for the parcel as it is now. */
  webhook(orderId: string, event?: string): { headers: Headers; body: string };
  close(): Promise<void>;
}

/** Shipbubble's display words for its status codes, as package_status lists them. */
const WORDS: Record<string, string> = {
  pending: 'Pending',
  confirmed: 'Confirmed',
  picked_up: 'Picked up',
  in_transit: 'In transit',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

/** A tiny but real PDF (one empty page). */
export const FAKE_WAYBILL_PDF = '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 288 432]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';

export async function startFakeShipbubble(apiKey = `sb_sandbox_${randomBytes(12).toString('hex')}`): Promise<FakeShipbubble> {
  const calls: FakeShipbubble['calls'] = [];
  const labels = new Map<string, FakeShipbubbleLabel>();
  const addresses = new Map<number, { name: string; phone: string; email: string; address: string }>();
  const tokens = new Map<string, { used: boolean; receiver: number; couriers: { service_code: string; courier_name: string; total: number }[] }>();
  const behaviour = { status: 200 };
  let baseUrl = '';

  const labelJson = (l: FakeShipbubbleLabel) => ({
    order_id: l.orderId,
    status: l.status,
    date: l.history.at(-1)!.datetime,
    courier: { name: 'Kwik', email: 'ops@kwik.example', phone: '08029274847', tracking_code: l.trackingCode, tracking_message: null, rider_info: l.riderInfo },
    ship_to: l.shipTo,
    package_status: l.history.map((h) => ({ status: WORDS[h.status] ?? h.status, datetime: h.datetime })),
    events: [],
    tracking_url: `${baseUrl}/orders/tracking/${l.orderId}`,
    waybill_document: `${baseUrl}/waybills/${l.orderId}.pdf`,
  });

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const raw = await readBody(req);
    let body: any = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      return send(res, 400, { status: 'failed', message: 'Invalid JSON' });
    }
    const auth = req.headers.authorization ?? null;
    calls.push({ method: req.method ?? 'GET', path: url.pathname, auth, body });
    const waybill = /^\/waybills\/([^/]+)\.pdf$/.exec(url.pathname);
    if (req.method === 'GET' && waybill) {
      if (!labels.has(decodeURIComponent(waybill[1]!))) return send(res, 404, { status: 'failed', message: 'Not found' });
      res.writeHead(200, { 'content-type': 'application/pdf' });
      return res.end(FAKE_WAYBILL_PDF);
    }
    if (behaviour.status !== 200) return send(res, behaviour.status, { status: 'failed', message: 'Service unavailable' });
    if (auth !== `Bearer ${apiKey}`) return send(res, 401, { status: 'failed', message: 'Unauthorized' });

    if (req.method === 'POST' && url.pathname === '/shipping/address/validate') {
      const errors = [
        !body?.name && 'Recipient full name is required',
        !/^[^@\s]+@[^@\s]+$/.test(String(body?.email ?? '')) && 'Recipient valid email address is required',
        !body?.phone && 'Recipient phone number is required',
        !body?.address && 'Recipient address is required',
      ].filter(Boolean);
      if (errors.length) return send(res, 422, { status: 'failed', message: 'Invalid request paramters', errors });
      if (/nowhere/i.test(body.address)) return send(res, 422, { status: 'failed', message: 'We could not validate this address' });
      const code = 10_000_000 + addresses.size + 1;
      addresses.set(code, { name: body.name, phone: body.phone, email: body.email, address: body.address });
      return send(res, 200, {
        status: 'success',
        message: 'Validation successful',
        data: { address_code: code, name: body.name, email: body.email, phone: body.phone, formatted_address: body.address, country: 'Nigeria', country_code: 'NG' },
      });
    }
    if (req.method === 'POST' && url.pathname === '/shipping/fetch_rates') {
      const sender = addresses.get(Number(body?.sender_address_code));
      const receiver = addresses.get(Number(body?.reciever_address_code));
      if (!sender || !receiver) return send(res, 422, { status: 'failed', message: 'Invalid address code' });
      if (!body?.category_id || !Array.isArray(body?.package_items) || !body?.package_dimension) return send(res, 422, { status: 'failed', message: 'Package details are required' });
      const kg = body.package_items.reduce((n: number, i: any) => n + Number(i.unit_weight) * Number(i.quantity ?? 1), 0);
      const couriers = [
        { courier_id: 'gig', courier_name: 'GIG Logistics', service_code: 'gig_standard', total: Math.round(2500 + kg * 400), delivery_eta: 'Between 2 - 4 business days', currency: 'NGN', service_type: 'pickup' },
        { courier_id: 'kwik', courier_name: 'Kwik', service_code: 'kwik_same_day', total: Math.round(4200 + kg * 600), delivery_eta: 'Within 24 hours', currency: 'NGN', service_type: 'pickup' },
      ];
      const token = randomBytes(32).toString('hex');
      tokens.set(token, { used: false, receiver: Number(body.reciever_address_code), couriers });
      return send(res, 200, { status: 'success', message: 'Retrieved successfully', data: { request_token: token, couriers, cheapest_courier: couriers[0], fastest_courier: couriers[1] } });
    }
    if (req.method === 'POST' && url.pathname === '/shipping/labels') {
      const t = tokens.get(String(body?.request_token ?? ''));
      if (!t) return send(res, 422, { status: 'failed', message: 'All delivery details are required', errors: ['Invalid request token'] });
      const courier = t.couriers.find((c) => c.service_code === body?.service_code);
      if (!courier) return send(res, 422, { status: 'failed', message: 'All delivery details are required', errors: ['Invalid courier service code'] });
      if (t.used) return send(res, 422, { status: 'failed', message: 'Request token has already been used' });
      t.used = true;
      const orderId = `SB-${randomBytes(6).toString('hex').toUpperCase()}`;
      const label: FakeShipbubbleLabel = {
        orderId,
        requestToken: body.request_token,
        serviceCode: courier.service_code,
        status: 'pending',
        trackingCode: randomBytes(5).toString('hex').toUpperCase(),
        history: [{ status: 'pending', datetime: new Date().toISOString() }],
        riderInfo: null,
        shipTo: addresses.get(t.receiver)!,
      };
      labels.set(orderId, label);
      const json = labelJson(label);
      return send(res, 200, { status: 'success', message: `Order succesfully routed to ${courier.courier_name}`, data: { ...json, payment: { shipping_fee: courier.total, currency: 'NGN', status: 'completed', type: 'wallet' } } });
    }
    const cancel = /^\/shipping\/labels\/cancel\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'POST' && cancel) {
      const l = labels.get(decodeURIComponent(cancel[1]!));
      if (!l) return send(res, 404, { status: 'failed', message: 'Shipment not found' });
      if (!['pending', 'confirmed'].includes(l.status)) return send(res, 400, { status: 'failed', message: 'Shipment can no longer be cancelled' });
      l.status = 'cancelled';
      l.history.push({ status: 'cancelled', datetime: new Date().toISOString() });
      return send(res, 200, { status: 'success', message: 'Shipment successfully cancelled' });
    }
    const list = /^\/shipping\/labels\/list\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && list) {
      const ids = decodeURIComponent(list[1]!).split(',').map((s) => s.trim());
      const results = ids.map((id) => labels.get(id)).filter((l): l is FakeShipbubbleLabel => !!l).map(labelJson);
      return send(res, 200, { status: 'success', message: 'Retrieved successfully', data: { results, pagination: { current: 1, perPage: 100, total: results.length } } });
    }
    return send(res, 404, { status: 'failed', message: 'Not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  baseUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;

  const mustGet = (orderId: string) => {
    const l = labels.get(orderId);
    if (!l) throw new Error(`fake shipbubble: unknown order ${orderId}`);
    return l;
  };
  return {
    baseUrl,
    apiKey,
    calls,
    labels,
    behaviour,
    advance(orderId, status, at = new Date(), rider) {
      const l = mustGet(orderId);
      l.status = status;
      l.history.push({ status, datetime: at.toISOString() });
      if (rider) l.riderInfo = rider;
    },
    webhook(orderId, event = 'shipment.status.changed') {
      const l = mustGet(orderId);
      const body = JSON.stringify({ event, ...labelJson(l) });
      const headers = new Headers({ 'content-type': 'application/json', 'x-ship-signature': createHmac('sha512', apiKey).update(body).digest('hex') });
      return { headers, body };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
