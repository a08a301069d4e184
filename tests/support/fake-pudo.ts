/**
 * A local stand-in for PUDO's API (https://api-pudo.co.za, The Courier Guy's lockers; ADR 0033 §7,
 * ADR 0048 for the shapes and what was assumed). Every call needs `Authorization: Bearer <apiKey>`
 * (401 otherwise), except the waybill, which takes the key in its query as PUDO's does:
 *   GET  /api/v1/lockers-data -> [{code, name, latitude, longitude, address, place:{town}, type:{name}}]
 *   POST /api/v1/rates {collection_address, delivery_address:{terminal_id}, parcels[]}
 *        -> {rates:[{rate, rate_excluding_vat, service_level:{code, name, box_type}}]} (the smallest box the parcel fits first;
 *        400 for a locker it does not know, none for a parcel too big for every box)
 *   POST /api/v1/shipments {collection_address, collection_contact, delivery_address:{terminal_id}, delivery_contact, service_level_code, customer_reference}
 *        -> {id, custom_tracking_reference, status:'submitted', pincode, …}
 *   GET  /api/v1/shipments?customer_reference=… -> [{id, custom_tracking_reference, customer_reference, status}]
 *   PUT  /api/v1/shipments/{id} {status:'cancelled'}: only before collection (submitted, collection-assigned); 400 after.
 *   GET  /api/v1/tracking/shipments?id=… -> {id, custom_tracking_reference, status, tracking_events:[{id, date, status, message, location}] (newest first)}
 *   GET  /generate/waybill/{id}?api_key=… -> the waybill PDF
 * Tests move a parcel on with `advance` and make the API fail with `behaviour.status`.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { FAKE_WAYBILL_PDF } from './fake-shipbubble';
import { send, readBody } from './fake-http';

export const FAKE_LOCKERS = [
  { code: 'CG54', name: 'Rosebank Mall', latitude: -26.1456, longitude: 28.0416, address: '50 Bath Ave, Rosebank', place: { town: 'Johannesburg' }, type: { name: 'Locker' } },
  { code: 'CG12', name: 'Sandton City', latitude: -26.1076, longitude: 28.0567, address: '83 Rivonia Rd, Sandhurst', place: { town: 'Johannesburg' }, type: { name: 'Locker' } },
  { code: 'CG77', name: 'Menlyn Maine Kiosk', latitude: -25.7836, longitude: 28.2772, address: 'Amarand Ave, Menlyn', place: { town: 'Pretoria' }, type: { name: 'Kiosk' } },
  { code: 'CG03', name: 'V&A Waterfront', latitude: -33.9036, longitude: 18.4208, address: '19 Dock Rd, Waterfront', place: { town: 'Cape Town' }, type: { name: 'Locker' } },
];

/** PUDO's locker boxes (cm, kg), as its door-to-locker service levels name them. */
const BOXES = [
  { box: 'XS', l: 60, w: 17, h: 8, kg: 2, rate: 59.9 },
  { box: 'S', l: 60, w: 41, h: 8, kg: 5, rate: 69.9 },
  { box: 'M', l: 60, w: 41, h: 19, kg: 10, rate: 89.9 },
  { box: 'L', l: 60, w: 41, h: 41, kg: 15, rate: 119.9 },
  { box: 'XL', l: 60, w: 41, h: 69, kg: 20, rate: 159.9 },
];

export interface FakePudoShipment {
  id: number;
  waybill: string;
  customerReference: string;
  serviceLevel: string;
  status: string;
  events: { id: number; date: string; status: string; message: string; location: string | null }[];
  body: any;
}

export interface FakePudo {
  baseUrl: string;
  apiKey: string;
  calls: { method: string; path: string; auth: string | null; body: any }[];
  /** By waybill (custom_tracking_reference). */
  shipments: Map<string, FakePudoShipment>;
  behaviour: { status: number };
  advance(waybill: string, status: string, message?: string, at?: Date): void;
  close(): Promise<void>;
}

const badDoor = (a: any) => !a || !a.street_address || !a.city || !a.zone || !a.code;

