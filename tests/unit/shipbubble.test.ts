import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@/lib/domain/errors';
import { createShipbubbleCourier, etaDays } from '@/lib/server/delivery/shipbubble';
import { CourierRefused, WebhookRejected, type BookingInput, type CourierAddress, type Parcel } from '@/lib/server/delivery/port';
import { startFakeShipbubble, type FakeShipbubble } from '../support/fake-shipbubble';

const store: CourierAddress = { name: 'Maison Luxe', phone: '+2348030000000', email: 'dispatch@maisonluxe.example', line1: '15 Babatunde Jose St', line2: 'Victoria Island', city: 'Lagos', region: 'Lagos', country: 'NG' };
const shopper: CourierAddress = { name: 'Adaeze Okafor', phone: '+2348031234567', email: 'ada@example.com', line1: '4 Michael Olawale-Cole Dr', city: 'Lekki', region: 'Lagos', country: 'NG', landmark: 'Blue gate opposite the pharmacy' };
const parcel: Parcel = { weightGrams: 2000, lengthCm: 45, widthCm: 35, heightCm: 20, valueMinor: 145_000_00, currency: 'NGN', description: 'Quilted Lambskin Tote' };

const rejection = (p: Promise<unknown>) => p.then(() => null, (err: unknown) => err);

