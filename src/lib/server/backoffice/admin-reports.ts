import { RETURN_REASON_LABELS } from '@/lib/domain/after-sales';
import { and, asc, count, desc, eq, gt, gte, ilike, inArray, isNull, ne, or, sql, sum, type SQL } from 'drizzle-orm';
import { NotFound } from '@/lib/domain/errors';
import { message } from '@/lib/domain/messages';
import type { Db } from '@/lib/server/infra/db/client';
import { pageOf } from '@/lib/server/infra/db/paging';
import { containing } from '@/lib/server/infra/db/text-search';
import type { PageAt } from '@/lib/domain/paging';
import type { ReadMemo } from '@/lib/server/infra/read-memo';
import { users } from '@/lib/server/accounts/tables';
import { returnItems, returns } from '@/lib/server/aftersales/tables';
import { orderDailyTotals, orderItems, orders, productDailySales } from '@/lib/server/orders/tables';
import { payments } from '@/lib/server/payments/tables';
import { marketOfCurrency } from '@/lib/domain/markets';


export interface PeriodFigures {
  label: string;
  orders: number;
  /** Revenue in minor units, per currency (never mixed), cancelled orders left out. */
  revenue: { currency: string; minor: number }[];
}

/**
 * How long the customers list's total (every account, no search) is kept per app server: counting
 * 200,000 accounts takes ~30 ms of the database on every page, and a sign-up a few seconds late in a
 * staff list's total is harmless. The rows themselves are always read afresh.
 */
const CUSTOMER_TOTAL_MS = 5_000;

/**
 * How long the dashboard's top products over 30 days (and the units sold beside them) are kept per
 * app server: one pass over 30 days of the per-product rollup is ~60 ms at a million orders (tens
 * of thousands of product-days), and staff opening the dashboard together would each pay it. The
 * other figures (orders, revenue, statuses, cash, returns) are read afresh every time.
 */
const TOP_PRODUCTS_MS = 15_000;

