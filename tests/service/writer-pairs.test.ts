import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@/lib/domain/errors';
import { NEWSLETTER_WELCOME } from '@/lib/domain/promotions';
import { users } from '@/lib/server/accounts/tables';
import { promotions } from '@/lib/server/promotions/tables';
import { checkMoney } from '@/lib/server/orders/money-check';
import type { Services } from '@/lib/server/services';
import { placePodOrder, podShopper, podVariant } from '../support/pod-orders';
import { servicesFor } from '../support/services';

/**
 * Every pair of writers that share rows (an order, its shopper, its product, the day's totals, a
 * promotion), started at the same moment on PostgreSQL: each may be refused by the store's rules
 * (a typed error: the order moved on, nothing left to refund…), but none may fail another way (a
 * deadlock, a serialization failure, a broken constraint). PGlite runs one statement at a time,
 * so only PostgreSQL can show a deadlock.
 */
const ROUNDS = Number(process.env.WRITER_PAIR_ROUNDS ?? 3);
const owner = { id: null, email: 'owner@example.com' };

interface Scene {
  shopper: { id: string; email: string };
  variantId: number;
  /** Delivered, 2 units, with a return asked for one: refunds and return actions. */
  delivered: string;
  returnId: string;
  /** On delivery, processed, money due at the door: the collection. */
  atTheDoor: string;
  atTheDoorDue: number;
  /** On delivery, pending: the shopper's cancel and the staff's status change. */
  pending: string;
}

describe('every pair of writers on shared rows, at once (pg)', () => {
  let services: Services;
  let close: () => Promise<void>;
  let welcomeId: number;

  beforeAll(async () => {
    ({ services, close } = await servicesFor('pg'));
    const [welcome] = await services.db.select().from(promotions).where(eq(promotions.systemKey, NEWSLETTER_WELCOME));
    welcomeId = welcome!.id;
  }, 180_000);
  afterAll(async () => close?.());

  async function scene(): Promise<Scene> {
    const variant = await podVariant(services, 'NG', 1);
    await services.stock.adjust(owner, { variantId: variant.id, delta: 10, reason: 'Stock for the race' });
    const shopper = await podShopper(services);
    const order = (o: { quantity?: number; depositPercent?: number }) => placePodOrder(services, { userId: shopper.id, email: shopper.email, variantId: variant.id, ...o });
    const delivered = await order({ quantity: 2, depositPercent: 100 });
    await services.orders.setStatus(delivered.id, 'processed');
    await services.orders.setStatus(delivered.id, 'delivered');
    const [item] = (await services.orders.getForUser(shopper.id, delivered.id)).items;
    const ret = await services.returns.request(shopper.id, delivered.id, { items: [{ orderItemId: item!.id, quantity: 1 }], reason: 'changed_mind', resolution: 'refund', method: 'drop_off' });
    const atTheDoor = await order({});
    await services.orders.setStatus(atTheDoor.id, 'processed');
    const pending = await order({});
    return { shopper, variantId: variant.id, delivered: delivered.id, returnId: ret.id, atTheDoor: atTheDoor.id, atTheDoorDue: atTheDoor.dueMinor, pending: pending.id };
  }

  const writers: Record<string, (s: Scene, round: number) => Promise<unknown>> = {
    checkout: (s) => placePodOrder(services, { userId: s.shopper.id, email: s.shopper.email, variantId: s.variantId }),
    'shopper cancel': (s) => services.orders.cancelByShopper(s.shopper.id, s.pending),
    'status change': (s) => services.orders.setStatus(s.pending, 'processed', owner),
    collection: (s) => services.collection.record(owner, s.atTheDoor, { outcome: 'paid', method: 'cash', amount: s.atTheDoorDue / 100 }),
    'return action': (s) => services.returns.act(owner, s.returnId, { action: 'approve' }),
    'line refund': (s) => services.orderRefunds.refund(s.delivered, undefined, owner, { line: { position: 1, quantity: 1 } }),
    'amount refund': (s) => services.orderRefunds.refund(s.delivered, 1000_00, owner),
    'promotion edit': (_s, round) => services.promotions.update(owner, welcomeId, { percentOff: round % 2 ? 20 : 25 }),
    'stock save': (s) => services.catalogueAdmin.setStock(s.variantId, 20, owner),
    'credit grant': (s) => services.storeCredit.grant(owner, s.shopper.id, { amountMinor: 5000_00, currency: 'NGN', reason: 'Goodwill' }),
  };
  const names = Object.keys(writers);
  const pairs = names.flatMap((a, i) => names.slice(i + 1).map((b) => [a, b] as const));

  it(`races ${pairs.length} pairs, ${ROUNDS} rounds each: refused by the rules or done, never failed`, async () => {
    const failures: string[] = [];
    const done = new Map<string, number>();
    const refused = new Map<string, string>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [a, b] of pairs) {
        const s = await scene();
        const results = await Promise.allSettled([writers[a]!(s, round), writers[b]!(s, round)]);
        for (const [i, r] of results.entries()) {
          const name = [a, b][i]!;
          if (r.status === 'fulfilled') done.set(name, (done.get(name) ?? 0) + 1);
          if (r.status === 'fulfilled' || r.reason instanceof AppError) {
            if (r.status === 'rejected') refused.set(name, (r.reason as Error).message);
            continue;
          }
          const err = r.reason as { message?: string; cause?: unknown };
          failures.push(`${[a, b][i]} (racing ${[b, a][i]}): ${String(err.cause ?? err.message ?? err).slice(0, 200)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // Each writer did write, in most of its races (a refusal now and then is the other writer winning).
    for (const name of names) expect(done.get(name) ?? 0, `${name} (last refused: ${refused.get(name)})`).toBeGreaterThan((names.length - 1) * ROUNDS * 0.5);
    // The books still add up after it all.
    expect((await checkMoney(services.db)).problems).toEqual([]);
  }, 600_000);

  /**
   * The cart before the store credit: a checkout's start spends credit under its cart's row lock,
   * and an account's erasure gives the credit up and deletes the cart; taken the other way round by
   * one of them, the two deadlock.
   */
  it('a checkout spending store credit and the erasure of its account, at once: refused by the rules or done, never failed', async () => {
    const failures: string[] = [];
    const done = { checkout: 0, erasure: 0 };
    for (let round = 0; round < ROUNDS * 4; round++) {
      const shopper = await podShopper(services);
      const v = await podVariant(services, 'NG', 3, round);
      const [user] = await services.db.select().from(users).where(eq(users.id, shopper.id));
      await services.cart.add(user!, { productId: v.productId, color: v.color ?? undefined, size: v.size ?? undefined, quantity: 1 });
      // Part of the order: the rest is paid online, so the checkout's payment stays open.
      await services.storeCredit.grant(owner, shopper.id, { amountMinor: Math.floor(v.priceMinor / 2), currency: 'NGN', reason: 'Goodwill' });
      const results = await Promise.allSettled([
        services.checkout.initiate(user!, { useStoreCredit: true }),
        services.erasure.erase(shopper.id, { giveUpCredit: true }),
      ]);
      for (const [i, r] of results.entries()) {
        const name = (['checkout', 'erasure'] as const)[i]!;
        if (r.status === 'fulfilled') done[name]++;
        else if (!(r.reason instanceof AppError)) failures.push(`${name}: ${String((r.reason as { cause?: unknown }).cause ?? (r.reason as Error).message).slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(done.checkout + done.erasure).toBeGreaterThanOrEqual(ROUNDS * 4);
    expect((await checkMoney(services.db)).problems).toEqual([]);
  }, 600_000);
});
