import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '@/lib/domain/errors';
import { createPudoCourier, pudoStatus } from '@/lib/server/delivery/pudo-courier';
import { CourierRefused, WebhookRejected, type BookingInput, type CourierAddress, type Parcel } from '@/lib/server/delivery/port';
import { startFakePudo, type FakePudo } from '../support/fake-pudo';

const store: CourierAddress = { name: 'Maison Luxe Rosebank', phone: '+27110000000', email: 'dispatch@maisonluxe.example', line1: '16 Viljoen Street', city: 'Johannesburg', region: 'GP', postalCode: '2094', country: 'ZA' };
const locker: CourierAddress = { name: 'Thandi Mokoena', phone: '+27821234567', email: 'thandi@example.com', line1: '50 Bath Ave, Rosebank', line2: 'PUDO locker Rosebank Mall (CG54)', city: 'Johannesburg', region: 'GP', country: 'ZA' };
const parcel: Parcel = { weightGrams: 1200, lengthCm: 40, widthCm: 30, heightCm: 10, valueMinor: 8_950_00, currency: 'ZAR', description: 'Order ML-3001' };

const rejection = (p: Promise<unknown>) => p.then(() => null, (err: unknown) => err);

describe('the PUDO courier (door to locker, against a local fake of its API)', () => {
  let fake: FakePudo;
  beforeAll(async () => {
    fake = await startFakePudo();
  });
  afterAll(async () => {
    await fake?.close();
  });
  const courier = (over: Partial<Parameters<typeof createPudoCourier>[0]> = {}) =>
    createPudoCourier({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, trackingUrl: 'https://track.pudo.example/?waybill={ref}', ...over });
  const input = (key: string, over: Partial<BookingInput> = {}): BookingInput => ({
    key,
    orderReference: 'ML-3001',
    kind: 'delivery',
    from: store,
    to: locker,
    parcel,
    locker: { network: 'pudo', id: 'CG54' },
    ...over,
  });

  it('quotes the locker boxes the parcel fits, cheapest first, from the store\'s door to the locker', async () => {
    const quotes = await courier().quote(store, locker, parcel, { network: 'pudo', id: 'CG54' });
    expect(quotes.map((q) => [q.rateRef, q.feeMinor])).toEqual([
      ['D2LM - ECO', 89_90],
      ['D2LL - ECO', 119_90],
      ['D2LXL - ECO', 159_90],
    ]);
    const call = fake.calls.filter((c) => c.path === '/api/v1/rates').at(-1)!;
    expect(call.auth).toBe(`Bearer ${fake.apiKey}`);
    expect(call.body).toMatchObject({ collection_address: { street_address: '16 Viljoen Street', city: 'Johannesburg', zone: 'GP', code: '2094' }, delivery_address: { terminal_id: 'CG54' } });
    expect(await rejection(courier().quote(store, locker, parcel))).toBeInstanceOf(CourierRefused);
  });

  it('books to the locker with the shopper to text; the same key twice makes one parcel, even from a restarted server', async () => {
    const first = await courier().book(input('ship-1', { rateRef: 'D2LM - ECO' }));
    expect(first).toMatchObject({ shipmentId: expect.stringMatching(/^\d+$/), trackingNumber: expect.stringMatching(/^PUDOD\d{6}$/), labelUrl: null });
    expect(first.trackingUrl).toBe(`https://track.pudo.example/?waybill=${first.trackingNumber}`);
    const made = fake.shipments.get(first.trackingNumber)!;
    expect(made).toMatchObject({ serviceLevel: 'D2LM - ECO', customerReference: 'ML-3001/ship-1' });
    expect(made.body).toMatchObject({ delivery_address: { terminal_id: 'CG54' }, delivery_contact: { name: 'Thandi Mokoena', mobile_number: '+27821234567' }, collection_contact: { name: 'Maison Luxe Rosebank' } });
    const count = fake.shipments.size;
    expect(await courier().book(input('ship-1', { rateRef: 'D2LM - ECO' }))).toEqual(first);
    expect(fake.shipments.size).toBe(count);
    // Without a kept rate it quotes, and books the smallest box the parcel fits.
    const other = await courier().book(input('ship-2'));
    expect(fake.shipments.get(other.trackingNumber)!.serviceLevel).toBe('D2LM - ECO');
  });

  it('refuses what a locker cannot take: a door, money to collect, a locker it does not know, a parcel too big', async () => {
    expect(((await rejection(courier().book(input('k1', { locker: null })))) as Error).message).toMatch(/lockers only/);
    expect(((await rejection(courier().book(input('k2', { collectMinor: 100_00 })))) as Error).message).toMatch(/cannot collect money/);
    const unknown = await rejection(courier().book(input('k3', { locker: { network: 'pudo', id: 'ZZ99' } })));
    expect(unknown).toBeInstanceOf(CourierRefused);
    expect((unknown as Error).message).toMatch(/terminal is invalid/);
    const huge = await rejection(courier().book(input('k4', { parcel: { ...parcel, weightGrams: 25_000 } })));
    expect((huge as Error).message).toMatch(/no locker box/);
  });

  it('cancels before collection; after collection PUDO refuses and says why', async () => {
    const c = courier();
    const a = await c.book(input('cancel-1', { rateRef: 'D2LS - ECO', parcel: { ...parcel, heightCm: 5 } }));
    await c.cancel(a.shipmentId);
    expect(fake.shipments.get(a.trackingNumber)!.status).toBe('cancelled');
    expect((await c.track(a.shipmentId)).at(-1)!.status).toBe('cancelled');
    const b = await c.book(input('cancel-2', { rateRef: 'D2LM - ECO' }));
    fake.advance(b.trackingNumber, 'courier-collected');
    const refused = await rejection(c.cancel(b.shipmentId));
    expect(refused).toBeInstanceOf(CourierRefused);
    expect((refused as Error).message).toMatch(/courier-collected cannot be cancelled/);
  });

  it('reads tracking oldest first; in the locker is not yet delivered, collected by the shopper is', async () => {
    const c = courier();
    const b = await c.book(input('track-1', { rateRef: 'D2LM - ECO' }));
    const t0 = Date.now();
    fake.advance(b.trackingNumber, 'courier-collected', 'Collected from sender', new Date(t0 + 1000));
    fake.advance(b.trackingNumber, 'in-transit', 'In transit', new Date(t0 + 2000));
    fake.advance(b.trackingNumber, 'quote-pending', 'internal', new Date(t0 + 2500));
    fake.advance(b.trackingNumber, 'in-locker', 'In locker: Rosebank Mall', new Date(t0 + 3000));
    fake.advance(b.trackingNumber, 'customer-collected', 'Collected by recipient', new Date(t0 + 4000));
    const events = await c.track(b.shipmentId);
    expect(events.map((e) => e.status)).toEqual(['booked', 'picked_up', 'in_transit', 'out_for_delivery', 'delivered']);
    expect(events[3]).toMatchObject({ description: 'In locker: Rosebank Mall', location: 'Rosebank Mall' });
    // A second read gives the same event ids: the store records each once.
    expect((await c.track(b.shipmentId)).map((e) => e.eventId)).toEqual(events.map((e) => e.eventId));
    expect(pudoStatus('In-Locker')).toBe('out_for_delivery');
    expect(pudoStatus('quote-pending')).toBeNull();
  });

  it('prints the waybill PDF through the key-in-query link, which it never hands out', async () => {
    const c = courier();
    const b = await c.book(input('label-1', { rateRef: 'D2LM - ECO' }));
    const pdf = await c.label(b.shipmentId);
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-');
    expect(fake.calls.at(-1)!.path).toBe(`/generate/waybill/${b.shipmentId}?api_key=${fake.apiKey}`);
    expect(JSON.stringify(b)).not.toContain(fake.apiKey);
  });

  it('takes no webhook (PUDO documents none: its parcels are polled)', () => {
    expect(() => courier().parseWebhook(new Headers(), '{}')).toThrow(WebhookRejected);
  });

  it('is unavailable (safe to ask again) when PUDO is down or the key is refused', async () => {
    fake.behaviour.status = 503;
    try {
      expect(((await rejection(courier().book(input('down-1')))) as AppError).code).toBe('unavailable');
    } finally {
      fake.behaviour.status = 200;
    }
    expect(((await rejection(courier({ apiKey: 'nope' }).book(input('down-2')))) as AppError).code).toBe('unavailable');
  });
});
