import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEWSLETTER_WELCOME } from '@/lib/domain/promotions';
import { applyStockMoves } from '@/lib/server/catalogue/stock';
import { users } from '@/lib/server/accounts/tables';
import { variants } from '@/lib/server/catalogue/tables';
import { payments } from '@/lib/server/payments/tables';
import { promotions } from '@/lib/server/promotions/tables';
import type { Services } from '@/lib/server/services';
import { placePodOrder, podShopper, podVariant } from '../support/pod-orders';
import { servicesFor } from '../support/services';

/**
 * The lock order of docs/architecture.md ("The path of a request"), raced on PostgreSQL: writers
 * that share rows, started at the same moment round after round, must all succeed. Taken in
 * opposite orders, one of each deadlocked pair is aborted by PostgreSQL ("deadlock detected").
 * PGlite runs one statement at a time, so only PostgreSQL can show a deadlock.
 */

async function settledClose(database: { close(): Promise<void> }, close: () => Promise<void>) {
  const end = database.close.bind(database);
  let ended: Promise<void> | undefined;
  database.close = () => (ended ??= end().then(() => new Promise((r) => setTimeout(r, 300))));
  await close();
}

const ROUNDS = 40;
/** What went wrong, with the database's own words (Drizzle puts them in the cause). */
const failuresOf = (results: PromiseSettledResult<unknown>[]) =>
  results
    .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    .map((r) => String((r.reason as { cause?: unknown })?.cause ?? r.reason).slice(0, 160));

