import { createHmac } from 'node:crypto';
import { and, eq, gte, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@/lib/domain/errors';
import { parseConfig } from '@/lib/server/infra/config';
import type { Database } from '@/lib/server/infra/db/client';
import { alias } from 'drizzle-orm/pg-core';
import { users } from '@/lib/server/accounts/tables';
import { categories, products, variantPrices, variants } from '@/lib/server/catalogue/tables';
import { shipments } from '@/lib/server/delivery/tables';
import { orders } from '@/lib/server/orders/tables';
import { seedIfEmpty } from '@/lib/server/demo/seed';
import { createLogger } from '@/lib/server/infra/log';
import { createManualCourier } from '@/lib/server/delivery/manual';
import { CourierRefused, WebhookRejected, type Booking, type BookingInput, type Courier, type Parcel, type TrackingEvent } from '@/lib/server/delivery/port';
import { BOOKING_LEASE_MS, bookingBackoffMs, POLL_EVERY_MS, requestShipment, shipmentLabelFacts } from '@/lib/server/delivery/shipments';
import { createServices, type Services } from '@/lib/server/services';
import { returnRequestSchema } from '@/lib/domain/after-sales-input';
import { placePodOrder, podShopper, podVariant, type PodOrder } from '../support/pod-orders';
import { NAMES, pdfText } from '../support/pdf-text';
import { DRIVERS, testClock, freshMigratedDatabase } from '../support/services';

const SECRET = 'test-courier-secret';
const topCategories = alias(categories, 'top_categories');

/**
 * A courier for these tests (under Shipbubble's name): it keeps every parcel by the store's key (a
 * key booked twice would be two parcels), signs its webhooks with an HMAC of the raw body, and can
 * lose its answer after booking (the parcel exists, the store never hears of it).
 */
function testCourier() {
  const parcels = new Map<string, Booking>();
  const calls: string[] = [];
  const inputs: BookingInput[] = [];
  const state = { loseAnswer: false, events: new Map<string, TrackingEvent[]>(), quotes: 0, cancelAnswer: 'ok' as 'ok' | 'lost' | 'refuse' };
  const cancelled: string[] = [];
  const quoted: Parcel[] = [];
  const courier: Courier = {
    name: 'shipbubble',
    // Each quote is a new rate, as Shipbubble's request tokens are: a retry must book on the kept one.
    async quote(_from, _to, parcel) {
      quoted.push(parcel);
      state.quotes += 1;
      return [{ rateRef: `rate-${state.quotes}`, service: 'Test Express', feeMinor: 500_000, currency: 'NGN' as const, minDays: 1, maxDays: 2 }];
    },
    async book(input: BookingInput) {
      calls.push(input.key);
      inputs.push(input);
      let booking = parcels.get(input.key);
      if (!booking) {
        booking = { shipmentId: `SB-${parcels.size + 1}`, trackingNumber: `SBTRK${parcels.size + 1}`, trackingUrl: `https://track.example/SBTRK${parcels.size + 1}`, labelUrl: null };
        parcels.set(input.key, booking);
      }
      if (state.loseAnswer) throw new AppError('unavailable', 'The courier did not answer');
      return booking;
    },
    // A cancel whose answer is lost still cancels; a second cancel of a cancelled parcel is refused, as couriers do.
    async cancel(shipmentId) {
      if (state.cancelAnswer === 'refuse') throw new CourierRefused('the parcel has been collected');
      if (cancelled.includes(shipmentId)) throw new CourierRefused('already cancelled');
      cancelled.push(shipmentId);
      state.events.set(shipmentId, [...(state.events.get(shipmentId) ?? []), { eventId: `c-${shipmentId}`, status: 'cancelled', at: new Date(), description: 'Cancelled' }]);
      if (state.cancelAnswer === 'lost') throw new AppError('unavailable', 'The courier did not answer');
    },
    async track(shipmentId) {
      return state.events.get(shipmentId) ?? [];
    },
    async label() {
      return new Uint8Array();
    },
    parseWebhook(headers, rawBody) {
      const expected = createHmac('sha256', SECRET).update(rawBody).digest('hex');
      if (headers.get('x-test-signature') !== expected) throw new WebhookRejected('bad signature');
      const body = JSON.parse(rawBody) as { shipment: string; events: (Omit<TrackingEvent, 'at'> & { at: string })[] };
      return { shipmentId: body.shipment, trackingNumber: null, events: body.events.map((e) => ({ ...e, at: new Date(e.at) })) };
    },
  };
  return { courier, parcels, calls, inputs, state, cancelled, quoted };
}

function signed(body: unknown, secret = SECRET) {
  const raw = JSON.stringify(body);
  return { raw, headers: new Headers({ 'x-test-signature': createHmac('sha256', secret).update(raw).digest('hex') }) };
}

for (const driver of DRIVERS) {
  describe(`shipments on ${driver}`, () => {
    let services: Services;
    let database: Database;
    let drop: (() => Promise<void>) | undefined;
    let test: ReturnType<typeof testCourier>;
    const clock = testClock(new Date());

    beforeAll(async () => {
      const migrated = await freshMigratedDatabase(driver);
      const fresh = migrated.fresh;
      drop = fresh?.drop;
      // Bags travel in a box of their own size here, so the test can tell the configured table reached the courier.
      const config = parseConfig({ LOG_LEVEL: 'silent', PARCEL_SIZES: JSON.stringify({ bags: { weightGrams: 2500, lengthCm: 50, widthCm: 40, heightCm: 25 } }), ...(fresh ? { DATABASE_URL: fresh.url } : {}) });
      database = migrated.database;
      test = testCourier();
      // Nigeria ships with the test courier, South Africa with the store's own riders.
      const manual = createManualCourier({ labelFacts: shipmentLabelFacts(database.db) });
      services = createServices({ config, db: database.db, clock, log: createLogger('silent'), couriers: { NG: test.courier, ZA: manual } });
      await seedIfEmpty(services);
    });
    afterAll(async () => {
      await database?.close();
      await drop?.();
    });

    let n = 0;
    /** A pay-on-delivery order to deliver, its shopper opted in to texts on a number of its own. */
    async function deliveryOrder(market: 'NG' | 'ZA' = 'NG', opts: { pickup?: boolean; variantId?: number; quantity?: number } = {}): Promise<PodOrder & { phone: string }> {
      const shopper = await podShopper(services, market);
      n++;
      const phone = market === 'NG' ? `+23480312${String(40000 + n).padStart(5, '0')}` : `+278212${String(30000 + n).padStart(5, '0')}`;
      await services.db.update(users).set({ phoneNumber: phone, updatesChannel: 'text' }).where(eq(users.id, shopper.id));
      const v = await podVariant(services, market, 3, n);
      const order = await placePodOrder(services, { userId: shopper.id, email: shopper.email, variantId: opts.variantId ?? v.id, quantity: opts.quantity, market, pickup: opts.pickup });
      return { ...order, phone };
    }
    const shipmentsOf = (orderId: string) => services.db.select().from(shipments).where(eq(shipments.orderId, orderId));

    it('two staff pressing "Ready to ship" at once book one parcel, once', async () => {
      const order = await deliveryOrder();
      const results = await Promise.allSettled([services.orders.setStatus(order.id, 'processed'), services.orders.setStatus(order.id, 'processed')]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      await Promise.all([services.shipments.runDue(), services.shipments.runDue()]);
      const rows = await shipmentsOf(order.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: 'booked', courier: 'shipbubble', kind: 'delivery', trackingStatus: 'booked' });
      expect(test.calls.filter((k) => k === rows[0]!.id)).toHaveLength(1);
      expect(test.parcels.get(rows[0]!.id)?.trackingNumber).toBe(rows[0]!.trackingNumber);
      const [view] = await services.shipments.forOrder(order.id);
      expect(view!.events.map((e) => e.status)).toEqual(['booked']);
      expect(view!.trackingUrl).toMatch(/^https:\/\/track\.example\//);
    });

    it('a pickup order is not shipped', async () => {
      const order = await deliveryOrder('NG', { pickup: true });
      await services.orders.setStatus(order.id, 'processed');
      expect(await shipmentsOf(order.id)).toHaveLength(0);
    });

    it('a booking whose answer was lost is asked again with the same key: one parcel', async () => {
      const order = await deliveryOrder();
      test.state.loseAnswer = true;
      await services.orders.setStatus(order.id, 'processed');
      const [first] = await shipmentsOf(order.id);
      expect(first).toMatchObject({ status: 'to_book', attempts: 1 });
      expect(first!.lastError).toMatch(/did not answer/);
      expect(test.parcels.has(first!.id)).toBe(true);
      test.state.loseAnswer = false;
      // Not before its backoff.
      await services.shipments.runDue();
      expect((await shipmentsOf(order.id))[0]!.status).toBe('to_book');
      clock.advance(bookingBackoffMs(1) + 1);
      await services.shipments.runDue();
      const [booked] = await shipmentsOf(order.id);
      expect(booked).toMatchObject({ status: 'booked', trackingNumber: test.parcels.get(first!.id)!.trackingNumber });
      expect(test.calls.filter((k) => k === first!.id)).toHaveLength(2);
      expect([...test.parcels.keys()].filter((k) => k === first!.id)).toHaveLength(1);
      // Quoted once; both booking calls were on that rate, which is kept on the row.
      const rates = test.inputs.filter((i) => i.key === first!.id).map((i) => i.rateRef);
      expect(rates).toEqual([booked!.rateRef, booked!.rateRef]);
      expect(booked!.rateRef).toMatch(/^rate-\d+$/);
    });

    it('a worker that dies after its claim leaves the row to its lease; the next worker books it once', async () => {
      const order = await deliveryOrder();
      // The order is marked ready to ship with no worker running after it (the server died at once).
      test.state.loseAnswer = true;
      await services.orders.setStatus(order.id, 'processed');
      test.state.loseAnswer = false;
      clock.advance(bookingBackoffMs(1) + 1);
      const claimed = await services.shipments.claim();
      expect(claimed?.orderId).toBe(order.id);
      // Held: another worker skips it.
      expect(await services.shipments.runDue()).toBe(0);
      clock.advance(BOOKING_LEASE_MS + 1);
      expect(await services.shipments.runDue()).toBe(1);
      const [row] = await shipmentsOf(order.id);
      expect(row!.status).toBe('booked');
      expect([...test.parcels.keys()].filter((k) => k === row!.id)).toHaveLength(1);
    });

    it('a signed webhook becomes the timeline; a replay adds nothing; a bad signature is refused; "delivered" sets delivered_at', async () => {
      const order = await deliveryOrder();
      await services.orders.setStatus(order.id, 'processed');
      const [row] = await shipmentsOf(order.id);
      const base = clock().getTime();
      const events = [
        { eventId: 'ev-1', status: 'picked_up', at: new Date(base + 60_000).toISOString(), description: 'Picked up at Ikoyi' },
        { eventId: 'ev-2', status: 'out_for_delivery', at: new Date(base + 3_600_000).toISOString(), description: 'With the rider', rider: { name: 'Musa Bello', phone: '+2348099990000' } },
      ];
      const first = signed({ shipment: row!.courierShipmentId, events });
      expect(await services.shipments.acceptWebhook('shipbubble', first.headers, first.raw)).toEqual({ known: true, added: 2 });
      // The same delivery again (a courier's retry): nothing new, no second text.
      expect(await services.shipments.acceptWebhook('shipbubble', first.headers, first.raw)).toEqual({ known: true, added: 0 });

      const forged = signed({ shipment: row!.courierShipmentId, events: [{ eventId: 'ev-x', status: 'delivered', at: new Date(base).toISOString(), description: '' }] }, 'not-the-secret');
      const refused = await services.shipments.acceptWebhook('shipbubble', forged.headers, forged.raw).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(WebhookRejected);
      expect((refused as AppError).code).toBe('unauthorized');
      expect((await services.db.select().from(orders).where(eq(orders.id, order.id)))[0]!.status).toBe('processed');

      clock.advance(5 * 3_600_000);
      const deliveredAt = new Date(base + 4 * 3_600_000);
      const last = signed({ shipment: row!.courierShipmentId, events: [{ eventId: 'ev-3', status: 'delivered', at: deliveredAt.toISOString(), description: 'Signed for by Ada' }] });
      expect(await services.shipments.acceptWebhook('shipbubble', last.headers, last.raw)).toEqual({ known: true, added: 1 });

      const [o] = await services.db.select().from(orders).where(eq(orders.id, order.id));
      expect(o!.status).toBe('delivered');
      expect(o!.deliveredAt?.toISOString()).toBe(deliveredAt.toISOString());
      const [view] = await services.shipments.forOrder(order.id);
      expect(view!.trackingStatus).toBe('delivered');
      expect(view!.events.map((e) => e.status)).toEqual(['booked', 'picked_up', 'out_for_delivery', 'delivered']);
      expect(view!.events[2]).toMatchObject({ riderName: 'Musa Bello', riderPhone: '+2348099990000' });

      const texts = (await services.textOutbox.list(order.phone)).map((t) => t.text).reverse();
      const after = texts.slice(texts.findIndex((t) => t.includes('on its way')));
      expect(after).toHaveLength(3);
      expect(after[0]).toMatch(/is on its way\. Please have ₦[\d,.]+ ready to pay at the door\./);
      expect(after[1]).toMatch(/out for delivery today\. Your rider is Musa Bello: \+2348099990000\. Please have ₦/);
      expect(after[2]).toMatch(/has been delivered/);
      const mails = await services.outbox.list(order.email);
      expect(mails.map((m) => m.subject)).toEqual(expect.arrayContaining([expect.stringMatching(/^Your order is out for delivery/), expect.stringMatching(/^Your order has been delivered/)]));
    });

    it('a webhook for a parcel the store does not know, or from a courier it does not use, changes nothing', async () => {
      const stray = signed({ shipment: 'SB-NOPE', events: [{ eventId: 'x', status: 'delivered', at: new Date().toISOString(), description: '' }] });
      expect(await services.shipments.acceptWebhook('shipbubble', stray.headers, stray.raw)).toEqual({ known: false, added: 0 });
      await expect(services.shipments.acceptWebhook('shiplogic', stray.headers, stray.raw)).rejects.toMatchObject({ code: 'not_found' });
    });

    it('couriers without a webhook are polled, at most every poll period; a failed attempt tells the shopper what to do', async () => {
      const order = await deliveryOrder();
      await services.orders.setStatus(order.id, 'processed');
      const [row] = await shipmentsOf(order.id);
      test.state.events.set(row!.courierShipmentId!, [
        { eventId: 'p-1', status: 'in_transit', at: clock(), description: 'Left the hub' },
        { eventId: 'p-2', status: 'failed_attempt', at: new Date(clock().getTime() + 1000), description: 'Nobody at the address' },
      ]);
      expect(await services.shipments.pollDue({ limit: 100 })).toBeGreaterThanOrEqual(2);
      expect(await services.shipments.pollDue({ limit: 100 })).toBe(0);
      clock.advance(POLL_EVERY_MS + 1);
      expect(await services.shipments.pollDue({ limit: 100 })).toBe(0);
      const [view] = await services.shipments.forOrder(order.id);
      expect(view!.trackingStatus).toBe('failed_attempt');
      const [latest] = await services.textOutbox.list(order.phone);
      expect(latest!.text).toMatch(/could not deliver your order .* try again on the next working day/);
    });

    it('an approved return by collection is booked with the courier, from the shopper to the boutique, once', async () => {
      const order = await deliveryOrder();
      await services.orders.setStatus(order.id, 'processed');
      await services.orders.setStatus(order.id, 'delivered');
      const line = (await services.orders.load(order.id))!.items[0]!.id;
      const ret = await services.returns.request(order.userId, order.id, returnRequestSchema.parse({ items: [{ orderItemId: line, quantity: 1 }], reason: 'changed_mind', resolution: 'credit', method: 'collection' }));
      expect((await shipmentsOf(order.id)).filter((r) => r.kind === 'return')).toHaveLength(0);
      await services.returns.act({ id: null, email: 'returns@maisonluxe.ng' }, ret.id, { action: 'approve' });
      const collection = (await shipmentsOf(order.id)).filter((r) => r.kind === 'return');
      expect(collection).toHaveLength(1);
      expect(collection[0]).toMatchObject({ status: 'booked', returnId: ret.id, courier: 'shipbubble' });
      const asked = test.inputs.filter((i) => i.key === collection[0]!.id);
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({ kind: 'return', collectMinor: 0, from: { line1: '1 Allen Avenue', phone: order.phone }, to: { line1: '22 Awolowo Road' } });
      // The shopper's delivery timeline is the delivery's alone.
      const views = await services.shipments.forOrder(order.id);
      expect(views.map((v) => v.kind)).toEqual(['delivery', 'return']);
    });

    it("the store's own courier: booked at once, staff type the rider and the delivery, the label is a PDF", async () => {
      const order = await deliveryOrder('ZA');
      await services.orders.setStatus(order.id, 'processed');
      const [row] = await shipmentsOf(order.id);
      expect(row).toMatchObject({ courier: 'manual', status: 'booked' });
      expect(row!.trackingNumber).toMatch(/^MLD-[0-9A-F]{10}$/);
      await services.shipments.addStaffEvent(row!.id, { status: 'out_for_delivery', description: 'With Thabo', location: '', riderName: 'Thabo', riderPhone: '082 555 1234' }, null);
      await expect(services.shipments.addStaffEvent(row!.id, { status: 'picked_up', description: '', location: '', riderName: '', riderPhone: '12' }, null)).rejects.toMatchObject({ code: 'invalid' });
      clock.advance(60_000);
      await services.shipments.addStaffEvent(row!.id, { status: 'delivered', description: '', location: '', riderName: '', riderPhone: '' }, null);
      const [o] = await services.db.select().from(orders).where(eq(orders.id, order.id));
      expect(o!.status).toBe('delivered');
      expect(o!.deliveredAt?.getTime()).toBe(clock().getTime());
      const [view] = await services.shipments.forOrder(order.id);
      expect(view!.events.map((e) => [e.status, e.riderPhone])).toEqual([
        ['booked', null],
        ['out_for_delivery', '+27825551234'],
        ['delivered', null],
      ]);
      const { pdf } = await services.shipments.label(row!.id);
      expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
      const text = await pdfText(pdf);
      expect(text).toContain(row!.trackingNumber!);
      expect(text).toContain(order.trackingNumber);
      expect(text).toContain('1 Allen Avenue');
      expect(text).toMatch(/COLLECT AT THE DOOR: ZAR /);
      // A courier's parcel takes no typed events.
      const ng = await deliveryOrder();
      await services.orders.setStatus(ng.id, 'processed');
      const [ngRow] = await shipmentsOf(ng.id);
      await expect(services.shipments.addStaffEvent(ngRow!.id, { status: 'delivered', description: '', location: '', riderName: '', riderPhone: '' }, null)).rejects.toMatchObject({ code: 'invalid' });
    });

    it('the label and the packing slip print names as they were typed, tone marks and all', async () => {
      const [giftee, buyer, neighbour] = NAMES as [string, string, string];
      const order = await deliveryOrder('ZA');
      const [first, last] = buyer.split(' ') as [string, string];
      await services.db.update(users).set({ firstName: first, lastName: last }).where(eq(users.id, order.userId));
      // A gift, as checkout writes its columns (orders.createPaid), to an address with a landmark.
      await services.db
        .update(orders)
        .set({ giftRecipientName: giftee, giftRecipientPhone: '+27821234567', giftMessage: 'Ẹ kú ọjọ́ ìbí', giftHidePrices: true })
        .where(eq(orders.id, order.id));
      await services.db.execute(sql`update orders set delivery_address = delivery_address || ${JSON.stringify({ landmark: `Ask for ${neighbour}` })}::jsonb where id = ${order.id}`);
      await services.orders.setStatus(order.id, 'processed');
      const [row] = await shipmentsOf(order.id);
      const label = await pdfText((await services.shipments.label(row!.id)).pdf);
      expect(label).toContain(giftee);
      expect(label).toContain(`Landmark: Ask for ${neighbour}`);
      const slip = await services.packingSlips.pdf(order.id);
      expect(slip.trackingNumber).toBe(order.trackingNumber);
      const text = await pdfText(slip.pdf);
      for (const part of ['Packing slip', `Order ${order.trackingNumber}`, 'DELIVER TO', giftee, 'Phone: +27821234567', `A GIFT FOR ${giftee.toLocaleUpperCase('en')}`, 'Ẹ kú ọjọ́ ìbí', `From ${first}`, '/gift-return/']) expect(text).toContain(part.normalize('NFC'));
      // Never a price in the box.
      expect(text).not.toMatch(/(^|\s)R[\s\u00a0]?\d|ZAR|₦/);
      await expect(services.packingSlips.pdf('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ code: 'not_found' });
    });

    const orderStatus = async (orderId: string) => (await services.db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)))[0]!.status;

    it('cancelling an order whose parcel is booked cancels it with the courier, once, and the worker retries a lost answer', async () => {
      const order = await deliveryOrder();
      await services.orders.setStatus(order.id, 'processed');
      const [row] = await shipmentsOf(order.id);
      expect(row!.status).toBe('booked');
      test.state.cancelAnswer = 'lost';
      await services.orders.setStatus(order.id, 'cancelled');
      // Two workers at once: the row is leased by one; the courier's answer is lost.
      await Promise.all([services.shipments.runDue(), services.shipments.runDue()]);
      let [after] = await shipmentsOf(order.id);
      expect(after).toMatchObject({ status: 'to_cancel', attempts: 1 });
      expect(after!.lastError).toMatch(/did not answer/);
      expect(test.cancelled.filter((id) => id === row!.courierShipmentId)).toHaveLength(1);
      test.state.cancelAnswer = 'ok';
      await services.shipments.runDue();
      expect((await shipmentsOf(order.id))[0]!.status).toBe('to_cancel');
      clock.advance(bookingBackoffMs(1) + 1);
      // Asked again, the courier says it is cancelled already; its tracking confirms it.
      await services.shipments.runDue();
      [after] = await shipmentsOf(order.id);
      expect(after).toMatchObject({ status: 'cancelled', trackingStatus: 'cancelled', lastError: null });
      expect(test.cancelled.filter((id) => id === row!.courierShipmentId)).toHaveLength(1);
      await services.shipments.runDue();
      expect((await shipmentsOf(order.id))[0]!.status).toBe('cancelled');
      const [view] = await services.shipments.forOrder(order.id);
      expect(view!.events.map((e) => e.status)).toEqual(['booked', 'cancelled']);
    });

    it('a parcel the courier will not cancel is left for staff with its answer; one not yet booked is simply not booked', async () => {
      const order = await deliveryOrder();
      await services.orders.setStatus(order.id, 'processed');
      test.state.cancelAnswer = 'refuse';
      await services.orders.setStatus(order.id, 'cancelled');
      await services.shipments.runDue();
      const [refused] = await shipmentsOf(order.id);
      expect(refused).toMatchObject({ status: 'cancel_failed' });
      expect(refused!.lastError).toMatch(/collected/);
      test.state.cancelAnswer = 'ok';

      // The courier never answered the booking; the order is cancelled before the worker's next try:
      // the same key is asked once more (the parcel it may hold), then cancelled.
      const lost = await deliveryOrder();
      test.state.loseAnswer = true;
      await services.orders.setStatus(lost.id, 'processed');
      test.state.loseAnswer = false;
      await services.orders.setStatus(lost.id, 'cancelled');
      clock.advance(bookingBackoffMs(1) + 1);
      await services.shipments.runDue();
      const [lostRow] = await shipmentsOf(lost.id);
      expect(lostRow).toMatchObject({ status: 'cancelled' });
      expect(test.parcels.has(lostRow!.id)).toBe(true);
      expect(test.cancelled).toContain(test.parcels.get(lostRow!.id)!.shipmentId);

      // Asked for, but no worker ran before the cancel: no call at all.
      const unasked = await deliveryOrder();
      await services.db.transaction(async (tx) => {
        const [o] = await tx.select().from(orders).where(eq(orders.id, unasked.id));
        await requestShipment(tx, { orderId: o!.id, kind: 'delivery', courier: 'shipbubble' }, clock());
      });
      await services.orders.setStatus(unasked.id, 'cancelled');
      const calls = test.calls.length;
      await services.shipments.runDue();
      const [unaskedRow] = await shipmentsOf(unasked.id);
      expect(unaskedRow).toMatchObject({ status: 'cancelled', attempts: 0, courierShipmentId: null });
      expect(test.calls.length).toBe(calls);
    });

    it('staff ask a refused cancel again: pressed twice at once, the courier is asked once, and it is cancelled', async () => {
      const order = await deliveryOrder();
      await services.orders.setStatus(order.id, 'processed');
      test.state.cancelAnswer = 'refuse';
      await services.orders.setStatus(order.id, 'cancelled');
      await services.shipments.runDue();
      const [refused] = await shipmentsOf(order.id);
      expect(refused).toMatchObject({ status: 'cancel_failed' });
      const parcel = test.parcels.get(refused!.id)!.shipmentId;
      // The courier now takes the cancel (the rider had not collected it after all).
      test.state.cancelAnswer = 'ok';
      const presses = await Promise.all([services.shipments.retryCancel(refused!.id), services.shipments.retryCancel(refused!.id)]);
      expect(presses.map((p) => p.orderId)).toEqual([order.id, order.id]);
      expect(presses.filter((p) => p.queued)).toHaveLength(1);
      await Promise.all([services.shipments.runDue(), services.shipments.runDue()]);
      const [cancelled] = await shipmentsOf(order.id);
      expect(cancelled).toMatchObject({ status: 'cancelled', trackingStatus: 'cancelled', lastError: null });
      expect(test.cancelled.filter((id) => id === parcel)).toHaveLength(1);
      // Pressed again once cancelled: nothing changes, nothing is asked.
      expect(await services.shipments.retryCancel(refused!.id)).toEqual({ orderId: order.id, queued: false });
      await services.shipments.runDue();
      expect(test.cancelled.filter((id) => id === parcel)).toHaveLength(1);
      // Only a refused cancel can be asked again.
      const booked = await deliveryOrder();
      await services.orders.setStatus(booked.id, 'processed');
      await services.shipments.runDue();
      const [bookedRow] = await shipmentsOf(booked.id);
      await expect(services.shipments.retryCancel(bookedRow!.id)).rejects.toMatchObject({ code: 'conflict' });
      await expect(services.shipments.retryCancel('not-a-uuid')).rejects.toMatchObject({ code: 'not_found' });
    });

    it('staff retry a failed booking: booked on the same key, not for a cancelled order, not twice', async () => {
      const order = await deliveryOrder();
      test.state.loseAnswer = true;
      await services.orders.setStatus(order.id, 'processed');
      const [row] = await shipmentsOf(order.id);
      await services.db.update(shipments).set({ status: 'failed', lastError: 'The courier refused: no rider in the area' }).where(eq(shipments.id, row!.id));
      test.state.loseAnswer = false;
      const [failed] = await services.shipments.forOrder(order.id);
      expect(failed).toMatchObject({ status: 'failed', retryable: true, lastError: 'The courier refused: no rider in the area' });
      expect(await services.shipments.retry(row!.id)).toEqual({ orderId: order.id });
      await services.shipments.runDue();
      const [booked] = await shipmentsOf(order.id);
      expect(booked).toMatchObject({ status: 'booked', trackingNumber: test.parcels.get(row!.id)!.trackingNumber });
      expect([...test.parcels.keys()].filter((k) => k === row!.id)).toHaveLength(1);
      await expect(services.shipments.retry(row!.id)).rejects.toMatchObject({ code: 'conflict' });
      await expect(services.shipments.retry('not-a-uuid')).rejects.toMatchObject({ code: 'not_found' });

      const gone = await deliveryOrder();
      test.state.loseAnswer = true;
      await services.orders.setStatus(gone.id, 'processed');
      test.state.loseAnswer = false;
      const [goneRow] = await shipmentsOf(gone.id);
      expect((await services.shipments.forOrder(gone.id))[0]!.retryable).toBe(true);
      await services.orders.setStatus(gone.id, 'cancelled');
      await expect(services.shipments.retry(goneRow!.id)).rejects.toMatchObject({ code: 'conflict' });
    });

    it("the parcel is the order's pieces boxed by category, as PARCEL_SIZES says", async () => {
      const [bag] = await services.db
        .select({ id: variants.id })
        .from(variants)
        .innerJoin(products, eq(products.id, variants.productId))
        .innerJoin(categories, eq(categories.id, products.categoryId))
        .innerJoin(topCategories, eq(topCategories.id, categories.parentId))
        .innerJoin(variantPrices, and(eq(variantPrices.variantId, variants.id), eq(variantPrices.market, 'NG')))
        .where(and(eq(topCategories.slug, 'bags'), gte(variants.stock, 3)))
        .limit(1);
      const order = await deliveryOrder('NG', { variantId: bag!.id, quantity: 2 });
      await services.orders.setStatus(order.id, 'processed');
      const [row] = await shipmentsOf(order.id);
      const booked = test.inputs.find((i) => i.key === row!.id)!;
      // Two bags, each in the configured 50 x 40 x 25 cm box of 2.5 kg, stacked.
      expect(booked.parcel).toMatchObject({ weightGrams: 5000, lengthCm: 50, widthCm: 40, heightCm: 50, valueMinor: order.totalMinor, currency: 'NGN' });
      expect(test.quoted.at(-1)).toEqual(booked.parcel);
    });

    it("a gift's recipient hears \"on its way\" at the courier's pick-up, not at Ready to ship; the wrapping is a line of the confirmation", async () => {
      const order = await deliveryOrder();
      const recipient = '+2348035550199';
      await services.db.update(orders).set({ giftRecipientName: 'Ada Obi', giftRecipientPhone: recipient, giftWrap: true, giftWrapMinor: 750_000 }).where(eq(orders.id, order.id));
      const dto = (await services.orders.load(order.id))!;
      await services.orders.sendConfirmation(dto, order.userId);
      const [mail] = await services.outbox.list(order.email);
      expect(mail!.text).toContain('Gift wrapping: ₦7,500');
      expect(mail!.html).toMatch(/Gift wrapping<\/td><td align="right">₦7,500/);

      await services.orders.setStatus(order.id, 'processed');
      const texts = async () => (await services.textOutbox.list(recipient)).map((t) => t.text);
      expect((await texts()).some((t) => t.includes('on its way'))).toBe(false);
      const [row] = await shipmentsOf(order.id);
      const picked = signed({ shipment: row!.courierShipmentId, events: [{ eventId: `gift-${row!.id}`, status: 'picked_up', at: clock().toISOString(), description: '' }] });
      await services.shipments.acceptWebhook('shipbubble', picked.headers, picked.raw);
      const onItsWay = (await texts()).filter((t) => t.includes('on its way'));
      expect(onItsWay).toHaveLength(1);
      expect(onItsWay[0]).toContain(order.trackingNumber);
      expect(onItsWay[0]).not.toMatch(/₦/);
      expect(await orderStatus(order.id)).toBe('processed');
    });

    it("staff shipping an exchange's replacement book it with the courier, once, to the shopper, for the exchanged pieces", async () => {
      const res = await services.db.execute(sql`
        select a.id as a, b.id as b from variants a
        join variants b on b.product_id = a.product_id and b.id <> a.id
        join variant_prices pa on pa.variant_id = a.id and pa.market = 'NG'
        join variant_prices pb on pb.variant_id = b.id and pb.market = 'NG'
        where a.stock >= 6 and b.stock >= 6 and pa.price_minor = pb.price_minor
        order by a.id limit 1`);
      const pair = (((res as unknown as { rows?: unknown[] }).rows ?? res) as { a: number; b: number }[])[0]!;
      const order = await deliveryOrder('NG', { variantId: Number(pair.a), quantity: 3 });
      await services.orders.setStatus(order.id, 'processed');
      await services.orders.setStatus(order.id, 'delivered');
      const line = (await services.orders.load(order.id))!.items[0]!.id;
      const staff = { id: null, email: 'returns@maisonluxe.ng' };
      const ret = await services.returns.request(order.userId, order.id, returnRequestSchema.parse({ items: [{ orderItemId: line, quantity: 1, exchangeVariantId: Number(pair.b) }], reason: 'too_small', resolution: 'exchange', method: 'collection' }));
      await services.returns.act(staff, ret.id, { action: 'approve' });
      await services.returns.act(staff, ret.id, { action: 'receive' });
      await services.returns.act(staff, ret.id, { action: 'ship' });
      const rows = await shipmentsOf(order.id);
      expect(rows.map((r) => r.kind).sort()).toEqual(['delivery', 'exchange', 'return']);
      const out = rows.find((r) => r.kind === 'exchange')!;
      expect(out).toMatchObject({ status: 'booked', returnId: ret.id, courier: 'shipbubble' });
      const asked = test.inputs.filter((i) => i.key === out.id);
      expect(asked).toHaveLength(1);
      // From the boutique to the shopper, nothing to collect, one piece (not the order's three).
      expect(asked[0]).toMatchObject({ kind: 'delivery', collectMinor: 0, from: { line1: '22 Awolowo Road' }, to: { line1: '1 Allen Avenue' } });
      const collection = test.inputs.find((i) => i.key === rows.find((r) => r.kind === 'return')!.id)!;
      expect(asked[0]!.parcel.weightGrams).toBe(collection.parcel.weightGrams);
      const [deliveryInput] = test.inputs.filter((i) => i.key === rows.find((r) => r.kind === 'delivery')!.id);
      expect(deliveryInput!.parcel.weightGrams).toBe(3 * asked[0]!.parcel.weightGrams);
      // A second ship is refused by the return's own rules; the exchange stays one parcel.
      await expect(services.returns.act(staff, ret.id, { action: 'ship' })).rejects.toThrow();
      expect((await shipmentsOf(order.id)).filter((r) => r.kind === 'exchange')).toHaveLength(1);
    });

    it("two staff approving, then shipping, an exchange at once: one collection and one replacement, each booked once; the replacement's updates reach the shopper, the collection's do not", async () => {
      const res = await services.db.execute(sql`
        select a.id as a, b.id as b from variants a
        join variants b on b.product_id = a.product_id and b.id <> a.id
        join variant_prices pa on pa.variant_id = a.id and pa.market = 'NG'
        join variant_prices pb on pb.variant_id = b.id and pb.market = 'NG'
        where a.stock >= 6 and b.stock >= 6 and pa.price_minor = pb.price_minor
        order by a.id offset 1 limit 1`);
      const pair = (((res as unknown as { rows?: unknown[] }).rows ?? res) as { a: number; b: number }[])[0]!;
      const order = await deliveryOrder('NG', { variantId: Number(pair.a) });
      await services.orders.setStatus(order.id, 'processed');
      await services.orders.setStatus(order.id, 'delivered');
      const line = (await services.orders.load(order.id))!.items[0]!.id;
      const staff = { id: null, email: 'returns@maisonluxe.ng' };
      const ret = await services.returns.request(order.userId, order.id, returnRequestSchema.parse({ items: [{ orderItemId: line, quantity: 1, exchangeVariantId: Number(pair.b) }], reason: 'too_small', resolution: 'exchange', method: 'collection' }));
      const approved = await Promise.allSettled([services.returns.act(staff, ret.id, { action: 'approve' }), services.returns.act(staff, ret.id, { action: 'approve' })]);
      expect(approved.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      await services.returns.act(staff, ret.id, { action: 'receive' });
      const shipped = await Promise.allSettled([services.returns.act(staff, ret.id, { action: 'ship' }), services.returns.act(staff, ret.id, { action: 'ship' })]);
      expect(shipped.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      await Promise.all([services.shipments.runDue(), services.shipments.runDue()]);
      const rows = (await shipmentsOf(order.id)).filter((r) => r.returnId === ret.id);
      expect(rows.map((r) => r.kind).sort()).toEqual(['exchange', 'return']);
      for (const row of rows) {
        expect(row.status).toBe('booked');
        expect(test.calls.filter((k) => k === row.id)).toHaveLength(1);
        expect(row.trackingNumber).toBe(test.parcels.get(row.id)!.trackingNumber);
      }
      const collection = rows.find((r) => r.kind === 'return')!;
      const replacement = rows.find((r) => r.kind === 'exchange')!;

      const textsBefore = (await services.textOutbox.list(order.phone)).length;
      const at = (ms: number) => new Date(clock().getTime() + ms).toISOString();
      const collected = signed({ shipment: collection.courierShipmentId, events: [{ eventId: 'col-1', status: 'picked_up', at: at(1000), description: '' }, { eventId: 'col-2', status: 'delivered', at: at(2000), description: '' }] });
      expect(await services.shipments.acceptWebhook('shipbubble', collected.headers, collected.raw)).toEqual({ known: true, added: 2 });
      // The collection's moves are the store's to follow: no text, no mail.
      expect(await services.textOutbox.list(order.phone)).toHaveLength(textsBefore);

      const out = signed({ shipment: replacement.courierShipmentId, events: [{ eventId: 'ex-1', status: 'in_transit', at: at(3000), description: 'Left the hub' }, { eventId: 'ex-2', status: 'delivered', at: at(4000), description: '' }] });
      expect(await services.shipments.acceptWebhook('shipbubble', out.headers, out.raw)).toEqual({ known: true, added: 2 });
      const texts = (await services.textOutbox.list(order.phone)).map((t) => t.text).reverse().slice(textsBefore);
      expect(texts).toHaveLength(2);
      expect(texts[0]).toMatch(new RegExp(`${order.trackingNumber} is on its way\\.`));
      // Nothing is paid at the door for a replacement.
      expect(texts[0]).not.toMatch(/ready to pay/);
      expect(texts[1]).toMatch(/has been delivered/);
      const subjects = (await services.outbox.list(order.email)).map((m) => m.subject);
      expect(subjects).toEqual(expect.arrayContaining([`Your order is on its way (${order.trackingNumber})`, `Your order has been delivered (${order.trackingNumber})`]));

      // The read model names each parcel's return, with its own timeline.
      const views = (await services.shipments.forOrder(order.id)).filter((v) => v.returnId === ret.id);
      expect(views.map((v) => [v.kind, v.events.map((e) => e.status)])).toEqual([
        ['return', ['booked', 'picked_up', 'delivered']],
        ['exchange', ['booked', 'in_transit', 'delivered']],
      ]);
    });
  });
}
