import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@/lib/domain/errors';
import type { MailMessage } from '@/lib/server/infra/mail';
import { parseConfig } from '@/lib/server/infra/config';
import { openDatabase, type Database } from '@/lib/server/infra/db/client';
import { orders, shipments, users } from '@/lib/server/infra/db/schema';
import { seedIfEmpty } from '@/lib/server/infra/db/seed';
import { createLogger } from '@/lib/server/infra/log';
import { shipmentLabelFacts } from '@/lib/server/delivery/shipments';
import { createServices, type Services } from '@/lib/server/services';
import type { SessionUser } from '@/lib/server/accounts/sessions';
import { podVariant } from '../support/pod-orders';
import { startFakePudo, type FakePudo } from '../support/fake-pudo';
import { answerSimulatedPage } from '../support/services';

/**
 * A South African order to a PUDO locker, through the real checkout: the lockers come from the PUDO
 * fake (PICKUP_POINTS_ZA=pudo), the order keeps the one chosen and its fee, and the parcel is booked
 * to it with the market's courier (the store's own here).
 */
describe('PUDO lockers at checkout, on the order and in its booking', () => {
  let services: Services;
  let database: Database;
  let fake: FakePudo;
  const mails: MailMessage[] = [];

  beforeAll(async () => {
    fake = await startFakePudo();
    const config = parseConfig({ LOG_LEVEL: 'silent', PICKUP_POINTS_ZA: 'pudo', PUDO_API_KEY: fake.apiKey, PUDO_BASE_URL: fake.baseUrl });
    database = await openDatabase({ dataDir: 'memory://' });
    services = createServices({ config, db: database.db, clock: () => new Date(), log: createLogger('silent'), mailer: { send: async (m) => void mails.push(m) } });
    await seedIfEmpty(services);
  });
  afterAll(async () => {
    await database?.close();
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
    const offer = await services.pickupPoints.offer('ZA', cart.deliveryAddress);
    expect(offer).toMatchObject({ courier: 'pudo', fee: 65 });
    expect(offer!.points.map((p) => p.id)).toEqual(['CG54', 'CG12']);
    expect(await services.pickupPoints.offer('NG', cart.deliveryAddress)).toBeNull();
  });

  it('refuses a locker not offered for the address (another town, an unknown code)', async () => {
    const user = await shopperInJohannesburg();
    for (const code of ['CG03', 'NOPE1']) {
      const err = await services.checkout.initiate(user, { market: 'ZA', deliveryOption: 'delivery', pickupPoint: code }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).message).toBe('This PUDO locker is not offered for your delivery address. Please choose another.');
    }
  });

  it('places an order to a locker at its fee, mails it, and books the parcel to the locker', async () => {
    const user = await shopperInJohannesburg();
    const priced = await services.cart.price(user, 'ZA');
    const started = await services.checkout.initiate(user, { market: 'ZA', deliveryOption: 'delivery', deliverySpeed: 'standard', pickupPoint: 'CG54' });
    expect(started.amount * 100).toBe(priced.subtotalMinor - priced.discountMinor + 6_500);
    await answerSimulatedPage(services, started.reference, 'pay');
    const { order } = await services.payments.fulfil(started.reference);
    expect(order.pickupPoint).toEqual({ courier: 'pudo', id: 'CG54', name: 'Rosebank Mall', address: '50 Bath Ave, Rosebank', city: 'Johannesburg', distanceKm: null });
    expect(order).toMatchObject({ deliveryOption: 'delivery', deliverySpeed: null, deliveryFee: 65, total: (priced.subtotalMinor - priced.discountMinor + 6_500) / 100 });
    const mail = mails.find((m) => m.subject.includes(order.trackingNumber))!;
    expect(mail.text).toContain('Collect from a PUDO locker: Rosebank Mall, 50 Bath Ave, Rosebank, Johannesburg (locker CG54)');

    // Ready to ship: the market's courier books it to the locker, the shopper's phone to tell.
    await services.orders.setStatus(order.id, 'processed');
    await services.shipments.runDue();
    const [shipment] = await services.db.select().from(shipments).where(eq(shipments.orderId, order.id));
    expect(shipment).toMatchObject({ status: 'booked', courier: 'manual', kind: 'delivery' });
    const facts = await shipmentLabelFacts(services.db)(shipment!.id);
    expect(facts!.to).toMatchObject({ line1: '50 Bath Ave, Rosebank', line2: 'PUDO locker Rosebank Mall (CG54)', city: 'Johannesburg', phone: '+27821234567', name: 'Thandi Nkosi' });
    const [row] = await services.db.select({ fee: orders.deliveryFeeMinor }).from(orders).where(eq(orders.id, order.id));
    expect(row!.fee).toBe(6_500);
    // The lockers were asked of PUDO, with its key, once an hour at most.
    expect(fake.calls.every((c) => c.auth === `Bearer ${fake.apiKey}`)).toBe(true);
  });

  it('without a locker, the same checkout delivers to the door at the speed\'s fee', async () => {
    const user = await shopperInJohannesburg();
    const priced = await services.cart.price(user, 'ZA');
    const started = await services.checkout.initiate(user, { market: 'ZA', deliveryOption: 'delivery' });
    expect(started.amount * 100).toBe(priced.totalMinor);
    await answerSimulatedPage(services, started.reference, 'pay');
    const { order } = await services.payments.fulfil(started.reference);
    expect(order.pickupPoint).toBeNull();
  });
});
