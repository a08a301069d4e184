import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@/lib/domain/errors';
import { createShiplogicCourier, shiplogicStatus } from '@/lib/server/delivery/shiplogic';
import { CourierRefused, WebhookRejected, type BookingInput, type CourierAddress, type Parcel } from '@/lib/server/delivery/port';
import { startFakeShiplogic, type FakeShiplogic } from '../support/fake-shiplogic';

const store: CourierAddress = { name: 'Maison Luxe Rosebank', phone: '+27110000000', email: 'dispatch@maisonluxe.example', line1: '16 Viljoen Street', city: 'Johannesburg', region: 'GP', postalCode: '2094', country: 'ZA' };
const shopper: CourierAddress = { name: 'Thandi Mokoena', phone: '+27821234567', email: 'thandi@example.com', line1: '10 Midas Avenue', line2: 'Unit 4', city: 'Pretoria', region: 'GP', postalCode: '0081', country: 'ZA', landmark: 'Olympus AH' };
const parcel: Parcel = { weightGrams: 1200, lengthCm: 40, widthCm: 30, heightCm: 10, valueMinor: 8_950_00, currency: 'ZAR', description: 'Silk Midi Dress' };

const rejection = (p: Promise<unknown>) => p.then(() => null, (err: unknown) => err);

describe('the ShipLogic courier (The Courier Guy, against a local fake of its API)', () => {
  let fake: FakeShiplogic;
  beforeAll(async () => {
    fake = await startFakeShiplogic();
  });
  afterAll(async () => {
    await fake?.close();
  });
  const courier = (over: Partial<Parameters<typeof createShiplogicCourier>[0]> = {}) =>
    createShiplogicCourier({ auth: { apiKey: fake.apiKey }, webhookSecret: fake.webhookSecret, baseUrl: fake.baseUrl, trackingUrl: 'https://portal.thecourierguy.co.za/track?ref={ref}', ...over });
  const input = (key: string, over: Partial<BookingInput> = {}): BookingInput => ({ key, orderReference: 'ML-2001', kind: 'delivery', from: store, to: shopper, parcel, ...over });

  it('quotes each service level cheapest first, in cents, with days from its delivery dates', async () => {
    const quotes = await courier().quote(store, shopper, parcel);
    expect(quotes).toEqual([
      { rateRef: 'ECO', service: 'The Courier Guy Economy', feeMinor: 104_50, currency: 'ZAR', minDays: 2, maxDays: 4 },
      { rateRef: 'OVN', service: 'The Courier Guy Overnight', feeMinor: 239_00, currency: 'ZAR', minDays: 1, maxDays: 1 },
    ]);
    const call = fake.calls.filter((c) => c.path === '/rates').at(-1)!;
    expect(call.auth).toBe(`Bearer ${fake.apiKey}`);
    expect(call.body).toMatchObject({
      collection_address: { street_address: '16 Viljoen Street', city: 'Johannesburg', zone: 'GP', code: '2094', country: 'ZA' },
      delivery_address: { street_address: '10 Midas Avenue, Unit 4', local_area: 'Olympus AH', city: 'Pretoria', zone: 'GP', code: '0081' },
      parcels: [{ submitted_length_cm: 40, submitted_width_cm: 30, submitted_height_cm: 10, submitted_weight_kg: 1.2 }],
      declared_value: 8950,
    });
  });

  it('books with the chosen service level; the same key twice makes one parcel, even from a restarted server', async () => {
    const first = await courier().book(input('ship-1', { rateRef: 'OVN' }));
    expect(first.shipmentId).toMatch(/^[0-9A-F]{6}$/);
    expect(first).toMatchObject({ trackingNumber: first.shipmentId, trackingUrl: `https://portal.thecourierguy.co.za/track?ref=${first.shipmentId}` });
    const made = fake.shipments.get(first.shipmentId)!;
    expect(made).toMatchObject({ serviceLevel: 'OVN', customerReference: 'ML-2001/ship-1' });
    expect(made.body).toMatchObject({ delivery_contact: { name: 'Thandi Mokoena', mobile_number: '+27821234567', email: 'thandi@example.com' }, collection_contact: { name: 'Maison Luxe Rosebank' } });
    const count = fake.shipments.size;
    const c = courier();
    expect(await c.book(input('ship-1', { rateRef: 'OVN' }))).toEqual(first);
    expect(await c.book(input('ship-1', { rateRef: 'OVN' }))).toEqual(first);
    expect(fake.shipments.size).toBe(count);
    // Another key for the same order (a return) is another parcel.
    const other = await c.book(input('ship-1-return', { kind: 'return', from: shopper, to: store }));
    expect(other.shipmentId).not.toBe(first.shipmentId);
    expect(fake.shipments.get(other.shipmentId)!.serviceLevel).toBe('ECO');
  });

  it('cancels before collection; after collection the refusal is the courier\'s', async () => {
    const c = courier();
    const a = await c.book(input('ship-2'));
    await c.cancel(a.shipmentId);
    expect((await c.track(a.shipmentId)).map((e) => e.status)).toEqual(['booked', 'cancelled']);
    const b = await c.book(input('ship-3'));
    fake.advance(b.shipmentId, 'collected');
    const refused = await rejection(c.cancel(b.shipmentId));
    expect(refused).toBeInstanceOf(CourierRefused);
    expect((refused as Error).message).toBe('The courier refused: shipment cannot be cancelled after collection');
  });

  it('tracks every event oldest first as ours, leaving out the courier\'s internal ones, and fetches the label PDF', async () => {
    const c = courier();
    const b = await c.book(input('ship-4'));
    const t0 = Date.now();
    fake.advance(b.shipmentId, 'collected', 'Collected from sender', new Date(t0 + 1000));
    fake.advance(b.shipmentId, 'at-hub', 'At JNB hub', new Date(t0 + 2000));
    fake.advance(b.shipmentId, 'floor-check', 'Floor check', new Date(t0 + 2500));
    fake.advance(b.shipmentId, 'out-for-delivery', 'Out for delivery', new Date(t0 + 3000));
    fake.advance(b.shipmentId, 'delivery-failed-attempt', 'Nobody home', new Date(t0 + 4000));
    fake.advance(b.shipmentId, 'delivered', 'Delivered', new Date(t0 + 5000));
    const events = await c.track(b.shipmentId);
    expect(events.map((e) => e.status)).toEqual(['booked', 'picked_up', 'in_transit', 'out_for_delivery', 'failed_attempt', 'delivered']);
    expect(events[2]).toMatchObject({ description: 'At JNB hub', location: 'JNB' });
    expect(events.every((e) => /^shiplogic:\d+$/.test(e.eventId))).toBe(true);
    const pdf = await c.label(b.shipmentId);
    expect(new TextDecoder().decode(pdf.slice(0, 5))).toBe('%PDF-');
  });

  it('signs every request with AWS SigV4 when the account has an access key pair instead of an API key', async () => {
    const sigv4 = { accessKeyId: fake.accessKeyId, secretAccessKey: fake.secretAccessKey, region: 'af-south-1', service: 'execute-api' };
    const c = courier({ auth: sigv4 });
    // A GET with a query, a POST with a body, and a path-only GET.
    const quotes = await c.quote(store, shopper, parcel);
    const booking = await c.book(input('ship-sigv4', { rateRef: quotes[0]!.rateRef }));
    expect((await c.track(booking.shipmentId)).map((e) => e.status)).toEqual(['booked']);
    expect(fake.calls.at(-1)!.auth).toMatch(new RegExp(`^AWS4-HMAC-SHA256 Credential=${fake.accessKeyId}/\\d{8}/af-south-1/execute-api/aws4_request, SignedHeaders=host;x-amz-date, Signature=[0-9a-f]{64}$`));
    const wrongSecret = await rejection(courier({ auth: { ...sigv4, secretAccessKey: 'not-the-secret' } }).track(booking.shipmentId));
    expect((wrongSecret as AppError).code).toBe('unavailable');
    // A clock ten minutes off signs requests the gateway calls expired.
    const stale = await rejection(courier({ auth: sigv4, clock: () => new Date(Date.now() - 10 * 60_000) }).track(booking.shipmentId));
    expect((stale as AppError).code).toBe('unavailable');
  });

  it('maps ShipLogic statuses', () => {
    expect(shiplogicStatus('returned-to-sender')).toBe('returned');
    expect(shiplogicStatus('collected-from-locker')).toBe('delivered');
    expect(shiplogicStatus('swad-dimensions')).toBeNull();
  });

  it('reads a signed tracking webhook; a replay gives the same event ids; bad signatures and no secret are rejected', async () => {
    const c = courier();
    const b = await c.book(input('ship-5'));
    fake.advance(b.shipmentId, 'collected');
    const hook = fake.webhook(b.shipmentId);
    const update = c.parseWebhook(hook.headers, hook.body);
    expect(update).toMatchObject({ shipmentId: b.shipmentId, trackingNumber: b.shipmentId });
    expect(update.events.map((e) => e.status)).toEqual(['booked', 'picked_up']);
    expect(update.events.map((e) => e.eventId)).toEqual((await c.track(b.shipmentId)).map((e) => e.eventId));
    expect(c.parseWebhook(hook.headers, hook.body).events.map((e) => e.eventId)).toEqual(update.events.map((e) => e.eventId));
    expect(() => c.parseWebhook(hook.headers, hook.body.replace('"collected"', '"delivered"'))).toThrow(WebhookRejected);
    expect(() => c.parseWebhook(new Headers(), hook.body)).toThrow(WebhookRejected);
    expect(() => courier({ webhookSecret: null }).parseWebhook(hook.headers, hook.body)).toThrow(/SHIPLOGIC_WEBHOOK_SECRET/);
  });

  it('refuses what the courier refuses (CourierRefused) and is unavailable when ShipLogic is down or unreachable', async () => {
    const noCode = await rejection(courier().quote(store, { ...shopper, postalCode: null }, parcel));
    expect(noCode).toBeInstanceOf(CourierRefused);
    expect((noCode as Error).message).toMatch(/street_address, city, zone and code/);
    const unserved = await rejection(courier().book(input('ship-6', { to: { ...shopper, postalCode: '9999' } })));
    expect(unserved).toBeInstanceOf(CourierRefused);
    fake.behaviour.status = 502;
    try {
      const down = await rejection(courier().book(input('ship-7')));
      expect((down as AppError).code).toBe('unavailable');
      expect(down).not.toBeInstanceOf(CourierRefused);
    } finally {
      fake.behaviour.status = 200;
    }
    const unreachable = await rejection(courier({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 2000 }).track('ABC123'));
    expect((unreachable as AppError).code).toBe('unavailable');
  });
});
