/**
 * Pay-on-delivery orders for tests of the back office's collection, made the way
 * ADR 0013 says checkout makes them: a payment row (provider 'on_delivery', amount 0, for a whole
 * order paid at the door; or a deposit paid online) and its order through orders.createPaid, in one
 * transaction, with the order's method and amount due. Independent of the checkout's own code.
 *
 * A store prepared before its server starts (`prepareStore`) lets API and end-to-end tests on
 * PGlite (whose files one process owns) start with such orders in it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { and, asc, eq, gte } from 'drizzle-orm';
import { MARKETS, type MarketCode } from '@/lib/domain/markets';
import { PICKUP_LOCATIONS } from '@/lib/domain/shipping';
import { parseConfig } from '@/lib/server/infra/config';
import { openDatabase } from '@/lib/server/infra/db/client';
import { users } from '@/lib/server/accounts/tables';
import { colors, products, sizes, variantPrices, variants } from '@/lib/server/catalogue/tables';
import { orders } from '@/lib/server/orders/tables';
import { payments } from '@/lib/server/payments/tables';
import { seedIfEmpty } from '@/lib/server/demo/seed';
import { createLogger } from '@/lib/server/infra/log';
import { createServices, type Services } from '@/lib/server/services';
import { newDatabase, newDataDir } from './server';

type Driver = 'pglite' | 'pg';

export interface PodOrder {
  id: string;
  trackingNumber: string;
  userId: string;
  email: string;
  variantId: number;
  productId: number;
  quantity: number;
  totalMinor: number;
  dueMinor: number;
  depositMinor: number;
  deliveryFeeMinor: number;
  paymentReference: string;
  currency: string;
}

/** A shopper account (not signed in anywhere) for orders placed directly. */
export async function podShopper(services: Pick<Services, 'db'>, market: MarketCode = 'NG'): Promise<{ id: string; email: string }> {
  const email = `pod-${randomBytes(5).toString('hex')}@example.com`;
  const [u] = await services.db
    .insert(users)
    .values({ firstName: 'Ada', lastName: 'Collect', email, passwordHash: 'x', phoneNumber: market === 'NG' ? '+2348031234567' : '+27821234567', country: MARKETS[market].country, verifiedAt: new Date() })
    .returning({ id: users.id });
  return { id: u!.id, email };
}

/** A variant sold in `market` with at least `minStock` units, and its price there. */
export async function podVariant(services: Pick<Services, 'db'>, market: MarketCode = 'NG', minStock = 3, skip = 0) {
  const [v] = await services.db
    .select({ id: variants.id, productId: variants.productId, name: products.name, stock: variants.stock, priceMinor: variantPrices.priceMinor, color: colors.name, size: sizes.name })
    .from(variants)
    .innerJoin(products, eq(products.id, variants.productId))
    .innerJoin(variantPrices, and(eq(variantPrices.variantId, variants.id), eq(variantPrices.market, market)))
    .leftJoin(colors, eq(colors.id, variants.colorId))
    .leftJoin(sizes, eq(sizes.id, variants.sizeId))
    .where(gte(variants.stock, minStock))
    .orderBy(asc(variants.id))
    .offset(skip)
    .limit(1);
  if (!v) throw new Error('no variant with stock');
  return v;
}

/**
 * Places a pay-on-delivery order for `userId`: whole at the door, or with `depositPercent` of the
 * total paid online first (a 'simulated' payment, fulfilled, that a refund can be made from).
 */
