import { and, asc, count, desc, eq, gte, ilike, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { NotFound } from '@/lib/domain/errors';
import { toMajor } from '@/lib/domain/money';
import { apiDeliveryOption, type DeliveryOption } from '@/lib/domain/shipping';
import type { OrderDto, OrderStatus } from '@/lib/domain/orders';
import { csvChunks, type CsvCell } from '@/lib/server/infra/csv';
import type { Db } from '@/lib/server/infra/db/client';
import { pageOf, type Page } from '@/lib/server/infra/db/paging';
import { amongValuesOf, containing } from '@/lib/server/infra/db/text-search';
import { users } from '@/lib/server/accounts/tables';
import { orderDailyTotals, orderEvents, orders } from '@/lib/server/orders/tables';
import { payments } from '@/lib/server/payments/tables';
import { NEWEST_ORDERS_FIRST } from './order-reading';
import { message } from '@/lib/domain/messages';

/** The back office's orders: the filtered list, its CSV export and one order's details. Reads only. */

/** Orders read per query of a CSV export. */
const EXPORT_BATCH = 2000;

/** Filters of the back office order list (and its CSV export). */
export interface OrderFilter {
  status?: OrderStatus | undefined;
  /** Inclusive day range, YYYY-MM-DD (UTC). */
  from?: string | undefined;
  to?: string | undefined;
  /** Tracking number or e-mail (part of). */
  q?: string | undefined;
  page?: number | undefined;
  after?: string | undefined;
  before?: string | undefined;
}

export interface AdminOrderRow {
  id: string;
  trackingNumber: string;
  email: string;
  customer: string;
  status: OrderStatus;
  deliveryOption: string;
  totalMinor: number;
  currency: string;
  createdAt: Date;
}

export function createStaffOrders({ db, load }: { db: Db; load(orderId: string): Promise<OrderDto | null> }) {
  function filterWhere(f: OrderFilter): SQL | undefined {
    const parts: SQL[] = [];
    if (f.status) parts.push(eq(orders.status, f.status));
    if (f.from) parts.push(gte(orders.createdAt, new Date(`${f.from}T00:00:00Z`)));
    if (f.to) parts.push(lt(orders.createdAt, new Date(new Date(`${f.to}T00:00:00Z`).getTime() + 86_400_000)));
    const q = f.q?.trim();
    if (q) {
      const like = containing(q);
      // The matching accounts first (their e-mail's trigram index), then their orders by orders_user_idx
      // (a join read every order: 8 s at a million).
      const matchingUsers = db.select({ id: users.id }).from(users).where(ilike(users.email, like));
      parts.push(or(ilike(orders.trackingNumber, like), amongValuesOf(orders.userId, matchingUsers))!);
    }
    return parts.length ? and(...parts) : undefined;
  }

  return {
    /** Back office list: newest first, 25 a page, paged by key (infra/db/paging.ts). */
    async adminList(f: OrderFilter): Promise<Page<AdminOrderRow>> {
      const where = filterWhere(f);
      const list = await pageOf(
        (w) =>
          db
            .select({
              id: orders.id,
              trackingNumber: orders.trackingNumber,
              email: users.email,
              firstName: users.firstName,
              lastName: users.lastName,
              status: orders.status,
              deliveryOption: orders.deliveryOption,
              totalMinor: orders.totalMinor,
              currency: orders.currency,
              createdAt: orders.createdAt,
            })
            .from(orders)
            .innerJoin(users, eq(users.id, orders.userId))
            .where(and(where, w.where))
            .orderBy(...w.orderBy)
            .limit(w.limit)
            .offset(w.offset),
        NEWEST_ORDERS_FIRST,
        // Without a text search, the daily rollup counts the same orders (status and whole UTC days) in a few rows.
        async () => {
          const [t] = f.q?.trim()
            ? await db.select({ n: count() }).from(orders).where(where)
            : await db
                .select({ n: sql<number>`coalesce(sum(${orderDailyTotals.orders}), 0)::int` })
                .from(orderDailyTotals)
                .where(
                  and(
                    f.status ? eq(orderDailyTotals.status, f.status) : undefined,
                    f.from ? gte(orderDailyTotals.day, f.from) : undefined,
                    f.to ? lte(orderDailyTotals.day, f.to) : undefined,
                  ),
                );
          return t?.n ?? 0;
        },
        f,
        25,
      );
      return { ...list, rows: list.rows.map(({ firstName, lastName, ...r }) => ({ ...r, customer: `${firstName} ${lastName}` })) };
    },

    /**
     * CSV of every order matching the filter, newest first, as chunks of lines: read EXPORT_BATCH
     * orders at a time by key (created_at, id), so a million orders stream out in constant memory.
     */
    exportCsv(f: OrderFilter, batch = EXPORT_BATCH): AsyncGenerator<string> {
      // Columns are only ever appended, so spreadsheets built on the export keep working.
      const header = ['tracking_number', 'created_at', 'email', 'status', 'delivery_option', 'subtotal', 'delivery_fee', 'total', 'currency', 'discount', 'discount_code'];
      return csvChunks(header, batches());

      async function* batches(): AsyncGenerator<CsvCell[][]> {
        // The key as PostgreSQL holds it: a JavaScript Date would drop the microseconds and skip rows.
        let after: { at: string; id: string } | null = null;
        for (;;) {
          const rows = await db
            .select({
              id: orders.id,
              at: sql<string>`${orders.createdAt}::text`,
              trackingNumber: orders.trackingNumber,
              createdAt: orders.createdAt,
              email: users.email,
              status: orders.status,
              deliveryOption: orders.deliveryOption,
              subtotalMinor: orders.subtotalMinor,
              deliveryFeeMinor: orders.deliveryFeeMinor,
              totalMinor: orders.totalMinor,
              currency: orders.currency,
              discountMinor: orders.discountMinor,
              discountCode: orders.discountCode,
            })
            .from(orders)
            .innerJoin(users, eq(users.id, orders.userId))
            .where(and(filterWhere(f), after ? sql`(${orders.createdAt}, ${orders.id}) < (${after.at}::timestamptz, ${after.id}::uuid)` : undefined))
            .orderBy(desc(orders.createdAt), desc(orders.id))
            .limit(batch);
          if (rows.length === 0) return;
          yield rows.map((r) => [
            r.trackingNumber,
            r.createdAt.toISOString(),
            r.email,
            r.status,
            // The export's column keeps the API's word (`pickup`) for collecting at the boutique.
            apiDeliveryOption(r.deliveryOption as DeliveryOption),
            toMajor(r.subtotalMinor),
            toMajor(r.deliveryFeeMinor),
            toMajor(r.totalMinor),
            r.currency,
            toMajor(r.discountMinor),
            r.discountCode,
          ]);
          if (rows.length < batch) return;
          const last: { at: string; id: string } = rows.at(-1)!;
          after = { at: last.at, id: last.id };
        }
      }
    },

    /** Back office details: the order, its customer, its payment and its status history. */
    async adminDetail(orderId: string) {
      const order = await load(orderId);
      if (!order) throw new NotFound(message('order-not-found'));
      const [row] = await db
        .select({ userId: orders.userId, paymentId: orders.paymentId, email: users.email, firstName: users.firstName, lastName: users.lastName })
        .from(orders)
        .innerJoin(users, eq(users.id, orders.userId))
        .where(eq(orders.id, orderId))
        .limit(1);
      const [payment] = await db
        .select({ reference: payments.reference, provider: payments.provider, status: payments.status, amountMinor: payments.amountMinor, refundedMinor: payments.refundedMinor, currency: payments.currency })
        .from(payments)
        .where(eq(payments.id, row!.paymentId))
        .limit(1);
      const history = await db
        .select({ fromStatus: orderEvents.fromStatus, toStatus: orderEvents.toStatus, createdAt: orderEvents.createdAt, actorEmail: users.email })
        .from(orderEvents)
        .leftJoin(users, eq(users.id, orderEvents.actorId))
        .where(eq(orderEvents.orderId, orderId))
        .orderBy(asc(orderEvents.createdAt), asc(orderEvents.id));
      return {
        order,
        customer: { id: row!.userId, email: row!.email, name: `${row!.firstName} ${row!.lastName}` },
        payment: payment ?? null,
        history: [{ fromStatus: null, toStatus: 'pending', createdAt: new Date(order.createdAt), actorEmail: null }, ...history],
      };
    },
  };
}