describe('the Shipbubble courier (against a local fake of its API)', () => {
  let fake: FakeShipbubble;
  beforeAll(async () => {
    fake = await startFakeShipbubble();
  });
  afterAll(async () => {
    await fake?.close();
  });
  const courier = (over: Partial<Parameters<typeof createShipbubbleCourier>[0]> = {}) =>
    createShipbubbleCourier({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, categoryId: 98246239, ...over });
  const input = (key: string, over: Partial<BookingInput> = {}): BookingInput => ({ key, orderReference: 'ML-1001', kind: 'delivery', from: store, to: shopper, parcel, ...over });

  it('validates both addresses, then quotes each courier cheapest first in kobo with days from its ETA', async () => {
    const quotes = await courier().quote(store, shopper, parcel);
    expect(quotes.map((q) => q.service)).toEqual(['GIG Logistics', 'Kwik']);
    expect(quotes[0]).toMatchObject({ feeMinor: 3300_00, currency: 'NGN', minDays: 2, maxDays: 4 });
    expect(quotes[1]).toMatchObject({ feeMinor: 5400_00, minDays: 1, maxDays: 1 });
    expect(quotes[0]!.rateRef).toMatch(/^[0-9a-f]{64}\|gig_standard$/);
    const validate = fake.calls.filter((c) => c.path === '/shipping/address/validate');
    expect(validate.at(-1)!.body).toEqual({ name: 'Adaeze Okafor', email: 'ada@example.com', phone: '+2348031234567', address: '4 Michael Olawale-Cole Dr, Lekki, Lagos, Nigeria' });
    expect(validate.every((c) => c.auth === `Bearer ${fake.apiKey}`)).toBe(true);
    const rates = fake.calls.filter((c) => c.path === '/shipping/fetch_rates').at(-1)!.body;
    expect(rates).toMatchObject({ category_id: 98246239, package_dimension: { length: 45, width: 35, height: 20 }, delivery_instructions: 'Blue gate opposite the pharmacy' });
    expect(rates.package_items).toEqual([{ name: 'Quilted Lambskin Tote', description: 'Quilted Lambskin Tote', unit_weight: 2, unit_amount: 145_000, quantity: 1 }]);
  });

  it('reads ETA words as days', () => {
    expect(etaDays('Between 5 - 7 business days')).toEqual({ minDays: 5, maxDays: 7 });
    expect(etaDays('Within 24 hours')).toEqual({ minDays: 1, maxDays: 1 });
    expect(etaDays('Same day delivery')).toEqual({ minDays: 0, maxDays: 0 });
    expect(etaDays(null)).toEqual({ minDays: 1, maxDays: 7 });
  });

  it('books a label from the chosen rate, and the same key twice makes one parcel', async () => {
    const c = courier();
    const [, kwik] = await c.quote(store, shopper, parcel);
    const before = fake.labels.size;
    const first = await c.book(input('shipment-1', { rateRef: kwik!.rateRef }));
    expect(first.shipmentId).toMatch(/^SB-[0-9A-F]{12}$/);
    expect(first.trackingNumber).toBe(fake.labels.get(first.shipmentId)!.trackingCode);
    expect(first.trackingUrl).toBe(`${fake.baseUrl}/orders/tracking/${first.shipmentId}`);
    expect(fake.labels.get(first.shipmentId)!.serviceCode).toBe('kwik_same_day');
    expect(await c.book(input('shipment-1', { rateRef: kwik!.rateRef }))).toEqual(first);
    expect(fake.labels.size).toBe(before + 1);
  });

  it('never routes a second parcel from one stored rate, even when the process that booked it is gone', async () => {
    const [rate] = await courier().quote(store, shopper, parcel);
    const first = await courier().book(input('shipment-2', { rateRef: rate!.rateRef }));
    const count = fake.labels.size;
    // A fresh adapter (a restarted server) has no memo: Shipbubble itself refuses the used token.
    const again = await rejection(courier().book(input('shipment-2', { rateRef: rate!.rateRef })));
    expect(again).toBeInstanceOf(CourierRefused);
    expect((again as Error).message).toMatch(/already been used/);
    expect(fake.labels.size).toBe(count);
    expect(first.shipmentId).toBeTruthy();
  });

  it('quotes for itself when booked without a rate, taking the cheapest', async () => {
    const booking = await courier().book(input('shipment-3'));
    expect(fake.labels.get(booking.shipmentId)!.serviceCode).toBe('gig_standard');
  });

  it('cancels before pickup; after pickup the refusal is the courier\'s', async () => {
    const c = courier();
    const a = await c.book(input('shipment-4'));
    await c.cancel(a.shipmentId);
    expect((await c.track(a.shipmentId)).at(-1)!.status).toBe('cancelled');
    const b = await c.book(input('shipment-5'));
    fake.advance(b.shipmentId, 'picked_up');
    const refused = await rejection(c.cancel(b.shipmentId));
    expect(refused).toBeInstanceOf(CourierRefused);
    expect((refused as Error).message).toBe('The courier refused: Shipment can no longer be cancelled');
  });

  it('tracks every status so far, oldest first, as ours, with the rider on the latest leg, and fetches the waybill PDF', async () => {
    const c = courier();
    const b = await c.book(input('shipment-6'));
    const t0 = Date.now();
    fake.advance(b.shipmentId, 'confirmed', new Date(t0 + 1000));
    fake.advance(b.shipmentId, 'picked_up', new Date(t0 + 2000));
    fake.advance(b.shipmentId, 'in_transit', new Date(t0 + 3000), { name: 'Tunde Bakare', phone: '+2348091112222' });
    const events = await c.track(b.shipmentId);
    expect(events.map((e) => e.status)).toEqual(['booked', 'booked', 'picked_up', 'in_transit']);
    expect(events.map((e) => e.description)).toEqual(['Pending', 'Confirmed', 'Picked up', 'In transit']);
    expect(events.at(-1)!.rider).toEqual({ name: 'Tunde Bakare', phone: '+2348091112222' });
    expect(new Set(events.map((e) => e.eventId)).size).toBe(4);
    fake.advance(b.shipmentId, 'completed', new Date(t0 + 4000));
    expect((await c.track(b.shipmentId)).at(-1)).toMatchObject({ status: 'delivered', at: new Date(t0 + 4000) });
    const pdf = await c.label(b.shipmentId);
    expect(new TextDecoder().decode(pdf.slice(0, 5))).toBe('%PDF-');
  });

  it('reads a signed webhook; a replayed body gives the same event ids; a bad or missing signature is rejected', async () => {
    const c = courier();
    const b = await c.book(input('shipment-7'));
    fake.advance(b.shipmentId, 'picked_up');
    const hook = fake.webhook(b.shipmentId);
    const update = c.parseWebhook(hook.headers, hook.body);
    expect(update).toMatchObject({ shipmentId: b.shipmentId, trackingNumber: b.trackingNumber });
    expect(update.events.map((e) => e.status)).toEqual(['booked', 'picked_up']);
    // The same events as a poll would read.
    expect(update.events.map((e) => e.eventId)).toEqual((await c.track(b.shipmentId)).map((e) => e.eventId));
    const replay = c.parseWebhook(new Headers(hook.headers), hook.body);
    expect(replay.events.map((e) => e.eventId)).toEqual(update.events.map((e) => e.eventId));

    const tampered = hook.body.replace('"picked_up"', '"completed"');
    expect(() => c.parseWebhook(hook.headers, tampered)).toThrow(WebhookRejected);
    expect(() => c.parseWebhook(new Headers(), hook.body)).toThrow(WebhookRejected);
    // Signed with another account's key.
    const other = courier({ apiKey: 'sb_live_someone_else' });
    expect(() => other.parseWebhook(hook.headers, hook.body)).toThrow(/x-ship-signature does not match/);
  });

  it('a well-signed body that is not JSON is bad input (400); a well-signed event of a kind the store does not use is ignored; unsigned stays rejected', () => {
    const c = courier();
    const signed = (body: string) => new Headers({ 'content-type': 'application/json', 'x-ship-signature': createHmac('sha512', fake.apiKey).update(body).digest('hex') });
    const garbled = 'not json {';
    const refused = (() => {
      try {
        c.parseWebhook(signed(garbled), garbled);
        return null;
      } catch (err) {
        return err;
      }
    })();
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).not.toBeInstanceOf(WebhookRejected);
    expect(refused).toMatchObject({ code: 'invalid' });
    const wallet = JSON.stringify({ event: 'wallet.funded', data: { amount: 5000 } });
    expect(c.parseWebhook(signed(wallet), wallet)).toEqual({ shipmentId: null, trackingNumber: null, events: [], ignored: 'wallet.funded' });
    const nothing = JSON.stringify([1, 2]);
    expect(c.parseWebhook(signed(nothing), nothing)).toMatchObject({ events: [], ignored: 'unknown' });
    expect(() => c.parseWebhook(new Headers(), wallet)).toThrow(WebhookRejected);
    expect(() => c.parseWebhook(new Headers(), garbled)).toThrow(WebhookRejected);
  });

  it('refuses an address no courier serves (CourierRefused) and is unavailable when Shipbubble is down or unreachable', async () => {
    const nowhere = await rejection(courier().quote(store, { ...shopper, line1: 'Nowhere Close' }, parcel));
    expect(nowhere).toBeInstanceOf(CourierRefused);
    expect((nowhere as Error).message).toMatch(/could not validate this address/);
    fake.behaviour.status = 503;
    try {
      const down = await rejection(courier().book(input('shipment-8')));
      expect(down).toBeInstanceOf(AppError);
      expect((down as AppError).code).toBe('unavailable');
      expect(down).not.toBeInstanceOf(CourierRefused);
    } finally {
      fake.behaviour.status = 200;
    }
    const unreachable = await rejection(courier({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 2000 }).track('SB-1'));
    expect((unreachable as AppError).code).toBe('unavailable');
    const wrongKey = await rejection(courier({ apiKey: 'nope' }).track('SB-1'));
    expect((wrongKey as AppError).code).toBe('unavailable');
  });
});
