import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '@/lib/server/accounts/tables';
import { cartItems, carts } from '@/lib/server/cart/tables';
import { searchLog } from '@/lib/server/catalogue/tables';
import { mailOutbox } from '@/lib/server/infra/tables';
import { textOutbox } from '@/lib/server/notifications/tables';
import { hashToken } from '@/lib/server/accounts/sessions';
import { createLogger } from '@/lib/server/infra/log';
import { createRetention } from '@/lib/server/operations/retention';
import { growStore } from '@/lib/server/demo/seed-scale';
import type { Services } from '@/lib/server/services';
import { DRIVERS, servicesFor, testClock } from '../support/services';

const DAY = 86_400_000;
const rowsOf = <T>(res: unknown): T[] => (res as { rows: T[] }).rows;

for (const driver of DRIVERS) {
  describe(`retention on ${driver}`, () => {
    // The store's own writes (mails at sign-up, seeded rows) are stamped by the database's clock: now.
    const clock = testClock(new Date());
    const ago = (days: number) => new Date(clock().getTime() - days * DAY);
    let services: Services;
    let close: () => Promise<void>;

    beforeAll(async () => {
      const opened = await servicesFor(driver, { clock });
      services = opened.services;
      close = opened.close;
      // A few paid orders (with their payments, money and ledgers): the books retention must keep.
      const [p] = rowsOf<{ n: number }>(await services.db.execute(sql`select count(*)::int as n from products`));
      await growStore(services.db, { products: Number(p!.n), customers: 5, orders: 20 });
    }, 120_000);
    afterAll(async () => close?.());

    const count = async (query: ReturnType<typeof sql>) => Number(rowsOf<{ n: number }>(await services.db.execute(query))[0]!.n);

    it('purges only what is past its period, and never the books', async () => {
      const db = services.db;
      const [variant] = rowsOf<{ id: number }>(await db.execute(sql`select id from variants where stock > 0 order by id limit 1`));
      const users = rowsOf<{ id: string }>(await db.execute(sql`select id from users order by created_at limit 3`));
      expect(users.length).toBeGreaterThanOrEqual(3);
      await db.delete(carts);
      await db.insert(mailOutbox).values([
        { to: 'old@example.com', subject: 'old', text: 'x', html: 'x', createdAt: ago(91) },
        { to: 'new@example.com', subject: 'new', text: 'x', html: 'x', createdAt: ago(89) },
      ]);
      await db.insert(textOutbox).values([
        { to: '+2348030000001', body: 'old', createdAt: ago(91) },
        { to: '+2348030000002', body: 'new', createdAt: ago(89) },
      ]);
      await db.insert(searchLog).values([
        { query: 'old query', results: 1, market: 'NG', createdAt: ago(366) },
        { query: 'new query', results: 1, market: 'NG', createdAt: ago(364) },
      ]);
      // Three carts untouched for 181 days: one plain (goes), one with a line added 10 days ago and
      // one with a payment still open (both stay); and one touched 179 days ago (stays).
      const [stale, freshLine, paying] = await db
        .insert(carts)
        .values([
          { userId: users[0]!.id, updatedAt: ago(181) },
          { userId: users[1]!.id, updatedAt: ago(181) },
          { userId: users[2]!.id, updatedAt: ago(181) },
        ])
        .returning({ id: carts.id });
      await db.insert(cartItems).values([
        { cartId: stale!.id, variantId: variant!.id, quantity: 1, createdAt: ago(181) },
        { cartId: freshLine!.id, variantId: variant!.id, quantity: 1, createdAt: ago(10) },
      ]);
      const account = await services.accounts.register(
        { firstName: 'Kemi', lastName: 'Ade', email: `retention.${driver}@example.com`, password: 'Lagos-2026!', phoneNumber: '+2348031234999', country: 'nigeria' },
        null,
      );
      await db.insert(carts).values({ userId: account.id, updatedAt: ago(179) });
      // An open payment of the third cart: a copy of a seeded order's payment with its own id and reference.
      await db.execute(sql`insert into payments
        select (jsonb_populate_record(null::payments, to_jsonb(p) || jsonb_build_object('id', gen_random_uuid(), 'reference', ${`RET-${driver}`}::text,
          'status', 'initialized', 'cart_id', ${paying!.id}::text, 'user_id', ${users[2]!.id}::text, 'idempotency_key', null))).*
        from payments p limit 1`);
      // Sessions: one expired yesterday, one live.
      await db.insert(sessions).values([
        { tokenHash: hashToken(`expired-${driver}`), userId: users[0]!.id, expiresAt: ago(1) },
        { tokenHash: hashToken(`live-${driver}`), userId: users[0]!.id, expiresAt: ago(-10) },
      ] as never);
      const books = sql`select (select count(*) from orders) + (select count(*) from payments) + (select count(*) from order_money) + (select count(*) from stock_ledger) + (select count(*) from store_credit_entries) as n`;
      const booksBefore = await count(books);

      const retention = createRetention({
        db,
        clock,
        log: createLogger('silent'),
        periods: { outboxDays: 90, cartDays: 180, searchDays: 365 },
        useAdvisoryLock: driver === 'pg',
        sessions: services.sessions,
        codes: services.codes,
      });
      const report = await retention.purge();
      expect(report).toMatchObject({ ran: true, mails: 1, texts: 1, carts: 1, searches: 1 });
      expect(report.sessions).toBeGreaterThanOrEqual(1);

      expect(await count(sql`select count(*)::int as n from mail_outbox where "to" = 'old@example.com'`)).toBe(0);
      expect(await count(sql`select count(*)::int as n from mail_outbox where "to" = 'new@example.com'`)).toBe(1);
      expect(await count(sql`select count(*)::int as n from text_outbox where "to" = '+2348030000002'`)).toBe(1);
      expect(await count(sql`select count(*)::int as n from search_log where query = 'new query'`)).toBe(1);
      expect(await count(sql`select count(*)::int as n from carts`)).toBe(3);
      expect(await count(sql`select count(*)::int as n from carts where id = ${stale!.id}::uuid`)).toBe(0);
      expect(await count(sql`select count(*)::int as n from sessions where token_hash = ${hashToken(`live-${driver}`)}`)).toBe(1);
      expect(await count(books)).toBe(booksBefore);
      // A second run finds nothing more.
      expect(await retention.purge()).toMatchObject({ mails: 0, texts: 0, carts: 0, searches: 0 });
    }, 120_000);
  });
}