export async function placePodOrder(
  services: Pick<Services, 'db' | 'orders'>,
  opts: { userId: string; email: string; variantId: number; quantity?: number; market?: MarketCode; depositPercent?: number; deliveryFeeMinor?: number; pickup?: boolean; discountPercent?: number },
): Promise<PodOrder> {
  const market = opts.market ?? 'NG';
  const currency = MARKETS[market].currency;
  const quantity = opts.quantity ?? 1;
  const [v] = await services.db
    .select({ productId: variants.productId, name: products.name, priceMinor: variantPrices.priceMinor })
    .from(variants)
    .innerJoin(products, eq(products.id, variants.productId))
    .innerJoin(variantPrices, and(eq(variantPrices.variantId, variants.id), eq(variantPrices.market, market)))
    .where(eq(variants.id, opts.variantId));
  if (!v) throw new Error(`variant ${opts.variantId} is not sold in ${market}`);
  const subtotalMinor = v.priceMinor * quantity;
  const deliveryFeeMinor = opts.pickup ? 0 : (opts.deliveryFeeMinor ?? (market === 'NG' ? 500_000 : 10_000));
  // A discount code's money off (a percentage of the subtotal), all on the one line.
  const discountMinor = Math.floor((subtotalMinor * (opts.discountPercent ?? 0)) / 100);
  const totalMinor = subtotalMinor - discountMinor + deliveryFeeMinor;
  const depositMinor = opts.depositPercent ? Math.round((totalMinor * opts.depositPercent) / 100) : 0;
  const reference = `POD-${randomBytes(6).toString('hex')}`;
  const address = opts.pickup
    ? PICKUP_LOCATIONS.find((p) => p.country === MARKETS[market].country)!
    : { id: randomUUID(), name: 'Ada Collect', country: MARKETS[market].country, state: market === 'NG' ? 'Lagos' : 'Gauteng', city: 'Ikeja', address: '1 Allen Avenue', zipCode: '100001' };
  const id = await services.db.transaction(async (tx) => {
    const [payment] = await tx
      .insert(payments)
      .values({
        reference,
        userId: opts.userId,
        cartId: randomUUID(),
        provider: depositMinor > 0 ? 'simulated' : 'on_delivery',
        amountMinor: depositMinor,
        currency,
        email: opts.email,
        status: 'fulfilled',
        snapshot: { paymentMethod: 'on_delivery', dueOnDeliveryMinor: totalMinor - depositMinor },
      })
      .returning({ id: payments.id });
    const orderId = await services.orders.createPaid(tx, {
      userId: opts.userId,
      paymentId: payment!.id,
      currency,
      deliveryOption: opts.pickup ? 'collect' : 'delivery',
      deliveryAddress: address,
      subtotalMinor,
      discountMinor,
      deliveryFeeMinor,
      totalMinor,
      // As checkout places it: what is left to pay at the door makes it an order paid when collected.
      ...(totalMinor - depositMinor > 0 ? { paymentMethod: 'on_delivery' as const, dueOnDeliveryMinor: totalMinor - depositMinor } : {}),
      lines: [
        {
          productId: v.productId,
          variantId: opts.variantId,
          productName: v.name,
          productImage: '/favicon.svg',
          color: null,
          size: null,
          quantity,
          unitPriceMinor: v.priceMinor,
          lineTotalMinor: subtotalMinor,
          discountMinor,
        },
      ],
    });
    await tx.update(orders).set({ paymentMethod: 'on_delivery', dueOnDeliveryMinor: totalMinor - depositMinor }).where(eq(orders.id, orderId));
    return orderId;
  });
  const [row] = await services.db.select({ trackingNumber: orders.trackingNumber }).from(orders).where(eq(orders.id, id));
  return {
    id,
    trackingNumber: row!.trackingNumber,
    userId: opts.userId,
    email: opts.email,
    variantId: opts.variantId,
    productId: v.productId,
    quantity,
    totalMinor,
    dueMinor: totalMinor - depositMinor,
    depositMinor,
    deliveryFeeMinor,
    paymentReference: reference,
    currency,
  };
}

export interface PreparedStore {
  driver: Driver;
  /** PGlite: the data directory to start the server on (env DATA_DIR). */
  dataDir?: string;
  /** PostgreSQL: the database to start the server on. */
  databaseUrl?: string;
  /** Removes the data (after the server has stopped). */
  drop(): Promise<void>;
}

/**
 * A seeded store on a fresh database, with whatever `fill` puts in it through in-process services,
 * closed again so a server can start on it.
 */
export async function prepareStore<T>(driver: Driver, fill: (services: Services) => Promise<T>): Promise<{ store: PreparedStore; value: T }> {
  const fresh = driver === 'pg' ? await newDatabase() : undefined;
  const dataDir = driver === 'pglite' ? newDataDir({ prefix: 'store-pod-' }) : undefined;
  const config = parseConfig({ LOG_LEVEL: 'silent', ...(fresh ? { DATABASE_URL: fresh.url } : {}) });
  const database = await openDatabase({ databaseUrl: fresh?.url, dataDir: dataDir ?? 'memory://' });
  let value: T;
  try {
    const services = createServices({ config, db: database.db, clock: () => new Date(), log: createLogger('silent') });
    await seedIfEmpty(services);
    value = await fill(services);
  } finally {
    await database.close();
  }
  return {
    value,
    store: {
      driver,
      ...(dataDir ? { dataDir } : {}),
      ...(fresh ? { databaseUrl: fresh.url } : {}),
      async drop() {
        if (dataDir) rmSync(dataDir, { recursive: true, force: true });
        await fresh?.drop();
      },
    },
  };
}
