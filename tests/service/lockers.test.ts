import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@/lib/domain/errors';
import type { MailMessage } from '@/lib/server/infra/mail';
import { parseConfig } from '@/lib/server/infra/config';
import type { Database } from '@/lib/server/infra/db/client';
import { users } from '@/lib/server/accounts/tables';
import { auditLog } from '@/lib/server/backoffice/tables';
import { shipments } from '@/lib/server/delivery/tables';
import { orders } from '@/lib/server/orders/tables';
import { seedIfEmpty } from '@/lib/server/demo/seed';
import { createLogger } from '@/lib/server/infra/log';
import { shipmentLabelFacts } from '@/lib/server/delivery/shipments';
import { createServices, type Services } from '@/lib/server/services';
import type { SessionUser } from '@/lib/server/accounts/sessions';
import { podVariant } from '../support/pod-orders';
import { startFakePudo, type FakePudo } from '../support/fake-pudo';
import { answerSimulatedPage, DRIVERS, testClock, freshMigratedDatabase } from '../support/services';

/**
 * A South African order to a PUDO locker, through the real checkout: the lockers come from the PUDO
 * fake (LOCKERS_ZA=pudo), the order keeps the one chosen and the fee staff set, and PUDO itself
 * books the parcel to the locker, tracked by poll.
 */
