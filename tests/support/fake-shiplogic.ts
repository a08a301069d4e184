/**
 * A local stand-in for ShipLogic's API (https://api.shiplogic.com, The Courier Guy's platform), with
 * the request and answer shapes of its API reference as ShipLogic's client libraries use them.
 * Every call needs `Authorization: Bearer <apiKey>`, or an AWS SigV4 signature with the account's
 * access key pair (region af-south-1, service execute-api; checked here from AWS's published
 * algorithm, and refused 403 when more than 5 minutes old, as API Gateway does); 401 otherwise.
 *   POST /rates {collection_address, delivery_address, parcels[], declared_value}
 *        -> {rates:[{rate, service_level:{code, name, delivery_date_from, delivery_date_to}}]}
 *        (400 {message} for an address without a city, zone or code; none served for code 9999)
 *   POST /shipments {collection_address, collection_contact, delivery_address, delivery_contact, parcels, service_level_code, customer_reference, …}
 *        -> {id, short_tracking_reference, custom_tracking_reference, status:'submitted', …}
 *   GET  /shipments?customer_reference=… | ?tracking_reference=… -> {shipments:[…]}
 *   POST /shipments/cancel {tracking_reference}: only before collection (submitted, collection-assigned); 400 after.
 *   GET  /tracking/shipments?tracking_reference=… -> {shipments:[{short_tracking_reference, status, tracking_events:[{id, date, status, message, location}] (newest first)}]}
 *   GET  /shipments/label?id=… -> {url}: a link to the label PDF (no key needed, as a signed storage link)
 * Tests move a parcel on with `advance`, take a signed tracking webhook with `webhook`
 * (x-shiplogic-signature: HMAC-SHA256 of the body keyed with the webhook secret, as ADR 0033 sets
 * out) and make the API fail with `behaviour.status`.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { FAKE_WAYBILL_PDF } from './fake-shipbubble';
import { send, readBody } from './fake-http';

export interface FakeShiplogicShipment {
  id: number;
  ref: string;
  customerReference: string;
  serviceLevel: string;
  status: string;
  events: { id: number; date: string; status: string; message: string; location: string | null }[];
  body: any;
}

export interface FakeShiplogic {
  baseUrl: string;
  apiKey: string;
  accessKeyId: string;
  secretAccessKey: string;
  webhookSecret: string;
  calls: { method: string; path: string; auth: string | null; body: any }[];
  shipments: Map<string, FakeShiplogicShipment>;
  behaviour: { status: number };
  advance(ref: string, status: string, message?: string, at?: Date): void;
  webhook(ref: string): { headers: Headers; body: string };
  close(): Promise<void>;
}

const day = 86_400_000;

/** Whether `req` carries a valid SigV4 signature by `secret` over its method, path, query, host, date and body. */
function sigV4Valid(req: IncomingMessage, body: string, accessKeyId: string, secret: string): 'ok' | 'stale' | 'bad' {
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(req.headers.authorization ?? '');
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  if (!m || m[1] !== accessKeyId || m[3] !== 'af-south-1' || m[4] !== 'execute-api' || !amzDate.startsWith(m[2]!)) return 'bad';
  const when = Date.parse(`${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`);
  const url = new URL(req.url ?? '/', 'http://fake');
  const enc = (v: string) => encodeURIComponent(v).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  const query = [...url.searchParams].map(([k, v]) => `${enc(k)}=${enc(v)}`).sort().join('&');
  const signed = m[5]!.split(';');
  const headers = signed.map((h) => `${h}:${String(req.headers[h] ?? '').trim()}\n`).join('');
  const hash = (d: string) => createHash('sha256').update(d).digest('hex');
  const canonical = `${req.method}\n${url.pathname}\n${query}\n${headers}\n${m[5]}\n${hash(body)}`;
  const scope = `${m[2]}/${m[3]}/${m[4]}/aws4_request`;
  let key: Buffer = createHmac('sha256', `AWS4${secret}`).update(m[2]!).digest();
  for (const part of [m[3]!, m[4]!, 'aws4_request']) key = createHmac('sha256', key).update(part).digest();
  const expected = createHmac('sha256', key).update(`AWS4-HMAC-SHA256\n${amzDate}\n${scope}\n${hash(canonical)}`).digest('hex');
  if (expected !== m[6] || !signed.includes('host')) return 'bad';
  return Math.abs(Date.now() - when) > 5 * 60_000 ? 'stale' : 'ok';
}