describe('lock order on pg', () => {
  let services: Services;
  let close: () => Promise<void>;
  let database: { close(): Promise<void> };
  const owner = { id: null, email: 'owner@example.com' };

  beforeAll(async () => {
    ({ services, close, database } = await servicesFor('pg'));
  }, 180_000);
  afterAll(async () => {
    if (close) await settledClose(database, close);
  });

  it("a checkout racing a status change of another order of the same day and product: the day's totals, then its sales", async () => {
    const variant = await podVariant(services, 'NG', 1);
    await services.stock.adjust(owner, { variantId: variant.id, delta: 2 * ROUNDS, reason: 'Stock for the race' });
    const shopper = await podShopper(services);
    const placeOne = () => placePodOrder(services, { userId: shopper.id, email: shopper.email, variantId: variant.id });
    const waiting = [];
    for (let i = 0; i < ROUNDS; i++) waiting.push(await placeOne());
    const failures: string[] = [];
    for (const [i, other] of waiting.entries()) {
      // A new order locks (day, NGN, pending) in the totals, then (day, pending, product) in the
      // sales; a status change moves the other order out of the same two keys.
      const results = await Promise.allSettled([placeOne(), services.orders.setStatus(other.id, i % 2 ? 'processed' : 'cancelled')]);
      failures.push(...failuresOf(results));
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it("a pay-on-delivery start racing the placing of the same shopper's paid deposit: the shopper's row before the cart at a start, after the payment when placing", async () => {
    await services.onDelivery.setRules(owner, 'NG', { enabled: true, capMinor: 100, ceilingMinor: 100_000_000_000, depositPercent: 30, maxOpenOrders: 100 });
    const shopper = await podShopper(services);
    await services.db.update(users).set({ phoneVerifiedNumber: '+2348031234567' }).where(eq(users.id, shopper.id));
    const [me] = await services.db.select().from(users).where(eq(users.id, shopper.id));
    const variant = await podVariant(services, 'NG', 1);
    await services.stock.adjust(owner, { variantId: variant.id, delta: 4 * ROUNDS, reason: 'Stock for the race' });
    const add = () => services.cart.add(me!, { productId: variant.productId, color: variant.color ?? undefined, size: variant.size ?? undefined, quantity: 1 });
    const failures: string[] = [];
    for (let i = 0; i < ROUNDS / 4; i++) {
      await add();
      const deposit = await services.checkout.initiate(me!, { paymentMethod: 'on_delivery' });
      await services.payments.answerSimulated(deposit.reference, 'pay');
      // Placing takes the payment, then the shopper, then the cart (its bought lines); a start takes the shopper, then the cart.
      const results = await Promise.allSettled([services.payments.fulfil(deposit.reference, { userId: me!.id }), services.checkout.initiate(me!, { paymentMethod: 'on_delivery', deliverySpeed: i % 2 ? 'express' : 'standard' })]);
      failures.push(...failuresOf(results).filter((f) => /deadlock|could not serialize/i.test(f)));
      if (results[0].status === 'rejected') failures.push(`placing failed: ${String(results[0].reason).slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('two sales holding two products in opposite id orders: all variants by id, then all products by id', async () => {
    const options = await services.catalogueAdmin.formOptions();
    const sub = options.categories[0]!.subs[0]!;
    const colour = (i: number) => ({ colorId: options.colors[i]!.id, sizeId: null, stock: 10_000, sku: null });
    const input = (name: string) => ({ name, description: `${name}, sold in races`, categoryId: sub.id, active: true, priceMinor: 10_000_00 });
    // Product B is the older (lower id); a variant added to it later has a higher id than A's.
    const b = await services.catalogueAdmin.createProduct(owner, input('Race Clutch B'), colour(0));
    const a = await services.catalogueAdmin.createProduct(owner, input('Race Clutch A'), colour(0));
    const [bOld] = await services.db.select().from(variants).where(eq(variants.productId, b.id));
    const [aOnly] = await services.db.select().from(variants).where(eq(variants.productId, a.id));
    const bNew = await services.catalogueAdmin.addVariant(owner, b.id, { ...colour(1), prices: { NG: 10_000_00 } });
    expect(bOld!.id < aOnly!.id && aOnly!.id < bNew.id && b.id < a.id).toBe(true);
    const sale = (ids: number[]) => services.db.transaction((tx) => applyStockMoves(tx, ids.map((variantId) => ({ variantId, delta: -1, kind: 'order' as const }))));
    const failures: string[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      // One cart holds A's piece and B's new one, the other B's old piece and A's.
      failures.push(...failuresOf(await Promise.allSettled([sale([aOnly!.id, bNew.id]), sale([bOld!.id, aOnly!.id])])));
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('the welcome promotion edited while a payment lets go of its hold: promotion, code, then redemption', async () => {
    const [welcome] = await services.db.select().from(promotions).where(eq(promotions.systemKey, NEWSLETTER_WELCOME));
    const failures: string[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const email = `lock-${randomBytes(5).toString('hex')}@example.com`;
      const [u] = await services.db
        .insert(users)
        .values({ firstName: 'Ada', lastName: 'Obi', email, passwordHash: 'x', phoneNumber: '08000000000', country: 'nigeria' })
        .returning();
      const { code } = await services.promotions.issueWelcomeCode(email);
      const applied = await services.promotions.evaluate(code, { userId: u!.id, email, market: 'NG', currency: 'NGN', lines: [{ variantId: 1, categoryId: null, lineTotalMinor: 100_000_00 }] });
      const [payment] = await services.db
        .insert(payments)
        .values({ reference: `LOCK-${randomBytes(6).toString('hex')}`, userId: u!.id, cartId: '00000000-0000-0000-0000-000000000000', provider: 'simulated', amountMinor: 1000, currency: 'NGN', email, snapshot: {}, status: 'initialized' })
        .returning();
      await services.db.transaction((tx) => services.promotions.hold(tx, { applied, userId: u!.id, paymentId: payment!.id, currency: 'NGN' }));
      // A new percentage moves the issued codes and their redemptions to a copy of the old terms.
      const results = await Promise.allSettled([
        services.promotions.update(owner, welcome!.id, { percentOff: i % 2 ? 20 : 25 }),
        services.db.transaction((tx) => services.promotions.release(tx, payment!.id)),
      ]);
      failures.push(...failuresOf(results));
      if ((await services.promotions.redemptionOf(payment!.id))?.state !== 'released') failures.push('the hold was not released');
    }
    expect(failures).toEqual([]);
    // Every counter still equals its live redemptions (none left held).
    const rows = await services.db.execute(
      `select p.id, p.redemptions, (select count(*) from promotion_redemptions r where r.promotion_id = p.id and r.state <> 'released')::int as live from promotions p`,
    );
    for (const r of ((rows as any).rows ?? rows) as { id: number; redemptions: number; live: number }[]) expect(Number(r.redemptions), `promotion ${r.id}`).toBe(Number(r.live));
  }, 120_000);
});
