import { and, eq, sql } from 'drizzle-orm';
import { RETURN_ACTION_MOVES, returnActionAllowed, type ReturnDto } from '@/lib/domain/after-sales';
import type { ReturnActionInput } from '@/lib/domain/after-sales-input';
import { Conflict, Invalid, NotFound } from '@/lib/domain/errors';
import { message } from '@/lib/domain/messages';
import { UUID } from '@/lib/domain/validation';
import type { Actor, AuditLog } from '@/lib/server/backoffice/audit';
import { applyStockMoves, type StockMove } from '@/lib/server/catalogue/stock';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { returnItems, returns } from '@/lib/server/aftersales/tables';
import { orderItems } from '@/lib/server/orders/tables';
import type { Logger } from '@/lib/server/infra/log';
import { cacheTags, type PageCacheInvalidator } from '@/lib/server/storefront/page-cache';
import type { ReturnMails } from './mail';
import type { ReturnMoney } from './money';
import { returnDto } from './reading';
import { moveReturn, recordReceived, type ReturnRow } from './rows';

/**
 * Delivery by courier (delivery/shipments.ts): `ask` records, in the approving transaction, the
 * collection of a return's pieces from the shopper, `sendExchange` in the shipping one the
 * replacement's delivery; `bookNow` runs the worker after the commit.
 */
export interface ReturnShipments {
  ask(tx: Tx, ret: { id: string; orderId: string; currency: string }): Promise<unknown>;
  sendExchange(tx: Tx, ret: { id: string; orderId: string; currency: string }): Promise<unknown>;
  bookNow(): Promise<unknown>;
}

type Action = Exclude<ReturnActionInput['action'], 'refund'>;
type Step = { updated: ReturnRow; productIds?: number[]; differenceOwed?: boolean; details: Record<string, unknown> };

/** Locks the return for a staff action and checks the action applies now. */
export async function lockFor(tx: Tx, id: string, action: keyof typeof RETURN_ACTION_MOVES): Promise<ReturnRow> {
  if (!UUID.test(id)) throw new NotFound(message('return-not-found'));
  const [row] = await tx.select().from(returns).where(eq(returns.id, id)).for('update');
  if (!row) throw new NotFound(message('return-not-found'));
  if (row.settlingAt !== null) throw new Conflict(message('return-settling'));
  if (!returnActionAllowed(action, row.status, row.resolution)) {
    throw new Conflict(message('return-action-refused'));
  }
  return row;
}

/**
 * Staff's steps on a return (`POST /api/v1/admin/returns/{id}`): approve, reject, receive, credit,
 * ship and refund. Each runs under the return's row lock in one transaction with its audit entry
 * and its money (money.ts); the shopper is mailed after the commit.
 */