export async function startFakeShiplogic(apiKey = `sl_${randomBytes(12).toString('hex')}`, webhookSecret = randomBytes(16).toString('hex')): Promise<FakeShiplogic> {
  const accessKeyId = `AKIA${randomBytes(8).toString('hex').toUpperCase()}`;
  const secretAccessKey = randomBytes(20).toString('base64');
  const calls: FakeShiplogic['calls'] = [];
  const shipments = new Map<string, FakeShiplogicShipment>();
  const behaviour = { status: 200 };
  let nextId = 108_649;
  let nextEvent = 418_141;
  let baseUrl = '';

  const badAddress = (a: any) => !a || !a.street_address || !a.city || !a.zone || !a.code;
  const shipmentJson = (s: FakeShiplogicShipment) => ({
    id: s.id,
    short_tracking_reference: s.ref,
    custom_tracking_reference: `TCG${s.ref}`,
    customer_reference: s.customerReference,
    status: s.status,
    service_level_code: s.serviceLevel,
    time_created: s.events[0]!.date,
  });

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
    const labelFile = /^\/labels\/(\d+)\.pdf$/.exec(url.pathname);
    if (req.method === 'GET' && labelFile) {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      return res.end(FAKE_WAYBILL_PDF);
    }
    if (behaviour.status !== 200) return send(res, behaviour.status, { message: 'Internal server error' });
    if (auth?.startsWith('AWS4-HMAC-SHA256 ')) {
      const verdict = sigV4Valid(req, raw, accessKeyId, secretAccessKey);
      if (verdict === 'stale') return send(res, 403, { message: 'Signature expired' });
      if (verdict !== 'ok') return send(res, 401, { message: 'The request signature we calculated does not match the signature you provided.' });
    } else if (auth !== `Bearer ${apiKey}`) return send(res, 401, { message: 'Unauthorized' });

    if (req.method === 'POST' && url.pathname === '/rates') {
      if (badAddress(body?.collection_address) || badAddress(body?.delivery_address)) return send(res, 400, { message: 'address requires street_address, city, zone and code' });
      if (!Array.isArray(body?.parcels) || body.parcels.length === 0) return send(res, 400, { message: 'at least one parcel is required' });
      if (body.delivery_address.code === '9999') return send(res, 200, { rates: [] });
      const kg = body.parcels.reduce((n: number, p: any) => n + Number(p.submitted_weight_kg), 0);
      const now = Date.now();
      return send(res, 200, {
        rates: [
          { rate: 215 + kg * 20, service_level: { id: 23380, code: 'OVN', name: 'Overnight', delivery_date_from: new Date(now + day).toISOString(), delivery_date_to: new Date(now + day).toISOString() } },
          { rate: 92.5 + kg * 10, service_level: { id: 23365, code: 'ECO', name: 'Economy', delivery_date_from: new Date(now + 2 * day).toISOString(), delivery_date_to: new Date(now + 4 * day).toISOString() } },
        ],
      });
    }
    if (req.method === 'POST' && url.pathname === '/shipments') {
      if (badAddress(body?.collection_address) || badAddress(body?.delivery_address)) return send(res, 400, { message: 'address requires street_address, city, zone and code' });
      if (!['OVN', 'ECO'].includes(body?.service_level_code)) return send(res, 400, { message: 'invalid service level code' });
      if (!body?.delivery_contact?.mobile_number) return send(res, 400, { message: 'delivery contact requires a mobile number' });
      const ref = randomBytes(3).toString('hex').toUpperCase();
      const s: FakeShiplogicShipment = {
        id: nextId++,
        ref,
        customerReference: String(body.customer_reference ?? ''),
        serviceLevel: body.service_level_code,
        status: 'submitted',
        events: [{ id: nextEvent++, date: new Date().toISOString(), status: 'submitted', message: 'Shipment submitted', location: null }],
        body,
      };
      shipments.set(ref, s);
      return send(res, 200, { ...shipmentJson(s), rate: 92.5, parcels: [{ id: 181_100, tracking_reference: `${ref}/1` }] });
    }
    if (req.method === 'GET' && url.pathname === '/shipments') {
      const byCustomer = url.searchParams.get('customer_reference');
      const byRef = url.searchParams.get('tracking_reference');
      const list = [...shipments.values()].filter((s) => (byCustomer === null || s.customerReference === byCustomer) && (byRef === null || s.ref === byRef));
      return send(res, 200, { shipments: list.map(shipmentJson) });
    }
    if (req.method === 'POST' && url.pathname === '/shipments/cancel') {
      const s = shipments.get(String(body?.tracking_reference ?? ''));
      if (!s) return send(res, 404, { message: 'shipment not found' });
      if (!['submitted', 'collection-assigned'].includes(s.status)) return send(res, 400, { message: 'shipment cannot be cancelled after collection' });
      s.status = 'cancelled';
      s.events.push({ id: nextEvent++, date: new Date().toISOString(), status: 'cancelled', message: 'Shipment cancelled', location: null });
      return send(res, 200, shipmentJson(s));
    }
    if (req.method === 'GET' && url.pathname === '/tracking/shipments') {
      const s = shipments.get(url.searchParams.get('tracking_reference') ?? '');
      if (!s) return send(res, 404, { message: 'shipment not found' });
      return send(res, 200, { shipments: [{ shipment_id: s.id, short_tracking_reference: s.ref, status: s.status, tracking_events: [...s.events].reverse() }] });
    }
    if (req.method === 'GET' && url.pathname === '/shipments/label') {
      const s = [...shipments.values()].find((x) => String(x.id) === url.searchParams.get('id'));
      if (!s) return send(res, 404, { message: 'shipment not found' });
      return send(res, 200, { url: `${baseUrl}/labels/${s.id}.pdf` });
    }
    return send(res, 404, { message: 'Not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  baseUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;

  const mustGet = (ref: string) => {
    const s = shipments.get(ref);
    if (!s) throw new Error(`fake shiplogic: unknown shipment ${ref}`);
    return s;
  };
  return {
    baseUrl,
    apiKey,
    accessKeyId,
    secretAccessKey,
    webhookSecret,
    calls,
    shipments,
    behaviour,
    advance(ref, status, message = status, at = new Date()) {
      const s = mustGet(ref);
      s.status = status;
      s.events.push({ id: nextEvent++, date: at.toISOString(), status, message, location: 'JNB' });
    },
    webhook(ref) {
      const s = mustGet(ref);
      const body = JSON.stringify({
        shipment_id: s.id,
        short_tracking_reference: s.ref,
        custom_tracking_reference: `TCG${s.ref}`,
        status: s.status,
        event_time: s.events.at(-1)!.date,
        service_level_code: s.serviceLevel,
        tracking_events: [...s.events].reverse(),
      });
      return { headers: new Headers({ 'content-type': 'application/json', 'x-shiplogic-signature': createHmac('sha256', webhookSecret).update(body).digest('hex') }), body };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
