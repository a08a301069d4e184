import { and, count, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '@/lib/server/accounts/tables';
import { auditLog } from '@/lib/server/backoffice/tables';
import { stockLedger, variants } from '@/lib/server/catalogue/tables';
import { orderEvents, orders } from '@/lib/server/orders/tables';
import type { Services } from '@/lib/server/services';
import { applyStockMoves } from '@/lib/server/catalogue/stock';
import type { PageAt } from '@/lib/domain/paging';
import type { SessionUser } from '@/lib/server/accounts/sessions';
import { DRIVERS, servicesFor, answerSimulatedPage } from '../support/services';

/** See checkout.test.ts: let pg's sockets close before the database is dropped. */
async function settledClose(database: { close(): Promise<void> }, close: () => Promise<void>) {
  const end = database.close.bind(database);
  let ended: Promise<void> | undefined;
  database.close = () => (ended ??= end().then(() => new Promise((r) => setTimeout(r, 300))));
  await close();
}

for (const driver of DRIVERS) {
  describe(`back office services on ${driver}`, () => {
    let services: Services;
    let close: () => Promise<void>;
    let database: { close(): Promise<void> };
    let demo: SessionUser;
    let owner: SessionUser;
    const actor = () => ({ id: owner.id, email: owner.email });

    beforeAll(async () => {
      ({ services, close, database } = await servicesFor(driver));
      [demo] = (await services.db.select().from(users).where(eq(users.email, 'demo@maisonluxe.ng'))) as [SessionUser];
      [owner] = (await services.db.select().from(users).where(eq(users.email, 'owner@maisonluxe.ng'))) as [SessionUser];
    }, 120_000);
    afterAll(async () => {
      if (close) await settledClose(database, close);
    });

    const stock = async (id: number) => (await services.db.select({ s: variants.stock }).from(variants).where(eq(variants.id, id)))[0]!.s;

    it('pages the back office lists: a page below 1 is the first, the next page goes on where it stopped, the total counts every page', async () => {
      const first = await services.catalogueAdmin.listProducts({ page: 0 });
      expect(first).toMatchObject({ page: 1, pageSize: 24 });
      expect(first.rows).toHaveLength(24);
      const second = await services.catalogueAdmin.listProducts({ page: 2 });
      expect(second.page).toBe(2);
      expect(second.total).toBe(first.total);
      expect(first.total).toBeGreaterThan(24);
      const firstIds = new Set(first.rows.map((r) => r.id));
      expect(second.rows.filter((r) => firstIds.has(r.id))).toEqual([]);
      const everyUser = await services.db.select({ id: users.id }).from(users);
      const customers = await services.adminReports.customers({ page: -3 });
      expect(customers).toMatchObject({ page: 1, pageSize: 25, total: everyUser.length });
    });

    it('pages by key: on by `after`, back by `before` and from the end give the rows page numbers give, ties to the microsecond included', async () => {
      // Rows created in the same instant, to the microsecond, are told apart by the sort's last key.
      await services.db.execute(sql`update products set created_at = '2025-06-01 10:00:00.123456+00' where id in (select id from products order by id limit 40)`);
      await services.db.insert(users).values(
        Array.from({ length: 60 }, (_, i) => ({
          firstName: 'Keyset',
          lastName: `Shopper ${i}`,
          email: `keyset-${String(i).padStart(2, '0')}@example.test`,
          passwordHash: 'x',
          phoneNumber: `+23480${String(i).padStart(8, '0')}`,
          country: 'nigeria' as const,
          // Thirty of them in one instant, to the microsecond (set below): then by e-mail.
          createdAt: new Date(Date.UTC(2025, 5, 1, 10, 0, i)),
        })),
      );
      await services.db.execute(sql`update users set created_at = '2025-06-01 10:00:00.654321+00' where email like 'keyset-%' and email < 'keyset-30'`);
      // Staff writes recorded in one instant (the test clock stands still), then told apart by id.
      for (let i = 0; i < 60; i++) await services.audit.record(actor(), { action: 'test.keyset', entity: 'test', entityId: i });
      type Listed = { rows: { id: string | number }[]; total: number; page: number; pageSize: number; cursors: { before: string | null; after: string | null } };
      const lists: [string, (at: PageAt) => Promise<Listed>][] = [
        ['products', (at) => services.catalogueAdmin.listProducts(at)],
        ['customers', (at) => services.adminReports.customers({ ...at, q: 'keyset-' })],
        ['audit log', (at) => services.audit.list({ ...at, pageSize: 25 })],
      ];
      for (const [name, read] of lists) {
        const ids = (l: Listed) => l.rows.map((r) => r.id);
        const first = await read({ page: 1 });
        const pages = Math.ceil(first.total / first.pageSize);
        expect(pages, name).toBeGreaterThan(1);
        const byNumber: (string | number)[] = [];
        for (let p = 1; p <= pages; p++) byNumber.push(...ids(await read({ page: p })));
        expect(new Set(byNumber).size, name).toBe(first.total);

        const onwards = [...ids(first)];
        let at = first;
        while (at.cursors.after) {
          at = await read({ page: at.page + 1, after: at.cursors.after });
          onwards.push(...ids(at));
        }
        expect(onwards, name).toEqual(byNumber);
        expect(at.page, name).toBe(pages);

        at = await read({ page: pages, before: 'end' });
        const back = [ids(at)];
        while (at.cursors.before) {
          at = await read({ page: at.page - 1, before: at.cursors.before });
          back.unshift(ids(at));
        }
        expect(back.flat(), name).toEqual(byNumber);
        expect(at.page, name).toBe(1);

        // A cursor that is no id of the list is ignored: the page by its number.
        for (const bad of ['nonsense', '99999999999', '00000000-0000-0000-0000-00000000000g']) {
          expect(ids(await read({ page: 2, after: bad })), `${name} ${bad}`).toEqual(byNumber.slice(first.pageSize, 2 * first.pageSize));
        }
      }
    });

    it('seeds an opening ledger entry per variant, so the ledger adds up to stock on hand', async () => {
      expect(await services.stock.mismatches()).toEqual([]);
      const openings = await services.db.select().from(stockLedger).where(eq(stockLedger.kind, 'opening'));
      expect(openings.length).toBeGreaterThan(100);
    });

    it('orders take stock, cancelling returns it, adjustments need a reason; the ledger always equals stock', async () => {
      const [v] = (await services.db.select().from(variants).orderBy(variants.id)).filter((r) => r.stock >= 3 && r.sizeId === null);
      const product = await services.catalogue.getProduct(v!.productId);
      const color = product.variants.find((x) => x.id === v!.id)!.color ?? undefined;
      const before = v!.stock;
      await services.cart.add(demo, { productId: v!.productId, color, size: undefined, quantity: 2 });
      const { reference } = await services.checkout.initiate(demo, {});
      await answerSimulatedPage(services, reference, 'pay');
      const { order } = await services.payments.fulfil(reference);
      expect(await stock(v!.id)).toBe(before - 2);
      expect(await services.stock.mismatches()).toEqual([]);

      // processed, then cancelled: mails go out, stock comes back, history and audit are written
      await services.orders.setStatus(order.id, 'processed', actor());
      await expect(services.orders.setStatus(order.id, 'pending', actor())).rejects.toMatchObject({ code: 'conflict' });
      const { order: cancelled } = await services.orders.setStatus(order.trackingNumber, 'cancelled', actor());
      expect(cancelled.status).toBe('cancelled');
      expect(await stock(v!.id)).toBe(before);
      expect(await services.stock.mismatches()).toEqual([]);
      const ledger = await services.stock.ledger(v!.id);
      expect(ledger.map((l) => l.kind)).toEqual(expect.arrayContaining(['opening', 'order', 'cancellation']));
      expect(ledger.find((l) => l.kind === 'cancellation')).toMatchObject({ delta: 2, actorId: owner.id, orderId: order.id });
      const events = await services.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id));
      expect(events.map((e) => e.toStatus)).toEqual(['processed', 'cancelled']);
      const mail = await services.outbox.list(demo.email);
      expect(mail.map((m) => m.subject).join('\n')).toMatch(/being prepared/);
      expect(mail.map((m) => m.subject).join('\n')).toMatch(/has been cancelled/);
      // The body says what became of the order in words, never the status's code name.
      expect(mail.map((m) => m.text).join('\n')).toContain(`Your order ${order.trackingNumber} is being prepared.`);
      expect(mail.map((m) => m.text).join('\n')).not.toMatch(/is now (processed|cancelled)/);
      const detail = await services.orders.adminDetail(order.id);
      expect(detail.history.map((h) => h.toStatus)).toEqual(['pending', 'processed', 'cancelled']);
      // A staff cancel of a paid order gives the money back to the payment (the default).
      expect(detail.payment).toMatchObject({ reference, status: 'refunded' });

      await expect(services.stock.adjust(actor(), { variantId: v!.id, delta: 5, reason: ' ' })).rejects.toMatchObject({ code: 'invalid' });
      await expect(services.stock.adjust(actor(), { variantId: v!.id, delta: -(before + 1), reason: 'count' })).rejects.toMatchObject({ code: 'conflict' });
      await services.stock.adjust(actor(), { variantId: v!.id, delta: -1, reason: 'Damaged in store' });
      await services.catalogueAdmin.setStock(v!.id, 9, actor(), 'Stock count');
      expect(await stock(v!.id)).toBe(9);
      expect(await services.stock.mismatches()).toEqual([]);
      const audit = await services.db.select().from(auditLog);
      expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['order.status', 'stock.adjust', 'stock.set']));
      expect(audit.find((a) => a.action === 'stock.adjust')).toMatchObject({ actorEmail: owner.email, entity: 'variant', entityId: String(v!.id) });
    });

    it("the customers list shows each customer's own number of orders", async () => {
      const found = await services.adminReports.customers({ q: demo.email });
      const row = found.rows.find((r) => r.id === demo.id)!;
      const [mine] = await services.db.select({ n: count() }).from(orders).where(eq(orders.userId, demo.id));
      expect(mine!.n).toBeGreaterThan(0);
      expect(row.orders).toBe(mine!.n);
      // Every row of the first page agrees with counting.
      const page = await services.adminReports.customers({ page: 1 });
      for (const r of page.rows) {
        const [n] = await services.db.select({ n: count() }).from(orders).where(eq(orders.userId, r.id));
        expect(r.orders, r.email).toBe(n!.n);
      }
    });

    it('exports every order once, newest first, by key across batches (ties and microseconds included), and counts lists from the rollup', async () => {
      // Two more orders, then every order at one instant but a few: ties that only the id breaks, and
      // microseconds a JavaScript date would round away.
      for (let i = 0; i < 2; i++) {
        const [v] = (await services.db.select().from(variants).orderBy(variants.id)).filter((r) => r.stock >= 3 && r.sizeId === null);
        const product = await services.catalogue.getProduct(v!.productId);
        await services.cart.add(demo, { productId: v!.productId, color: product.variants.find((x) => x.id === v!.id)!.color ?? undefined, size: undefined, quantity: 1 });
        const { reference } = await services.checkout.initiate(demo, {});
        await answerSimulatedPage(services, reference, 'pay');
        await services.payments.fulfil(reference);
      }
      const all = await services.db.select({ id: orders.id }).from(orders).orderBy(orders.id);
      expect(all.length).toBeGreaterThanOrEqual(3);
      await services.db.update(orders).set({ createdAt: sql`'2026-03-01 12:00:00.123456+00'::timestamptz` }).where(inArray(orders.id, all.slice(1).map((o) => o.id)));
      await services.db.update(orders).set({ createdAt: sql`'2026-03-01 12:00:00.123999+00'::timestamptz` }).where(eq(orders.id, all[0]!.id));
      const expected = (await services.db.select({ t: orders.trackingNumber }).from(orders).orderBy(desc(orders.createdAt), desc(orders.id))).map((r) => r.t);
      const csv = (await Array.fromAsync(services.orders.exportCsv({}, 2))).join('');
      const lines = csv.trim().split('\r\n');
      expect(lines[0]).toMatch(/^tracking_number,created_at,/);
      expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(expected);

      // The list's total without a text search comes from the daily rollup: the same as counting.
      const filters: { status?: 'pending'; from?: string; to?: string; q?: string }[] = [{}, { status: 'pending' }, { from: '2026-03-01', to: '2026-03-01' }, { from: '2026-03-02' }, { q: expected[0]! }];
      for (const f of filters) {
        const where = and(
          f.status ? eq(orders.status, f.status) : undefined,
          f.from ? gte(orders.createdAt, new Date(`${f.from}T00:00:00Z`)) : undefined,
          f.to ? lt(orders.createdAt, new Date(`${f.to}T23:59:59.999Z`)) : undefined,
          f.q ? eq(orders.trackingNumber, f.q) : undefined,
        );
        const [counted] = await services.db.select({ n: count() }).from(orders).where(where);
        expect((await services.orders.adminList(f)).total, JSON.stringify(f)).toBe(counted!.n);
      }
    });

    it('a variant added while the same product is saved: both succeed, whichever comes first', async () => {
      const options = await services.catalogueAdmin.formOptions();
      const sub = options.categories[0]!.subs[0]!;
      const input = { name: 'Race Tote', description: 'A tote saved and extended at once', categoryId: sub.id, active: true };
      const { id } = await services.catalogueAdmin.createProduct(actor(), { ...input, priceMinor: 10_000_00 }, { colorId: options.colors[0]!.id, sizeId: null, stock: 1, sku: null });
      const failures: string[] = [];
      for (const [i, colour] of options.colors.slice(1, 9).entries()) {
        const results = await Promise.allSettled([
          services.catalogueAdmin.addVariant(actor(), id, { colorId: colour.id, sizeId: null, stock: 1, sku: null, prices: { NG: 20_000_00 + i } }),
          services.catalogueAdmin.saveProduct(actor(), id, { ...input, prices: { NG: 10_000_00 + i } }),
        ]);
        failures.push(...results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason)));
      }
      expect(failures).toEqual([]);
    });

    it('a sale of a product while staff save its grid: both succeed, whichever comes first', async () => {
      const options = await services.catalogueAdmin.formOptions();
      const sub = options.categories[0]!.subs[0]!;
      const input = { name: 'Sold Tote', description: 'A tote sold while its grid is saved', categoryId: sub.id, active: true };
      const { id } = await services.catalogueAdmin.createProduct(actor(), { ...input, priceMinor: 10_000_00 }, { colorId: options.colors[0]!.id, sizeId: null, stock: 500, sku: null });
      const [variant] = await services.db.select().from(variants).where(eq(variants.productId, id));
      const failures: string[] = [];
      for (let i = 0; i < 50; i++) {
        const results = await Promise.allSettled([
          // A paid order's sale, as orders.createPaid makes it: the variant's stock, then the product's sales count.
          services.db.transaction((tx) => applyStockMoves(tx, [{ variantId: variant!.id, delta: -1, kind: 'order' }])),
          services.catalogueAdmin.saveProduct(actor(), id, input, [{ variantId: variant!.id, stock: 200 + i, sku: '', prices: { NG: 11_000_00 + i } }]),
        ]);
        failures.push(...results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason).slice(0, 200)));
      }
      expect(failures).toEqual([]);
    });

    it('creates a product with variants and images, saves the grid, and keeps the ledger whole', async () => {
      const options = await services.catalogueAdmin.formOptions();
      const sub = options.categories[0]!.subs[0]!;
      const [c1, c2] = options.colors;
      const { id } = await services.catalogueAdmin.createProduct(
        actor(),
        { name: 'Test Tote', description: 'A test tote', priceMinor: 12_345_00, categoryId: sub.id, active: true },
        { colorId: c1!.id, sizeId: null, stock: 4, sku: 'TT-1' },
      );
      await services.catalogueAdmin.addVariant(actor(), id, { colorId: c2!.id, sizeId: null, stock: 2, sku: 'TT-2' });
      await expect(services.catalogueAdmin.addVariant(actor(), id, { colorId: c2!.id, sizeId: null, stock: 1, sku: 'TT-3' })).rejects.toMatchObject({ code: 'conflict' });
      await expect(services.catalogueAdmin.addVariant(actor(), id, { colorId: null, sizeId: null, stock: 1, sku: 'TT-1' })).rejects.toMatchObject({ code: 'conflict' });
      const sharp = (await import('sharp')).default;
      const png = await sharp({ create: { width: 300, height: 400, channels: 3, background: '#884422' } }).png().toBuffer();
      await services.catalogueAdmin.addImage(actor(), id, new Uint8Array(png), 'Brown tote');
      await services.catalogueAdmin.addImage(actor(), id, new Uint8Array(await sharp(png).flip().png().toBuffer()), 'Back');
      await expect(services.catalogueAdmin.addImage(actor(), id, new TextEncoder().encode('<svg/>'), 'x')).rejects.toMatchObject({ code: 'invalid' });
      let p = await services.catalogueAdmin.getProduct(id);
      expect(p.images.map((i) => i.alt)).toEqual(['Brown tote', 'Back']);
      await services.catalogueAdmin.editImage(actor(), id, p.images[1]!.id, { move: 'up' });
      p = await services.catalogueAdmin.getProduct(id);
      expect(p.images.map((i) => i.alt)).toEqual(['Back', 'Brown tote']);
      await services.catalogueAdmin.saveProduct(
        actor(),
        id,
        { name: 'Test Tote II', description: 'A test tote', priceMinor: 15_000_00, categoryId: sub.id, active: true },
        p.variants.map((v) => ({ variantId: v.id, stock: v.stock + 1, sku: v.sku })),
      );
      const shown = await services.catalogue.getProduct(id);
      expect(shown.name).toBe('Test Tote II');
      expect(shown.variants).toHaveLength(2);
      expect(await services.stock.mismatches()).toEqual([]);
      const list = await services.catalogueAdmin.listProducts({ q: 'TT-2' });
      expect(list.rows.map((r) => r.id)).toEqual([id]);
      expect(list.total).toBe(1);
      // Any part of a SKU or of the name, in any case.
      expect((await services.catalogueAdmin.listProducts({ q: 't-2' })).rows.map((r) => r.id)).toContain(id);
      expect((await services.catalogueAdmin.listProducts({ q: 'tote ii' })).rows.map((r) => r.id)).toContain(id);
    });

    it('grants and revokes staff; step-up needs the e-mailed code unless the browser is known', async () => {
      const { token } = await services.sessions.create(owner.id);
      const { hashToken } = await import('@/lib/server/accounts/sessions');
      const tokenHash = hashToken(token);
      expect((await services.sessions.resolve(token))!.staffVerified).toBe(false);
      expect(await services.staff.afterLogin({ user: owner, tokenHash, deviceId: undefined, ip: null })).toEqual({ stepUp: true });
      const [mail] = await services.outbox.list(owner.email);
      const code = /code is (\d{4})/.exec(mail!.text)![1]!;
      {
        await expect(services.staff.confirmDevice(owner, tokenHash, code === '0000' ? '0001' : '0000')).rejects.toMatchObject({ code: 'invalid' });
        const { deviceId } = await services.staff.confirmDevice(owner, tokenHash, code);
        expect((await services.sessions.resolve(token))!.staffVerified).toBe(true);
        const second = await services.sessions.create(owner.id);
        expect(await services.staff.afterLogin({ user: owner, tokenHash: hashToken(second.token), deviceId, ip: null })).toEqual({ stepUp: false });
        expect((await services.sessions.resolve(second.token))!.staffVerified).toBe(true);
      }
      expect(await services.staff.afterLogin({ user: demo, tokenHash: 'x', deviceId: undefined, ip: null })).toEqual({ stepUp: false });
      await services.staff.grant(actor(), demo.email, 'staff');
      expect((await services.staff.list()).map((s) => s.email)).toContain(demo.email);
      await services.staff.revoke(actor(), demo.email);
      expect((await services.staff.list()).map((s) => s.email)).not.toContain(demo.email);
    });
  });
}