/** Read-only figures for the back office: dashboard, customers. */
export function createAdminReports({ db, clock, memo }: { db: Db; clock: () => Date; memo?: ReadMemo }) {
  const totals = memo?.shelf(1, CUSTOMER_TOTAL_MS);
  const topSellers = memo?.shelf(2, TOP_PRODUCTS_MS);
  const countUsers = async (where: SQL | undefined) => db.select({ n: count() }).from(users).where(where);
  return {
    /** Payments per state and provider, orders per market and status: what /metrics reports. */
    async storeCounts() {
      const [byPayment, byOrder] = await Promise.all([
        db.select({ state: payments.status, provider: payments.provider, n: count() }).from(payments).groupBy(payments.status, payments.provider),
        db
          .select({ currency: orderDailyTotals.currency, status: orderDailyTotals.status, n: sql<number>`sum(${orderDailyTotals.orders})::int` })
          .from(orderDailyTotals)
          .groupBy(orderDailyTotals.currency, orderDailyTotals.status),
      ]);
      return {
        payments: byPayment,
        orders: byOrder.map((r) => ({ market: marketOfCurrency(r.currency)?.code ?? r.currency, status: r.status, n: r.n })),
      };
    },

    async dashboard() {
      const now = clock();
      const startOfToday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
      const periods = [
        { label: 'Today', since: startOfToday },
        { label: '7 days', since: new Date(startOfToday.getTime() - 6 * 86_400_000) },
        { label: '30 days', since: new Date(startOfToday.getTime() - 29 * 86_400_000) },
      ];
      // Order counts and revenue come from the daily rollup (order_daily_totals, kept by the database).
      const dayOf = (d: Date) => d.toISOString().slice(0, 10);
      const since30 = periods[2]!.since;
      const [recent, byStatus] = await Promise.all([
        db
          .select({ day: orderDailyTotals.day, currency: orderDailyTotals.currency, n: sql<number>`sum(${orderDailyTotals.orders})::int`, minor: sum(orderDailyTotals.totalMinor).mapWith(Number) })
          .from(orderDailyTotals)
          .where(and(gte(orderDailyTotals.day, dayOf(since30)), ne(orderDailyTotals.status, 'cancelled')))
          .groupBy(orderDailyTotals.day, orderDailyTotals.currency)
          .having(sql`sum(${orderDailyTotals.orders}) > 0`),
        db
          .select({ status: orderDailyTotals.status, n: sql<number>`sum(${orderDailyTotals.orders})::int` })
          .from(orderDailyTotals)
          .groupBy(orderDailyTotals.status)
          .having(sql`sum(${orderDailyTotals.orders}) > 0`)
          .orderBy(asc(orderDailyTotals.status)),
      ]);
      const figures: PeriodFigures[] = periods.map((p) => {
        const rows = recent.filter((r) => r.day >= dayOf(p.since));
        const currencies = [...new Set(rows.map((r) => r.currency))].sort();
        return {
          label: p.label,
          orders: rows.reduce((n, r) => n + r.n, 0),
          revenue: currencies.map((currency) => ({ currency, minor: rows.filter((r) => r.currency === currency).reduce((m, r) => m + (r.minor ?? 0), 0) })),
        };
      });
      // Units sold come from the per-product daily rollup (product_daily_sales, kept by the database).
      const soldSince30 = and(gte(productDailySales.day, dayOf(since30)), ne(productDailySales.status, 'cancelled'));
      // One pass over 30 days of the rollup gives the top five and, beside each, every unit sold then.
      const loadTop = () =>
        db
          .select({
            productId: productDailySales.productId,
            name: productDailySales.productName,
            units: sum(productDailySales.units).mapWith(Number),
            allUnits: sql<number>`sum(sum(${productDailySales.units})) over ()`.mapWith(Number),
          })
          .from(productDailySales)
          .where(soldSince30)
          .groupBy(productDailySales.productId, productDailySales.productName)
          .having(sql`sum(${productDailySales.units}) > 0`)
          .orderBy(desc(sum(productDailySales.units)), asc(productDailySales.productId))
          .limit(5);
      const topRows = await (topSellers ? topSellers.get(`top:${dayOf(since30)}`, loadTop, () => []) : loadTop());
      const topProducts = topRows.map(({ productId, name, units }) => ({ productId, name, units }));
      const soldUnits = topRows[0]?.allUnits ?? 0;
      // One sales chart: orders' revenue per day over 30 days (store currency first).
      const daily = recent.map((r) => ({ day: r.day, currency: r.currency, minor: r.minor ?? 0 }));
      const days = Array.from({ length: 30 }, (_, i) => new Date(since30.getTime() + i * 86_400_000).toISOString().slice(0, 10));
      // Pay on delivery: money still due at the door on open orders, and what staff collected, by how.
      const cashToCollect = (
        await db
          .select({ currency: orders.currency, orders: count(), minor: sum(orders.dueOnDeliveryMinor).mapWith(Number) })
          .from(orders)
          .where(and(eq(orders.paymentMethod, 'on_delivery'), isNull(orders.collectionOutcome), ne(orders.status, 'cancelled'), gt(orders.dueOnDeliveryMinor, 0)))
          .groupBy(orders.currency)
          .orderBy(asc(orders.currency))
      ).map((r) => ({ currency: r.currency, orders: r.orders, minor: r.minor ?? 0 }));
      const cashCollected = (
        await db
          .select({ currency: orders.currency, method: orders.collectionMethod, orders: count(), minor: sum(orders.collectedMinor).mapWith(Number) })
          .from(orders)
          .where(eq(orders.collectionOutcome, 'paid'))
          .groupBy(orders.currency, orders.collectionMethod)
          .orderBy(asc(orders.currency), asc(orders.collectionMethod))
      ).map((r) => ({ currency: r.currency, method: r.method!, orders: r.orders, minor: r.minor ?? 0 }));
      // After the sale: units in live returns of orders of the last 30 days over units sold then, and why, per product.
      const returnedRows = await db
        .select({ productId: orderItems.productId, name: orderItems.productName, reason: returns.reason, units: sum(returnItems.quantity).mapWith(Number) })
        .from(returnItems)
        .innerJoin(returns, eq(returns.id, returnItems.returnId))
        .innerJoin(orderItems, eq(orderItems.id, returnItems.orderItemId))
        .innerJoin(orders, eq(orders.id, returns.orderId))
        .where(and(gte(orders.createdAt, since30), ne(returns.status, 'rejected')))
        .groupBy(orderItems.productId, orderItems.productName, returns.reason)
        .orderBy(desc(sum(returnItems.quantity)), asc(orderItems.productId));
      const returnedUnits = returnedRows.reduce((n, r) => n + (r.units ?? 0), 0);
      const returnRate = soldUnits ? returnedUnits / soldUnits : 0;
      const topReturnReasons = returnedRows.slice(0, 10).map((r) => ({ productId: r.productId, name: r.name, reason: r.reason, reasonLabel: RETURN_REASON_LABELS[r.reason], units: r.units ?? 0 }));
      return { figures, byStatus, topProducts, days, daily, cashToCollect, cashCollected, returnRate, returnedUnits, topReturnReasons };
    },

    async customers(opts: { q?: string | undefined } & PageAt) {
      const q = opts.q?.trim();
      const where = q ? or(ilike(users.email, containing(q)), ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, containing(q)), ilike(users.phoneNumber, containing(q))) : undefined;
      const counted = async () => ((await (where || !totals ? countUsers(where) : totals.get('customers', () => countUsers(undefined), () => [])))[0]?.n ?? 0);
      const shown = await pageOf(
        (w) =>
          db
            .select({
              id: users.id,
              email: users.email,
              firstName: users.firstName,
              lastName: users.lastName,
              country: users.country,
              role: users.role,
              verified: sql<boolean>`${users.verifiedAt} is not null`,
              createdAt: users.createdAt,
            })
            .from(users)
            .where(and(where, w.where))
            .orderBy(...w.orderBy)
            .limit(w.limit)
            .offset(w.offset),
        { table: users, id: users.id, idKind: 'uuid', idOf: (r) => r.id, keys: [{ column: users.createdAt, desc: true }, { column: users.email, desc: false }] },
        counted,
        opts,
        25,
      );
      // Each shown customer's orders, counted by the user index in one statement. (Not a correlated
      // subquery in the select: Drizzle writes a single-table select's columns unqualified, so
      // `"user_id" = "id"` compared orders with themselves: every count was 0, over a full scan.)
      const ids = shown.rows.map((r) => r.id);
      const counts = ids.length ? await db.select({ userId: orders.userId, n: count() }).from(orders).where(inArray(orders.userId, ids)).groupBy(orders.userId) : [];
      const ordersOf = new Map(counts.map((c) => [c.userId, c.n]));
      return { ...shown, rows: shown.rows.map((r) => ({ ...r, orders: ordersOf.get(r.id) ?? 0 })) };
    },

    async customer(id: string) {
      if (!/^[0-9a-f-]{36}$/i.test(id)) throw new NotFound(message('customer-not-found'));
      const [u] = await db
        .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, phoneNumber: users.phoneNumber, country: users.country, role: users.role, createdAt: users.createdAt })
        .from(users)
        .where(eq(users.id, id))
        .limit(1);
      if (!u) throw new NotFound(message('customer-not-found'));
      return u;
    },
  };
}
export type AdminReports = ReturnType<typeof createAdminReports>;