export async function startFakePudo(apiKey = `pudo_${randomBytes(12).toString('hex')}`): Promise<FakePudo> {
  const calls: FakePudo['calls'] = [];
  const shipments = new Map<string, FakePudoShipment>();
  const behaviour = { status: 200 };
  let nextId = 5_301;
  let nextEvent = 90_001;
  let nextWaybill = 570;

  const lockerKnown = (a: any) => FAKE_LOCKERS.some((l) => l.code === a?.terminal_id);
  const boxesFor = (parcels: any[]) => {
    const kg = parcels.reduce((n, p) => n + Number(p.submitted_weight_kg ?? 0), 0);
    const dims = parcels.map((p) => [Number(p.submitted_length_cm), Number(p.submitted_width_cm), Number(p.submitted_height_cm)].sort((a, b) => b - a));
    const height = dims.reduce((n, d) => n + d[2]!, 0);
    return BOXES.filter((b) => kg <= b.kg && dims.every((d) => d[0]! <= b.l && d[1]! <= b.w) && height <= b.h);
  };
  const shipmentJson = (s: FakePudoShipment) => ({ id: s.id, custom_tracking_reference: s.waybill, customer_reference: s.customerReference, status: s.status, service_level_code: s.serviceLevel });

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const raw = await readBody(req);
    let body: any = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      return send(res, 400, { message: 'invalid JSON' });
    }
    const auth = req.headers.authorization ?? null;
    calls.push({ method: req.method ?? 'GET', path: url.pathname + url.search, auth, body });
    if (behaviour.status !== 200) return send(res, behaviour.status, { message: 'Server Error' });
    const waybillFile = /^\/generate\/waybill\/(\d+)$/.exec(url.pathname);
    if (req.method === 'GET' && waybillFile) {
      if (url.searchParams.get('api_key') !== apiKey) return send(res, 401, { message: 'Unauthenticated.' });
      if (![...shipments.values()].some((s) => String(s.id) === waybillFile[1])) return send(res, 404, { message: 'Shipment not found' });
      res.writeHead(200, { 'content-type': 'application/pdf' });
      return res.end(FAKE_WAYBILL_PDF);
    }
    if (auth !== `Bearer ${apiKey}`) return send(res, 401, { message: 'Unauthenticated.' });

    if (req.method === 'GET' && url.pathname === '/api/v1/lockers-data') return send(res, 200, FAKE_LOCKERS);
    if (req.method === 'POST' && url.pathname === '/api/v1/rates') {
      if (badDoor(body?.collection_address)) return send(res, 400, { message: 'collection address requires street_address, city, zone and code' });
      if (!lockerKnown(body?.delivery_address)) return send(res, 400, { message: 'The selected terminal is invalid.' });
      const boxes = boxesFor(Array.isArray(body?.parcels) ? body.parcels : []);
      return send(res, 200, {
        rates: boxes.map((b) => ({ rate: b.rate, rate_excluding_vat: Math.round((b.rate / 1.15) * 100) / 100, service_level: { code: `D2L${b.box} - ECO`, name: `Door to Locker ${b.box}`, box_type: b.box } })),
      });
    }
    if (req.method === 'POST' && url.pathname === '/api/v1/shipments') {
      if (badDoor(body?.collection_address)) return send(res, 400, { message: 'collection address requires street_address, city, zone and code' });
      if (!lockerKnown(body?.delivery_address)) return send(res, 400, { message: 'The selected terminal is invalid.' });
      if (!/^D2L(XS|S|M|L|XL) - ECO$/.test(String(body?.service_level_code ?? ''))) return send(res, 400, { message: 'The selected service level code is invalid.' });
      if (!body?.delivery_contact?.mobile_number) return send(res, 400, { message: 'The delivery contact mobile number is required.' });
      const s: FakePudoShipment = {
        id: nextId++,
        waybill: `PUDOD${String(nextWaybill++).padStart(6, '0')}`,
        customerReference: String(body.customer_reference ?? ''),
        serviceLevel: body.service_level_code,
        status: 'submitted',
        events: [{ id: nextEvent++, date: new Date().toISOString(), status: 'submitted', message: 'Shipment submitted', location: null }],
        body,
      };
      shipments.set(s.waybill, s);
      return send(res, 200, { ...shipmentJson(s), pincode: '270089' });
    }
    if (req.method === 'GET' && url.pathname === '/api/v1/shipments') {
      const byCustomer = url.searchParams.get('customer_reference');
      return send(res, 200, [...shipments.values()].filter((s) => byCustomer === null || s.customerReference === byCustomer).map(shipmentJson));
    }
    const one = /^\/api\/v1\/shipments\/(\d+)$/.exec(url.pathname);
    if (req.method === 'PUT' && one) {
      const s = [...shipments.values()].find((x) => String(x.id) === one[1]);
      if (!s) return send(res, 404, { message: 'Shipment not found' });
      if (body?.status !== 'cancelled') return send(res, 422, { message: 'Only a cancellation is accepted here' });
      if (!['submitted', 'collection-assigned'].includes(s.status)) return send(res, 400, { message: `A shipment that is ${s.status} cannot be cancelled` });
      s.status = 'cancelled';
      s.events.push({ id: nextEvent++, date: new Date().toISOString(), status: 'cancelled', message: 'Shipment cancelled', location: null });
      return send(res, 200, shipmentJson(s));
    }
    if (req.method === 'GET' && url.pathname === '/api/v1/tracking/shipments') {
      const s = [...shipments.values()].find((x) => String(x.id) === url.searchParams.get('id'));
      if (!s) return send(res, 404, { message: 'Shipment not found' });
      return send(res, 200, { ...shipmentJson(s), tracking_events: [...s.events].reverse() });
    }
    return send(res, 404, { message: 'Not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  return {
    baseUrl: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`,
    apiKey,
    calls,
    shipments,
    behaviour,
    advance(waybill, status, message = status, at = new Date()) {
      const s = shipments.get(waybill);
      if (!s) throw new Error(`fake pudo: unknown shipment ${waybill}`);
      s.status = status;
      s.events.push({ id: nextEvent++, date: at.toISOString(), status, message, location: 'Rosebank Mall' });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
