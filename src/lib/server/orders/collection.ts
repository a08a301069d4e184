import { issueOrderInvoice } from '@/lib/server/books/documents';
import { pageOf } from '@/lib/server/infra/db/paging';
import type { PageAt } from '@/lib/domain/paging';
import { and, count, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { CollectionInput } from '@/lib/domain/collection';
import { Conflict, Invalid, NotFound } from '@/lib/domain/errors';
import { MARKETS, type MarketCode } from '@/lib/domain/markets';
import { fill, message } from '@/lib/domain/messages';
import { formatMoney, toMajor, toMinor, type CurrencyCode } from '@/lib/domain/money';
import { canTransition } from '@/lib/domain/orders';
import type { CollectionMethod } from '@/lib/domain/payment-methods';
import type { Actor, AuditLog } from '@/lib/server/backoffice/audit';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { users, verifiedPhones } from '@/lib/server/accounts/tables';
import { orders } from '@/lib/server/orders/tables';
import { payments } from '@/lib/server/payments/tables';
import type { Logger } from '@/lib/server/infra/log';
import { cacheTags, type PageCacheInvalidator } from '@/lib/server/storefront/page-cache';
import type { OwedRefunds } from './owed-refunds';
import { recordOrderMoney } from './order-money';
import { countRefusalOnPhones, liftRefusalsOnPhones } from '@/lib/server/accounts/phone-verification';
import type { OrderService } from './orders';
import { UUID } from '@/lib/domain/validation';


export interface ToCollectRow {
  id: string;
  trackingNumber: string;
  customer: string;
  email: string;
  phoneNumber: string;
  currency: string;
  market: MarketCode | null;
  totalMinor: number;
  dueMinor: number;
  status: string;
  deliveryOption: string;
  createdAt: Date;
}

export interface CollectionResult {
  orderId: string;
  trackingNumber: string;
  outcome: 'paid' | 'refused';
  status: string;
  currency: string;
  collectedMinor: number | null;
  method: CollectionMethod | null;
  /** Refused: the deposit refunded (deposit less the delivery fee), 0 when there was none; null when the refund failed. */
  refundedMinor: number | null;
  message: string;
}

const marketOf = (currency: string): MarketCode | null => (Object.values(MARKETS).find((m) => m.currency === currency)?.code as MarketCode | undefined) ?? null;

/**
 * Staff settle a pay-on-delivery order at the door (ADR 0013): "Delivered and paid" (how,
 * and the amount, which must be what is due) or "Refused at the door" (the stock back through the
 * ledger, the refusal counted against the shopper, a deposit refunded less the delivery fee).
 * Settling takes the order's row lock, as a shopper's cancel and staff status changes do, so only
 * one of them wins. The one writer of the orders' collection columns and of users.refused_deliveries
 * (a refusal also counts against the account's verified numbers, through the phone module).
 */
/** What pay on delivery counts against an account: its refusals, or its verified number's when more. */
async function refusalsOf(tx: Db | Tx, userId: string): Promise<number> {
  const [u] = await tx
    .select({ n: users.refusedDeliveries, phone: verifiedPhones.refusedDeliveries })
    .from(users)
    .leftJoin(verifiedPhones, eq(verifiedPhones.phone, users.phoneVerifiedNumber))
    .where(eq(users.id, userId))
    .limit(1);
  return Math.max(u?.n ?? 0, u?.phone ?? 0);
}

export function createCollectionService(deps: {
  db: Db;
  orders: OrderService;
  /** The refund worker's run and an order's refunds owed: a refused delivery's deposit is owed in its transaction, then paid. */
  owedRefunds: Pick<OwedRefunds, 'runDue' | 'forOrder'>;
  audit: AuditLog;
  log: Logger;
  clock: () => Date;
  pageCache?: PageCacheInvalidator;
}) {
  const { db, clock, audit } = deps;
  const open = and(eq(orders.paymentMethod, 'on_delivery'), isNull(orders.collectionOutcome), ne(orders.status, 'cancelled'), gt(orders.dueOnDeliveryMinor, 0));

  return {
    /** The back office's "To collect" list: pay-on-delivery orders with money still due, oldest first, 25 a page. */
    async toCollect(opts: { market?: MarketCode | undefined; pageSize?: number } & PageAt = {}) {
      const where = opts.market ? and(open, eq(orders.currency, MARKETS[opts.market].currency)) : open;
      const { rows, ...shown } = await pageOf(
        (w) =>
          db
            .select({
              id: orders.id,
              trackingNumber: orders.trackingNumber,
              firstName: users.firstName,
              lastName: users.lastName,
              email: users.email,
              phoneNumber: users.phoneNumber,
              currency: orders.currency,
              totalMinor: orders.totalMinor,
              dueMinor: orders.dueOnDeliveryMinor,
              status: orders.status,
              deliveryOption: orders.deliveryOption,
              createdAt: orders.createdAt,
            })
            .from(orders)
            .innerJoin(users, eq(users.id, orders.userId))
            .where(and(where, w.where))
            .orderBy(...w.orderBy)
            .limit(w.limit)
            .offset(w.offset),
        { table: orders, id: orders.id, idKind: 'uuid', idOf: (r) => r.id, keys: [{ column: orders.createdAt, desc: false }, { column: orders.id, desc: false }] },
        async () => (await db.select({ n: count() }).from(orders).where(where))[0]?.n ?? 0,
        opts,
        opts.pageSize ?? 25,
      );
      const list: ToCollectRow[] = rows.map(({ firstName, lastName, ...r }) => ({ ...r, customer: `${firstName} ${lastName}`, market: marketOf(r.currency) }));
      return { ...shown, rows: list };
    },

    /** What an order page needs to offer settling: due (minor units) and whether it is still open. */
    async state(orderId: string) {
      if (!UUID.test(orderId)) return null;
      const [row] = await db
        .select({
          paymentMethod: orders.paymentMethod,
          dueMinor: orders.dueOnDeliveryMinor,
          outcome: orders.collectionOutcome,
          method: orders.collectionMethod,
          collectedMinor: orders.collectedMinor,
          collectedAt: orders.collectedAt,
          status: orders.status,
          currency: orders.currency,
        })
        .from(orders)
        .where(eq(orders.id, orderId))
        .limit(1);
      if (!row) return null;
      return { ...row, onDelivery: row.paymentMethod === 'on_delivery', open: row.paymentMethod === 'on_delivery' && row.outcome === null && row.status !== 'cancelled' };
    },

    /** Records what happened at the door; every step audited. */
    async record(actor: Actor, orderId: string, input: CollectionInput): Promise<CollectionResult> {
      if (!UUID.test(orderId)) throw new NotFound(message('order-not-found'));
      const settled = await db.transaction(async (tx) => {
        const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
        if (!row) throw new NotFound(message('order-not-found'));
        if (row.paymentMethod !== 'on_delivery') throw new Conflict(message('collection-not-on-delivery'));
        if (row.collectionOutcome !== null) throw new Conflict(message('collection-settled'));
        if (row.status === 'cancelled') throw new Conflict(message('collection-cancelled'));
        const now = clock();
        const currency = row.currency as CurrencyCode;
        const base = { trackingNumber: row.trackingNumber, dueMinor: row.dueOnDeliveryMinor, currency: row.currency, before: row.status };

        if (input.outcome === 'paid') {
          const amountMinor = toMinor(input.amount);
          if (amountMinor !== row.dueOnDeliveryMinor) throw new Invalid(fill('collection-amount-mismatch', formatMoney(toMajor(row.dueOnDeliveryMinor), currency)));
          await tx
            .update(orders)
            .set({ collectionOutcome: 'paid', collectionMethod: input.method, collectedMinor: amountMinor, collectedAt: now })
            .where(eq(orders.id, row.id));
          await recordOrderMoney(tx, { orderId: row.id, kind: 'collected', amountMinor, currency: row.currency, reason: input.method }, now);
          // Staff may have marked it delivered already; otherwise it is delivered now.
          const status = row.status === 'delivered' ? row.status : (await deps.orders.moveLocked(tx, row, 'delivered', { actorId: actor.id, reason: 'Delivered and paid' })).updated.status;
          await audit.record(actor, { action: 'order.collection', entity: 'order', entityId: row.id, details: { ...base, outcome: 'paid', method: input.method, collectedMinor: amountMinor, after: status } }, tx);
          // Paid at the door: the order is paid now, so its tax invoice is issued now (the numbering lock taken last).
          await issueOrderInvoice(tx, row.id, now);
          return { row, status, productIds: [] as number[], deposit: null };
        }

        if (!canTransition(row.status, 'cancelled')) throw new Conflict(message('order-transition-refused', row.status, 'cancelled'));
        await tx.update(orders).set({ collectionOutcome: 'refused', collectedAt: now }).where(eq(orders.id, row.id));
        const [payment] = await tx
          .select({ reference: payments.reference, provider: payments.provider, amountMinor: payments.amountMinor, refundedMinor: payments.refundedMinor })
          .from(payments)
          .where(eq(payments.id, row.paymentId));
        // The deposit went online; the delivery was made, so its fee is kept: deposit less fee back in all, counting what was refunded already.
        const paidOnline = payment && payment.provider !== 'on_delivery' ? payment.amountMinor : 0;
        const refundMinor = Math.max(0, paidOnline - row.deliveryFeeMinor - (payment?.refundedMinor ?? 0));
        const { updated, productIds } = await deps.orders.moveLocked(tx, row, 'cancelled', {
          actorId: actor.id,
          reason: 'Refused at the door',
          refund: { to: 'payment', amountMinor: refundMinor, reason: 'Refused at the door: the deposit less the delivery fee' },
        });
        const [user] = await tx
          .update(users)
          .set({ refusedDeliveries: sql`${users.refusedDeliveries} + 1` })
          .where(eq(users.id, row.userId))
          .returning({ refusedDeliveries: users.refusedDeliveries });
        // The account, then the numbers it holds: the refusal follows the number to any account that verifies it.
        await countRefusalOnPhones(tx, row.userId);
        await audit.record(
          actor,
          {
            action: 'order.collection',
            entity: 'order',
            entityId: row.id,
            details: { ...base, outcome: 'refused', after: updated.status, refusedDeliveries: user?.refusedDeliveries ?? null, depositRefundMinor: refundMinor },
          },
          tx,
        );
        return { row, status: updated.status, productIds, deposit: refundMinor > 0 ? refundMinor : null };
      });

      const { row, status, productIds, deposit } = settled;
      const currency = row.currency as CurrencyCode;
      if (productIds.length && deps.pageCache) await deps.pageCache.invalidate(productIds.map((id) => cacheTags.product(id)));
      const order = await deps.orders.load(row.id);
      if (order) await deps.orders.sendStatusMail(order);
      const result = { orderId: row.id, trackingNumber: row.trackingNumber, status, currency: row.currency };
      if (input.outcome === 'paid') {
        return { ...result, outcome: 'paid', collectedMinor: row.dueOnDeliveryMinor, method: input.method, refundedMinor: null, message: message('collection-paid') };
      }
      if (deposit === null) return { ...result, outcome: 'refused', collectedMinor: null, method: null, refundedMinor: 0, message: message('collection-refused') };
      // Owed in the refusal's transaction; paid now when the provider answers, by the refund worker otherwise.
      await deps.owedRefunds.runDue().catch((err: unknown) => deps.log.error('paying owed refunds after a refused delivery failed', { err, orderId: row.id }));
      const owed = (await deps.owedRefunds.forOrder(row.id)).find((r) => r.destination === 'payment' && r.reason.startsWith('Refused at the door'));
      if (owed?.status === 'paid') {
        return {
          ...result,
          outcome: 'refused',
          collectedMinor: null,
          method: null,
          refundedMinor: owed.amountMinor,
          message: fill('collection-refused-refunded', formatMoney(toMajor(owed.amountMinor), currency)),
        };
      }
      return { ...result, outcome: 'refused', collectedMinor: null, method: null, refundedMinor: null, message: message('collection-refund-failed') };
    },

    /** Staff lift a shopper's pay-on-delivery block: their refusals count from 0 again (audited). */
    async liftRefusals(actor: Actor, userId: string, refusedBefore?: number): Promise<{ before: number }> {
      if (!UUID.test(userId)) throw new NotFound(message('customer-not-found'));
      return db.transaction(async (tx) => {
        const [locked] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
        if (!locked) throw new NotFound(message('customer-not-found'));
        const u = { n: await refusalsOf(tx, userId) };
        if (refusedBefore !== undefined && u.n !== refusedBefore) throw new Conflict(message('refusals-changed'));
        await tx.update(users).set({ refusedDeliveries: 0 }).where(eq(users.id, userId));
        await liftRefusalsOnPhones(tx, userId);
        await audit.record(actor, { action: 'customer.lift-pay-on-delivery-block', entity: 'user', entityId: userId, details: { before: u.n, after: 0 } }, tx);
        return { before: u.n };
      });
    },

    /** A customer's refused deliveries since the block was last lifted (the account's, or its verified number's when more). */
    async refusals(userId: string): Promise<number> {
      if (!UUID.test(userId)) return 0;
      return refusalsOf(db, userId);
    },
  };
}
export type CollectionService = ReturnType<typeof createCollectionService>;