for (const driver of DRIVERS) describe(`PUDO lockers at checkout, on the order and in its booking, on ${driver}`, () => {
  let services: Services;
  let database: Database;
  let drop: (() => Promise<void>) | undefined;
  let fake: FakePudo;
  const mails: MailMessage[] = [];
  const clock = testClock(new Date());

  beforeAll(async () => {
    fake = await startFakePudo();
    const migrated = await freshMigratedDatabase(driver);
    const fresh = migrated.fresh;
    drop = fresh?.drop;
    const config = parseConfig({ LOG_LEVEL: 'silent', LOCKERS_ZA: 'pudo', PUDO_API_KEY: fake.apiKey, PUDO_BASE_URL: fake.baseUrl, PUDO_TRACKING_URL: 'https://track.pudo.example/?waybill={ref}', ...(fresh ? { DATABASE_URL: fresh.url } : {}) });
    database = migrated.database;
    services = createServices({ config, db: database.db, clock, log: createLogger('silent'), mailer: { send: async (m) => void mails.push(m) } });
    await seedIfEmpty(services);
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
    await fake?.close();
  });

  let n = 0;
  /** A South African shopper with a Johannesburg address and one item in the cart, Delivery chosen. */
  async function shopperInJohannesburg(): Promise<SessionUser> {
    n++;
    const [row] = await services.db
      .insert(users)
      .values({ firstName: 'Thandi', lastName: 'Nkosi', email: `locker-${n}@example.com`, passwordHash: 'x', phoneNumber: '+27821234567', country: 'south_africa', verifiedAt: new Date() })
      .returning();
    const user = row as unknown as SessionUser;
    await services.addresses.create(user.id, { name: 'Thandi Nkosi', country: 'south_africa', state: 'Gauteng', city: 'Johannesburg', address: '12 Jan Smuts Avenue', zipCode: '2196', landmark: '', deliveryPhone: '', active: true });
    const v = await podVariant(services, 'ZA', 3, n);
    await services.cart.add(user, { productId: v.productId, color: v.color ?? undefined, size: v.size ?? undefined, quantity: 1 }, 'ZA');
    const cart = await services.cart.view(user, 'ZA');
    await services.cart.setDeliveryOption(user, cart.id, 'delivery', 'ZA', 'standard');
    return user;
  }

  it('offers the lockers in the delivery address\'s town, with the market\'s fee', async () => {
    const user = await shopperInJohannesburg();
    const cart = await services.cart.view(user, 'ZA');
    const offer = await services.lockers.offer('ZA', cart.deliveryAddress);
    expect(offer).toMatchObject({ courier: 'pudo', feeMinor: 6_500 });
    expect(offer!.points.map((p) => p.id)).toEqual(['CG54', 'CG12']);
    expect(await services.lockers.offer('NG', cart.deliveryAddress)).toBeNull();
  });

  it('refuses a locker the courier does not have; one in another town, found by a search, is the shopper\'s to choose', async () => {
    const user = await shopperInJohannesburg();
    const err = await services.checkout.initiate(user, { market: 'ZA', deliveryOption: 'delivery', locker: 'NOPE1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toBe('We cannot find this PUDO locker. Please choose another.');
    expect((await services.lockers.choose('ZA', (await services.cart.view(user, 'ZA')).deliveryAddress, 'CG03')).point.city).toBe('Cape Town');
  });

  it('refuses pay on delivery to a locker, where nobody takes payment', async () => {
    const user = await shopperInJohannesburg();
    const err = await services.checkout.initiate(user, { market: 'ZA', deliveryOption: 'delivery', locker: 'CG54', paymentMethod: 'on_delivery' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toBe('A PUDO locker cannot take payment at the door. Please pay now, or choose delivery to your address.');
    expect((await services.cart.view(user, 'ZA')).items).toHaveLength(1);
  });

  it('places an order to a locker at its fee, mails it, and books the parcel to the locker', async () => {
    const user = await shopperInJohannesburg();
    const priced = await services.cart.price(user, 'ZA');
    const started = await services.checkout.initiate(user, { market: 'ZA', deliveryOption: 'delivery', deliverySpeed: 'standard', locker: 'CG54' });
    expect(started.amount * 100).toBe(priced.subtotalMinor - priced.discountMinor + 6_500);
    await answerSimulatedPage(services, started.reference, 'pay');
    const { order } = await services.payments.fulfil(started.reference);
    expect(order.locker).toEqual({ courier: 'pudo', id: 'CG54', name: 'Rosebank Mall', address: '50 Bath Ave, Rosebank', city: 'Johannesburg', distanceKm: null });
    expect(order).toMatchObject({ deliveryOption: 'delivery', deliverySpeed: null, deliveryFee: 65, total: (priced.subtotalMinor - priced.discountMinor + 6_500) / 100 });
    const mail = mails.find((m) => m.subject.includes(order.trackingNumber))!;
    expect(mail.text).toContain('Collect from a PUDO locker: Rosebank Mall, 50 Bath Ave, Rosebank, Johannesburg. Collect it');
    expect(mail.text).not.toContain('CG54');

    // Ready to ship: PUDO books it from the boutique's door to the locker, the shopper's phone to tell.
    await services.orders.setStatus(order.id, 'processed');
    await services.shipments.runDue();
    const [shipment] = await services.db.select().from(shipments).where(eq(shipments.orderId, order.id));
    expect(shipment).toMatchObject({ status: 'booked', courier: 'pudo', kind: 'delivery', rateRef: expect.stringMatching(/^D2L(XS|S|M|L|XL) - ECO$/) });
    const made = fake.shipments.get(shipment!.trackingNumber!)!;
    expect(made.customerReference).toBe(`${order.trackingNumber}/${shipment!.id}`);
    expect(made.body).toMatchObject({ delivery_address: { terminal_id: 'CG54' }, delivery_contact: { name: 'Thandi Nkosi', mobile_number: '+27821234567' }, collection_address: { street_address: '50 Bath Avenue, Rosebank', code: '2196' } });
    expect(shipment!.courierShipmentId).toBe(String(made.id));
    expect(shipment!.trackingUrl).toBe(`https://track.pudo.example/?waybill=${made.waybill}`);
    const facts = await shipmentLabelFacts(services.db)(shipment!.id);
    expect(facts!.to).toMatchObject({ line1: '50 Bath Ave, Rosebank', line2: 'PUDO locker Rosebank Mall (CG54)', city: 'Johannesburg', phone: '+27821234567', name: 'Thandi Nkosi' });
    const [row] = await services.db.select({ fee: orders.deliveryFeeMinor }).from(orders).where(eq(orders.id, order.id));
    expect(row!.fee).toBe(6_500);
    // The waybill prints from the back office as the other couriers' labels do.
    const label = await services.shipments.label(shipment!.id);
    expect(new TextDecoder().decode(label.pdf.subarray(0, 5))).toBe('%PDF-');
    expect(label.trackingNumber).toBe(made.waybill);
    const [view] = await services.shipments.forOrder(order.id);
    expect(view).toMatchObject({ courier: 'pudo', courierLabel: 'PUDO' });

    // PUDO has no webhook: the poll reads its events; collected from the locker delivers the order.
    fake.advance(made.waybill, 'courier-collected', 'Collected from sender');
    fake.advance(made.waybill, 'in-locker', 'In locker: Rosebank Mall');
    expect(await services.shipments.pollDue()).toBe(3);
    expect((await services.db.select({ deliveredAt: orders.deliveredAt }).from(orders).where(eq(orders.id, order.id)))[0]!.deliveredAt).toBeNull();
    fake.advance(made.waybill, 'customer-collected', 'Collected by recipient');
    expect(await services.shipments.pollDue()).toBe(0);
    clock.advance(15 * 60_000 + 1);
    expect(await services.shipments.pollDue()).toBe(1);
    const [done] = await services.db.select({ status: orders.status, deliveredAt: orders.deliveredAt }).from(orders).where(eq(orders.id, order.id));
    expect(done!.status).toBe('delivered');
    expect(done!.deliveredAt).not.toBeNull();
    const [timeline] = await services.shipments.forOrder(order.id);
    expect(timeline!.events.map((e) => e.status)).toEqual(['booked', 'booked', 'picked_up', 'out_for_delivery', 'delivered']);
    // Every call to PUDO carried its key (the waybill's in its query, as PUDO takes it).
    expect(fake.calls.every((c) => c.auth === `Bearer ${fake.apiKey}` || c.path.startsWith('/generate/waybill/'))).toBe(true);
  });

  it('a cancelled order\'s locker parcel is cancelled with PUDO, once', async () => {
    const user = await shopperInJohannesburg();
    const started = await services.checkout.initiate(user, { market: 'ZA', deliveryOption: 'delivery', locker: 'CG12' });
    await answerSimulatedPage(services, started.reference, 'pay');
    const { order } = await services.payments.fulfil(started.reference);
    await services.orders.setStatus(order.id, 'processed');
    await services.shipments.runDue();
    await services.orders.setStatus(order.id, 'cancelled');
    await services.shipments.runDue();
    await services.shipments.runDue();
    const [row] = await services.db.select().from(shipments).where(eq(shipments.orderId, order.id));
    expect(row).toMatchObject({ status: 'cancelled', courier: 'pudo', trackingStatus: 'cancelled' });
    expect(fake.shipments.get(row!.trackingNumber!)!.status).toBe('cancelled');
    expect(fake.calls.filter((c) => c.method === 'PUT' && c.path === `/api/v1/shipments/${row!.courierShipmentId}`)).toHaveLength(1);
  });

  it('staff set the locker fee: new checkouts pay it, a placed order keeps its own, the change is audited', async () => {
    const owner = { id: null, email: 'owner@maisonluxe.ng' };
    const earlierUser = await shopperInJohannesburg();
    const earlier = await services.checkout.initiate(earlierUser, { market: 'ZA', deliveryOption: 'delivery', locker: 'CG54' });
    await answerSimulatedPage(services, earlier.reference, 'pay');
    const placed = (await services.payments.fulfil(earlier.reference)).order;
    expect(placed.deliveryFee).toBe(65);

    expect(await services.onDelivery.setLockerFee(owner, 'ZA', { lockerFeeMinor: 4_000 })).toBe(4_000);
    await expect(services.onDelivery.setLockerFee(owner, 'ZA', { lockerFeeMinor: -1 })).rejects.toThrow('The locker fee must be a whole amount from 0 up');
    expect(await services.onDelivery.lockerFee('ZA')).toBe(4_000);

    const user = await shopperInJohannesburg();
    const cart = await services.cart.view(user, 'ZA');
    expect(await services.lockers.offer('ZA', cart.deliveryAddress)).toMatchObject({ feeMinor: 4_000 });
    const priced = await services.cart.price(user, 'ZA');
    const started = await services.checkout.initiate(user, { market: 'ZA', deliveryOption: 'delivery', locker: 'CG54' });
    expect(started.amount * 100).toBe(priced.subtotalMinor - priced.discountMinor + 4_000);
    await answerSimulatedPage(services, started.reference, 'pay');
    const { order } = await services.payments.fulfil(started.reference);
    expect(order).toMatchObject({ deliveryFee: 40, total: (priced.subtotalMinor - priced.discountMinor + 4_000) / 100 });
    const mail = mails.find((m) => m.subject.includes(order.trackingNumber))!;
    expect(mail.text).toMatch(/Shipping: R\s?40/);

    // The earlier order keeps the fee it was placed with.
    const [kept] = await services.db.select({ fee: orders.deliveryFeeMinor, total: orders.totalMinor }).from(orders).where(eq(orders.id, placed.id));
    expect(kept!.fee).toBe(6_500);
    expect(kept!.total).toBe(Math.round(placed.total * 100));
    const audits = await services.db.select().from(auditLog).where(eq(auditLog.action, 'market.locker-fee'));
    expect(audits.map((a) => a.details)).toEqual([{ before: 6_500, after: 4_000 }]);
    await services.onDelivery.setLockerFee(owner, 'ZA', { lockerFeeMinor: 6_500 });
  });

  it('without a locker, the same checkout delivers to the door at the speed\'s fee', async () => {
    const user = await shopperInJohannesburg();
    const priced = await services.cart.price(user, 'ZA');
    const started = await services.checkout.initiate(user, { market: 'ZA', deliveryOption: 'delivery' });
    expect(started.amount * 100).toBe(priced.totalMinor);
    await answerSimulatedPage(services, started.reference, 'pay');
    const { order } = await services.payments.fulfil(started.reference);
    expect(order.locker).toBeNull();
  });
});