export function createReturnActions(deps: {
  db: Db;
  clock: () => Date;
  log: Logger;
  audit: AuditLog;
  money: ReturnMoney;
  mails: Pick<ReturnMails, 'acted' | 'refunded'>;
  /** Pays the refunds owed now (the refund worker's run), after a step that owes one commits. */
  payOwedRefunds?: (() => Promise<unknown>) | undefined;
  pageCache?: PageCacheInvalidator | undefined;
  /**
   * Delivery by courier (delivery/shipments.ts), see ReturnShipments.
   */
  shipments?: ReturnShipments | undefined;
}) {
  const { db, clock, log, audit, money } = deps;
  const move = (tx: Tx, row: ReturnRow, to: ReturnRow['status'], set: Partial<ReturnRow> = {}) => moveReturn(tx, row, to, clock(), set);

  const steps: { [A in Action]: (tx: Tx, row: ReturnRow, actor: Actor, input: Extract<ReturnActionInput, { action: A }>) => Promise<Step> } = {
    async approve(tx, row) {
      if (row.differenceMinor > 0 && row.differencePaidAt === null) throw new Conflict(message('return-difference-unpaid'));
      const updated = await move(tx, row, 'approved');
      // A courier collects the pieces (the shopper chose collection): booked like a delivery.
      if (row.method === 'collection') await deps.shipments?.ask(tx, row);
      return { updated, details: {} };
    },

    async reject(tx, row, actor, input) {
      // The exchange's held units go back on sale.
      const held = await tx.select().from(returnItems).where(and(eq(returnItems.returnId, row.id), sql`${returnItems.exchangeVariantId} is not null`));
      const back = await applyStockMoves(
        tx,
        held.map((h) => ({ variantId: h.exchangeVariantId!, delta: h.quantity, kind: 'exchange_release' as const, orderId: row.orderId, actorId: actor.id, reason: `Return ${row.reference} rejected` })),
        clock(),
      );
      const updated = await move(tx, row, 'rejected', { rejectionReason: input.reason });
      return { updated, productIds: back.map((b) => b.productId), differenceOwed: await money.oweDifferenceBack(tx, row), details: { reason: input.reason } };
    },

    async receive(tx, row, actor, input) {
      const lines = await tx
        .select({ id: returnItems.id, quantity: returnItems.quantity, variantId: orderItems.variantId })
        .from(returnItems)
        .innerJoin(orderItems, eq(orderItems.id, returnItems.orderItemId))
        .where(eq(returnItems.returnId, row.id));
      const moves: StockMove[] = [];
      for (const line of lines) {
        const said = input.items?.find((i) => i.id === line.id);
        const received = said?.received ?? line.quantity;
        const damaged = said?.damaged ?? 0;
        if (received > line.quantity || damaged > received) throw new Invalid(message('return-received-range'));
        await recordReceived(tx, line.id, received, damaged);
        // Only undamaged units go back on sale.
        if (received - damaged > 0) moves.push({ variantId: line.variantId, delta: received - damaged, kind: 'return', orderId: row.orderId, actorId: actor.id, reason: `Return ${row.reference} received` });
      }
      const back = await applyStockMoves(tx, moves, clock());
      const updated = await move(tx, row, 'received');
      return { updated, productIds: back.map((b) => b.productId), details: { items: input.items ?? 'all undamaged' } };
    },

    async credit(tx, row, actor) {
      const creditedMinor = await money.credit(tx, row, actor.id);
      return { updated: await move(tx, row, 'credited', { creditedMinor }), details: { creditedMinor } };
    },

    async ship(tx, row, actor) {
      // The exchange goes out with the market's courier, as a delivery (its tracking number comes from
      // the booking); a cheaper piece's difference comes back as store credit.
      const creditedMinor = await money.creditCheaperExchange(tx, row, actor.id);
      const updated = await move(tx, row, 'exchanged', { creditedMinor });
      await deps.shipments?.sendExchange(tx, row);
      return { updated, details: { creditedMinor } };
    },
  };

  async function refund(actor: Actor, id: string, input: Extract<ReturnActionInput, { action: 'refund' }>): Promise<ReturnDto> {
    const { ret, split, owed } = await db.transaction(async (tx) => {
      const row = await lockFor(tx, id, 'refund');
      const { split, owed } = await money.refund(tx, row, actor.id, input);
      const updated = await move(tx, row, 'refunded', {
        refundedMinor: split.toPaymentMinor,
        creditedMinor: split.toCreditMinor,
        transferredMinor: split.byTransferMinor,
        transferReference: split.byTransferMinor > 0 ? (input.transferReference ?? null) : null,
      });
      await audit.record(actor, { action: 'return.refund', entity: 'return', entityId: row.id, details: { reference: row.reference, outcome: owed ? 'owed' : 'settled', owedRefundId: owed?.id ?? null, ...split } }, tx);
      return { ret: await returnDto(tx, updated), split, owed };
    });
    // Paying it now spares the shopper the worker's wait; the worker pays it otherwise.
    if (owed) await deps.payOwedRefunds?.().catch((err: unknown) => log.error('paying owed refunds after a return refund failed', { returnId: id, err }));
    await deps.mails.refunded(ret, split);
    return ret;
  }

  return {
    /** A staff action on a return: each step audited and mailed to the shopper. */
    async act(actor: Actor, id: string, input: ReturnActionInput): Promise<ReturnDto> {
      if (input.action === 'refund') return refund(actor, id, input);
      const step = steps[input.action] as (tx: Tx, row: ReturnRow, actor: Actor, input: ReturnActionInput) => Promise<Step>;
      const done = await db.transaction(async (tx) => {
        const row = await lockFor(tx, id, input.action);
        const { updated, productIds = [], differenceOwed = false, details } = await step(tx, row, actor, input);
        await audit.record(actor, { action: `return.${input.action}`, entity: 'return', entityId: row.id, details: { reference: row.reference, from: row.status, ...details } }, tx);
        return { ret: await returnDto(tx, updated), productIds, differenceOwed };
      });
      // Paying it now spares the shopper the worker's wait; the worker pays it otherwise.
      if (input.action === 'approve' || input.action === 'ship') await deps.shipments?.bookNow().catch((err: unknown) => log.error('booking a return parcel failed', { returnId: id, err }));
      if (done.differenceOwed) await deps.payOwedRefunds?.().catch((err: unknown) => log.error('paying owed refunds after a rejected exchange failed', { returnId: id, err }));
      if (done.productIds.length && deps.pageCache) await deps.pageCache.invalidate([...new Set(done.productIds)].map((p) => cacheTags.product(p)));
      await deps.mails.acted(done.ret, input.action);
      return done.ret;
    },

    /**
     * "Refund": what was paid for the received units goes back where it came from (money.ts), in one
     * transaction under the return's and the order's row locks. Two refunds of one return: the second
     * finds it refunded.
     */
    refund,
  };
}
