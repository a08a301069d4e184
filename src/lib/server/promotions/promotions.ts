import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, isNull, lt, ne, notInArray, or, sql, TransactionRollbackError, type SQL } from 'drizzle-orm';
import { Conflict, Invalid, NotFound } from '@/lib/domain/errors';
import type { PromotionInput } from '@/lib/domain/promotion-input';
import type { MarketCode } from '@/lib/domain/markets';
import { fill, message } from '@/lib/domain/messages';
import { formatMoney, toMajor, type CurrencyCode } from '@/lib/domain/money';
import { discountMinor, NEWSLETTER_WELCOME, normaliseCode, spreadDiscount, UNPAID_HOLD_MINUTES, type DiscountRule } from '@/lib/domain/promotions';
import type { Actor, AuditLog } from '@/lib/server/backoffice/audit';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { categories, orders, payments, promotionCodes, promotionRedemptions, promotions } from '@/lib/server/infra/db/schema';
import { pgError } from '@/lib/server/infra/db/pg-errors';

/**
 * Promotions: the one writer of promotions, promotion_codes and promotion_redemptions.
 *
 * A code is checked against a cart (evaluate), takes a place under its limits when payment starts
 * (hold, in the transaction that creates the payment row), becomes a use when the order is placed
 * (use, in the order's transaction) and gives its place back when the payment fails, is declined,
 * abandoned or cannot become an order (release).
 *
 * Limits are the database's: `redemptions` counts held and used redemptions on the promotion and
 * on the code, and a hold is a conditional update (`redemptions < usage_limit`) that returns no row
 * when the place is gone, plus a CHECK that refuses a counter past its limit. Once per customer is
 * a partial unique index on (promotion, customer) over live redemptions. No read-then-write: 50
 * concurrent holds of a code limited to 1 give exactly one.
 */

export interface DiscountLine {
  variantId: number;
  categoryId: number | null;
  lineTotalMinor: number;
}
export interface CartForDiscount {
  userId: string;
  email: string;
  market: MarketCode;
  currency: CurrencyCode;
  lines: DiscountLine[];
}
export interface AppliedDiscount {
  /** Normalised (upper-case). */
  code: string;
  promotionId: number;
  codeId: number;
  /** Off the eligible subtotal, never delivery. */
  discountMinor: number;
  /** Same order as cart.lines, sums to discountMinor (spread over eligible lines, 0 for others). */
  lineDiscountsMinor: number[];
}

/** Codes issued to subscribers: 'WELCOME-' and 8 characters without look-alikes (no 0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const WELCOME_PREFIX = 'WELCOME-';

function randomCode(length = 8): string {
  // Rejection sampling keeps every character equally likely.
  const out: string[] = [];
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 256 - (256 % CODE_ALPHABET.length) && out.length < length) out.push(CODE_ALPHABET[byte % CODE_ALPHABET.length]!);
    }
  }
  return out.join('');
}

const notValid = () => new Invalid(message('code-not-valid'));
const expired = () => new Invalid(message('code-expired'));
const usedInvalid = () => new Invalid(message('code-used'));
const usedConflict = () => new Conflict(message('code-used'));

type PromotionRow = typeof promotions.$inferSelect;

/** A promotion as the back office reads it (JSON: amounts in major units, per market; money per currency). */
export interface PromotionDto {
  id: number;
  /** The shared code; null for the welcome promotion (one code per subscriber). */
  code: string | null;
  description: string;
  kind: 'percent' | 'fixed';
  percentOff: number | null;
  amountOff: Partial<Record<MarketCode, number>>;
  minSubtotal: Partial<Record<MarketCode, number>>;
  startsAt: string | null;
  endsAt: string | null;
  usageLimit: number | null;
  oncePerCustomer: boolean;
  firstOrderOnly: boolean;
  categoryIds: number[] | null;
  status: 'active' | 'paused';
  systemKey: string | null;
  codeValidDays: number | null;
  /** Orders placed with it, and payments holding it right now. */
  uses: number;
  held: number;
  /** Codes issued (the welcome promotion). */
  issuedCodes: number;
  /** Major units per currency, over placed orders. */
  discountGiven: Record<string, number>;
  sales: Record<string, number>;
  createdAt: string;
}

const majorPerMarket = (rec: Partial<Record<MarketCode, number>>) =>
  Object.fromEntries(Object.entries(rec).map(([k, v]) => [k, toMajor(Number(v))])) as Partial<Record<MarketCode, number>>;

function toDto(
  p: PromotionRow,
  code: string | null,
  uses: { used: number; held: number },
  money: { discount: Record<string, number>; sales: Record<string, number> },
  issuedCodes: number,
): PromotionDto {
  return {
    id: p.id,
    code: p.systemKey ? null : code,
    description: p.description,
    kind: p.kind,
    percentOff: p.percentOff,
    amountOff: majorPerMarket(p.amountOff),
    minSubtotal: majorPerMarket(p.minSubtotal),
    startsAt: p.startsAt?.toISOString() ?? null,
    endsAt: p.endsAt?.toISOString() ?? null,
    usageLimit: p.usageLimit,
    oncePerCustomer: p.oncePerCustomer,
    firstOrderOnly: p.firstOrderOnly,
    categoryIds: p.categoryIds,
    status: p.status,
    systemKey: p.systemKey,
    codeValidDays: p.codeValidDays,
    uses: uses.used,
    held: uses.held,
    issuedCodes,
    discountGiven: money.discount,
    sales: money.sales,
    createdAt: p.createdAt.toISOString(),
  };
}

/** A promotion's terms: the fields an input may set and the audit log keeps (its code aside, kept in promotion_codes). */
const TERMS = ['description', 'kind', 'percentOff', 'amountOff', 'minSubtotal', 'startsAt', 'endsAt', 'usageLimit', 'oncePerCustomer', 'firstOrderOnly', 'categoryIds', 'status', 'codeValidDays'] as const satisfies readonly (keyof PromotionInput & keyof typeof promotions.$inferInsert)[];

type Terms = { [K in (typeof TERMS)[number]]?: Exclude<PromotionInput[K], undefined> };

/** A promotion's fields as the audit log keeps them (dates as ISO text). */
function auditable(p: Partial<typeof promotions.$inferInsert>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of TERMS) {
    const v = p[key];
    if (v !== undefined) out[key] = v instanceof Date ? v.toISOString() : v;
  }
  return out;
}
type CodeRow = typeof promotionCodes.$inferSelect;

export function ruleOf(p: Pick<PromotionRow, 'kind' | 'percentOff' | 'amountOff'>, market: MarketCode): DiscountRule | null {
  if (p.kind === 'percent') return p.percentOff ? { kind: 'percent', percentOff: p.percentOff } : null;
  const amount = p.amountOff[market];
  return amount === undefined || amount === null || amount <= 0 ? null : { kind: 'fixed', amountOffMinor: amount };
}

export function createPromotionService(deps: { db: Db; clock: () => Date; audit?: AuditLog }) {
  const { db, clock } = deps;

  /** The back office: list with uses, discount given and sales per currency; create and change, audited. */
  function backOffice() {
    async function stats(ids: number[]) {
      if (ids.length === 0) return { uses: new Map<number, { used: number; held: number }>(), money: new Map<number, { discount: Record<string, number>; sales: Record<string, number> }>(), issued: new Map<number, number>() };
      const counts = await db
        .select({ id: promotionRedemptions.promotionId, state: promotionRedemptions.state, n: sql<number>`count(*)::int` })
        .from(promotionRedemptions)
        .where(and(inArray(promotionRedemptions.promotionId, ids), ne(promotionRedemptions.state, 'released')))
        .groupBy(promotionRedemptions.promotionId, promotionRedemptions.state);
      const sums = await db
        .select({
          id: promotionRedemptions.promotionId,
          currency: promotionRedemptions.currency,
          discount: sql<number>`coalesce(sum(${promotionRedemptions.discountMinor}), 0)::bigint`,
          sales: sql<number>`coalesce(sum(${orders.totalMinor}), 0)::bigint`,
        })
        .from(promotionRedemptions)
        .innerJoin(orders, eq(orders.id, promotionRedemptions.orderId))
        .where(and(inArray(promotionRedemptions.promotionId, ids), eq(promotionRedemptions.state, 'used')))
        .groupBy(promotionRedemptions.promotionId, promotionRedemptions.currency);
      const issuedRows = await db
        .select({ id: promotionCodes.promotionId, n: sql<number>`count(*)::int` })
        .from(promotionCodes)
        .where(and(inArray(promotionCodes.promotionId, ids), sql`${promotionCodes.email} is not null`))
        .groupBy(promotionCodes.promotionId);
      const uses = new Map<number, { used: number; held: number }>();
      for (const c of counts) {
        const u = uses.get(c.id) ?? { used: 0, held: 0 };
        u[c.state === 'used' ? 'used' : 'held'] += Number(c.n);
        uses.set(c.id, u);
      }
      const money = new Map<number, { discount: Record<string, number>; sales: Record<string, number> }>();
      for (const r of sums) {
        const m = money.get(r.id) ?? { discount: {}, sales: {} };
        m.discount[r.currency] = toMajor(Number(r.discount));
        m.sales[r.currency] = toMajor(Number(r.sales));
        money.set(r.id, m);
      }
      return { uses, money, issued: new Map(issuedRows.map((r) => [r.id, Number(r.n)])) };
    }

    async function sharedCodes(ids: number[]) {
      if (ids.length === 0) return new Map<number, string>();
      const rows = await db
        .select({ id: promotionCodes.promotionId, code: promotionCodes.code })
        .from(promotionCodes)
        .where(and(inArray(promotionCodes.promotionId, ids), isNull(promotionCodes.email)));
      return new Map(rows.map((r) => [r.id, r.code]));
    }

    async function dtos(rows: PromotionRow[]): Promise<PromotionDto[]> {
      const ids = rows.map((r) => r.id);
      const [{ uses, money, issued }, codes] = await Promise.all([stats(ids), sharedCodes(ids)]);
      return rows.map((p) => toDto(p, codes.get(p.id) ?? null, uses.get(p.id) ?? { used: 0, held: 0 }, money.get(p.id) ?? { discount: {}, sales: {} }, issued.get(p.id) ?? 0));
    }

    async function get(id: number): Promise<PromotionDto> {
      const [p] = await db.select().from(promotions).where(eq(promotions.id, id)).limit(1);
      if (!p) throw new NotFound(message('promotion-not-found'));
      return (await dtos([p]))[0]!;
    }

    /** Checks a whole promotion (the stored one with the changes) against the rules of a valid one. */
    function check(next: Omit<typeof promotions.$inferInsert, 'id'>, code: string | null, needsCode = true) {
      if (next.kind === 'percent' && !next.percentOff) throw new Invalid(message('promo-percent-required'));
      if (next.kind === 'fixed' && Object.keys(next.amountOff ?? {}).length === 0) throw new Invalid(message('promo-amount-required'));
      if (next.systemKey === NEWSLETTER_WELCOME) {
        if (next.kind !== 'percent') throw new Invalid(message('promo-welcome-percent'));
        if (code) throw new Invalid(message('promo-welcome-no-code'));
      } else if (!code && needsCode) throw new Invalid(message('promo-code-required'));
      if (next.startsAt && next.endsAt && next.endsAt.getTime() <= next.startsAt.getTime()) throw new Invalid(message('promo-end-after-start'));
    }

    function fields(input: PromotionInput) {
      // The terms the input names (one it leaves out stays as it is); each input type fits its column.
      const f: Partial<typeof promotions.$inferInsert> = Object.fromEntries(TERMS.filter((key) => input[key] !== undefined).map((key) => [key, input[key]])) as Terms;
      // One kind at a time: a percentage has no amounts, a fixed amount no percentage.
      if (f.kind === 'percent') f.amountOff = {};
      if (f.kind === 'fixed') f.percentOff = null;
      return f;
    }

    const codeTaken = () => new Conflict(message('promo-code-taken'));

    async function audited<T>(actor: Actor, entry: (result: T) => Parameters<AuditLog['record']>[1], work: (tx: Tx) => Promise<T>): Promise<T> {
      try {
        return await db.transaction(async (tx) => {
          const result = await work(tx);
          if (deps.audit) await deps.audit.record(actor, entry(result), tx);
          return result;
        });
      } catch (err) {
        const e = pgError(err);
        if (e.code === '23505' && e.constraint?.includes('code')) throw codeTaken();
        throw err;
      }
    }

    return {
      /** Every promotion, newest first, with uses, discount given and sales per currency. */
      async list(): Promise<PromotionDto[]> {
        const rows = await db.select().from(promotions).orderBy(sql`${promotions.systemKey} is null`, sql`${promotions.createdAt} desc`, sql`${promotions.id} desc`);
        return dtos(rows);
      },

      get,

      /** A new promotion with its shared code (active unless paused is asked for). */
      async create(actor: Actor, input: PromotionInput): Promise<PromotionDto> {
        if (!input.code) throw new Invalid(message('promo-code-required'));
        if (!input.kind) throw new Invalid(message('promo-kind-required'));
        const values = { kind: input.kind, ...fields(input) } as Omit<typeof promotions.$inferInsert, 'id'>;
        check(values, input.code);
        const id = await audited(
          actor,
          (promotionId: number) => ({ action: 'promotion.create', entity: 'promotion', entityId: promotionId, details: { code: input.code, ...auditable(values) } }),
          async (tx) => {
            const [row] = await tx
              .insert(promotions)
              .values({ ...values, createdAt: clock(), updatedAt: clock() })
              .returning({ id: promotions.id });
            await tx.insert(promotionCodes).values({ promotionId: row!.id, code: input.code!, createdAt: clock() });
            return row!.id;
          },
        );
        return get(id);
      },

      /** Changes what the input names. The welcome promotion's changes apply to codes issued from now on. */
      async update(actor: Actor, id: number, input: PromotionInput): Promise<PromotionDto> {
        await audited(
          actor,
          (changes: Record<string, unknown>) => ({ action: 'promotion.update', entity: 'promotion', entityId: id, details: changes }),
          async (tx) => {
            const [current] = await tx.select().from(promotions).where(eq(promotions.id, id)).for('update');
            if (!current) throw new NotFound(message('promotion-not-found'));
            const [shared] = await tx
              .select()
              .from(promotionCodes)
              .where(and(eq(promotionCodes.promotionId, id), isNull(promotionCodes.email)))
              .limit(1);
            const issued =
              (
                await tx
                  .select({ id: promotionCodes.id })
                  .from(promotionCodes)
                  .where(and(eq(promotionCodes.promotionId, id), sql`${promotionCodes.email} is not null`))
                  .limit(1)
              ).length > 0;
            const change = fields(input);
            if (current.systemKey === NEWSLETTER_WELCOME && input.code) throw new Invalid(message('promo-welcome-no-code'));
            const next = { ...current, ...change };
            const code = input.code ?? shared?.code ?? null;
            // Issued codes (the welcome promotion, or its earlier terms) need no shared code.
            check(next, current.systemKey ? null : code, !issued);
            if (next.usageLimit !== null && next.usageLimit < current.redemptions) {
              throw new Invalid(message('promo-limit-below-uses', String(current.redemptions)));
            }
            const changes: Record<string, unknown> = {};
            // The welcome mail promised its percentage: codes already issued keep it. They move to a copy
            // of the promotion with the old terms (their uses with them); the new terms apply to new codes.
            if (current.systemKey === NEWSLETTER_WELCOME && issued && change.percentOff !== undefined && change.percentOff !== current.percentOff) {
              const { id: _id, systemKey: _key, createdAt: _created, updatedAt: _updated, ...terms } = current;
              const [archive] = await tx
                .insert(promotions)
                .values({ ...terms, description: `${current.description}, ${current.percentOff}% (codes issued until ${clock().toISOString().slice(0, 10)})`, createdAt: clock(), updatedAt: clock() })
                .returning({ id: promotions.id });
              await tx.update(promotionCodes).set({ promotionId: archive!.id }).where(eq(promotionCodes.promotionId, id));
              await tx.update(promotionRedemptions).set({ promotionId: archive!.id }).where(eq(promotionRedemptions.promotionId, id));
              change.redemptions = 0;
              changes.issuedCodesKeptOn = archive!.id;
            }
            await tx.update(promotions).set({ ...change, updatedAt: clock() }).where(eq(promotions.id, id));
            if (input.code && shared && input.code !== shared.code) await tx.update(promotionCodes).set({ code: input.code }).where(eq(promotionCodes.id, shared.id));
            else if (input.code && !shared) await tx.insert(promotionCodes).values({ promotionId: id, code: input.code, createdAt: clock() });
            for (const [k, v] of Object.entries(auditable(change))) {
              const before = auditable(current as never)[k];
              if (JSON.stringify(before) !== JSON.stringify(v)) changes[k] = { from: before, to: v };
            }
            if (input.code && input.code !== shared?.code) changes.code = { from: shared?.code ?? null, to: input.code };
            return changes;
          },
        );
        return get(id);
      },
    };
  }

  /**
   * The shopper's own held redemptions of this promotion whose payment is still waiting (started,
   * not paid): a new payment replaces them, so they do not count against the shopper.
   */
  async function ownWaitingHolds(tx: Db | Tx, userId: string, promotionId: number) {
    return tx
      .select({ id: promotionRedemptions.id, codeId: promotionRedemptions.codeId, paymentId: promotionRedemptions.paymentId })
      .from(promotionRedemptions)
      .innerJoin(payments, eq(payments.id, promotionRedemptions.paymentId))
      .where(
        and(
          eq(promotionRedemptions.userId, userId),
          eq(promotionRedemptions.promotionId, promotionId),
          eq(promotionRedemptions.state, 'held'),
          eq(payments.status, 'initialized'),
        ),
      );
  }

  /**
   * held (or used, for a cancelled order) -> released for the matching rows, and their places back on the counters. Rows are locked in
   * the module's one order, promotion, code, then redemption (the order of a hold, of a use and of an
   * edit that moves redemptions): the counters first, then the redemptions still on them. One moved
   * to another promotion meanwhile (the welcome promotion's edit) is released on the next pass.
   */
  async function releaseWhere(tx: Db | Tx, where: SQL, from: 'held' | 'used' = 'held'): Promise<number> {
    let count = 0;
    for (let pass = 0; pass < 5; pass++) {
      const held = await tx
        .select({ promotionId: promotionRedemptions.promotionId, codeId: promotionRedemptions.codeId })
        .from(promotionRedemptions)
        .where(and(where, eq(promotionRedemptions.state, from)));
      if (held.length === 0) break;
      const promotionIds = [...new Set(held.map((h) => h.promotionId))];
      const codeIds = [...new Set(held.map((h) => h.codeId))];
      await tx.select({ id: promotions.id }).from(promotions).where(inArray(promotions.id, promotionIds)).orderBy(asc(promotions.id)).for('no key update');
      await tx.select({ id: promotionCodes.id }).from(promotionCodes).where(inArray(promotionCodes.id, codeIds)).orderBy(asc(promotionCodes.id)).for('no key update');
      const released = await tx
        .update(promotionRedemptions)
        .set({ state: 'released', updatedAt: clock() })
        .where(and(where, eq(promotionRedemptions.state, from), inArray(promotionRedemptions.promotionId, promotionIds), inArray(promotionRedemptions.codeId, codeIds)))
        .returning({ promotionId: promotionRedemptions.promotionId, codeId: promotionRedemptions.codeId });
      for (const r of released) {
        await tx
          .update(promotions)
          .set({ redemptions: sql`${promotions.redemptions} - 1` })
          .where(eq(promotions.id, r.promotionId));
        await tx
          .update(promotionCodes)
          .set({ redemptions: sql`${promotionCodes.redemptions} - 1` })
          .where(eq(promotionCodes.id, r.codeId));
      }
      count += released.length;
      if (released.length === held.length) break;
    }
    return count;
  }

  /**
   * This promotion's places held by payments still unpaid (initialized) after UNPAID_HOLD_MINUTES:
   * free for the next shopper. A late payment of one takes a place again when its order is placed,
   * or is refunded when none is left (use).
   */
  function unpaidTooLong(promotionId: number): SQL {
    const since = new Date(clock().getTime() - UNPAID_HOLD_MINUTES * 60_000);
    return and(
      eq(promotionRedemptions.promotionId, promotionId),
      eq(promotionRedemptions.state, 'held'),
      lt(promotionRedemptions.createdAt, since),
      sql`${promotionRedemptions.paymentId} in (select ${payments.id} from ${payments} where ${payments.status} = 'initialized')`,
    )!;
  }

  /** Takes one place on the promotion and on the code, or throws Conflict when either limit is reached. */
  async function takePlace(tx: Tx, promotionId: number, codeId: number): Promise<Pick<PromotionRow, 'oncePerCustomer' | 'firstOrderOnly'>> {
    const [p] = await tx
      .update(promotions)
      .set({ redemptions: sql`${promotions.redemptions} + 1` })
      .where(and(eq(promotions.id, promotionId), or(isNull(promotions.usageLimit), lt(promotions.redemptions, promotions.usageLimit))))
      .returning({ oncePerCustomer: promotions.oncePerCustomer, firstOrderOnly: promotions.firstOrderOnly });
    if (!p) throw usedConflict();
    const [c] = await tx
      .update(promotionCodes)
      .set({ redemptions: sql`${promotionCodes.redemptions} + 1` })
      .where(
        and(
          eq(promotionCodes.id, codeId),
          eq(promotionCodes.promotionId, promotionId),
          or(isNull(promotionCodes.usageLimit), lt(promotionCodes.redemptions, promotionCodes.usageLimit)),
        ),
      )
      .returning({ id: promotionCodes.id });
    if (!c) throw usedConflict();
    return p;
  }

  /** Whether the shopper has an order (a cancelled one does not count: it gave its code back). */
  async function hasOrder(tx: Db | Tx, userId: string): Promise<boolean> {
    const rows = await tx.select({ id: orders.id }).from(orders).where(and(eq(orders.userId, userId), ne(orders.status, 'cancelled'))).limit(1);
    return rows.length > 0;
  }

  /** Which categories count for a promotion limited to `ids`: those, and their sub-categories. */
  async function eligibleCategories(tx: Db | Tx, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const children = await tx.select({ id: categories.id }).from(categories).where(inArray(categories.parentId, ids));
    return new Set([...ids, ...children.map((c) => c.id)]);
  }

  async function evaluate(input: string, cart: CartForDiscount, tx: Db | Tx = db): Promise<AppliedDiscount> {
    const code = normaliseCode(input);
    if (!code || code.length > 64) throw notValid();
    const [row] = await tx
      .select({ p: promotions, c: promotionCodes })
      .from(promotionCodes)
      .innerJoin(promotions, eq(promotions.id, promotionCodes.promotionId))
      .where(eq(promotionCodes.code, code))
      .limit(1);
    if (!row) throw notValid();
    const { p, c } = row;
    const now = clock().getTime();
    if (p.status !== 'active') throw notValid();
    if (p.startsAt && p.startsAt.getTime() > now) throw notValid();
    if (c.email && c.email !== cart.email.trim().toLowerCase()) throw notValid();
    if ((p.endsAt && p.endsAt.getTime() <= now) || (c.expiresAt && c.expiresAt.getTime() <= now)) throw expired();
    const rule = ruleOf(p, cart.market);
    if (!rule) throw notValid();
    let eligible = cart.lines.map(() => true);
    if (p.categoryIds) {
      const allowed = await eligibleCategories(tx, p.categoryIds);
      eligible = cart.lines.map((l) => l.categoryId !== null && allowed.has(l.categoryId));
    }
    const eligibleTotals = cart.lines.map((l, i) => (eligible[i] ? l.lineTotalMinor : 0));
    const eligibleSubtotal = eligibleTotals.reduce((a, b) => a + b, 0);
    if (eligibleSubtotal <= 0) throw notValid();

    // Limits: the shopper's own waiting payment with this promotion is replaced by the next one.
    // Places held too long by unpaid payments are free too (hold releases them).
    const own = await ownWaitingHolds(tx, cart.userId, p.id);
    const free = new Map(own.map((h) => [h.id, h.codeId]));
    if (p.usageLimit !== null || c.usageLimit !== null) {
      const stale = await tx.select({ id: promotionRedemptions.id, codeId: promotionRedemptions.codeId }).from(promotionRedemptions).where(unpaidTooLong(p.id));
      for (const h of stale) free.set(h.id, h.codeId);
    }
    const freeOnCode = [...free.values()].filter((codeId) => codeId === c.id).length;
    if (p.usageLimit !== null && p.redemptions - free.size >= p.usageLimit) throw usedInvalid();
    if (c.usageLimit !== null && c.redemptions - freeOnCode >= c.usageLimit) throw usedInvalid();
    if (p.oncePerCustomer || p.firstOrderOnly) {
      const ownIds = own.map((h) => h.id);
      const live = await tx
        .select({ id: promotionRedemptions.id })
        .from(promotionRedemptions)
        .where(
          and(
            eq(promotionRedemptions.promotionId, p.id),
            eq(promotionRedemptions.userId, cart.userId),
            ne(promotionRedemptions.state, 'released'),
            ownIds.length ? notInArray(promotionRedemptions.id, ownIds) : undefined,
          ),
        )
        .limit(1);
      if (live.length) throw usedInvalid();
    }
    if (p.firstOrderOnly && (await hasOrder(tx, cart.userId))) throw usedInvalid();

    // The minimum spend is on the cart's subtotal (every line, before the discount, without delivery).
    const subtotal = cart.lines.reduce((a, l) => a + l.lineTotalMinor, 0);
    const min = p.minSubtotal[cart.market];
    if (min !== undefined && min !== null && subtotal < min) throw new Invalid(fill('code-min-spend', formatMoney(toMajor(min), cart.currency)));

    const off = discountMinor(eligibleSubtotal, rule);
    return { code, promotionId: p.id, codeId: c.id, discountMinor: off, lineDiscountsMinor: spreadDiscount(eligibleTotals, off) };
  }

  return {
    evaluate,

    /**
     * At payment start, in the transaction that creates the payment row: takes a place under the
     * limits (conditional counter updates + the redemption row; the database refuses past a limit).
     * Throws Conflict('This code has already been used.') when the place is gone.
     */
    async hold(tx: Tx, input: { applied: AppliedDiscount; userId: string; paymentId: string; currency: CurrencyCode }): Promise<void> {
      const { applied, userId, paymentId } = input;
      // The shopper's earlier payment with this promotion, never paid, is replaced by this one (a
      // late payment of it takes a place again when its order is placed, or is refunded).
      const own = await ownWaitingHolds(tx, userId, applied.promotionId);
      const ownIds = own.map((h) => h.id);
      if (ownIds.length) await releaseWhere(tx, inArray(promotionRedemptions.id, ownIds));
      await releaseWhere(tx, unpaidTooLong(applied.promotionId));
      const p = await takePlace(tx, applied.promotionId, applied.codeId);
      if (p.firstOrderOnly && (await hasOrder(tx, userId))) throw usedConflict();
      try {
        // A savepoint: the refused insert must not leave the caller's transaction aborted for its own error handling.
        await tx.transaction(async (sp) => {
          await sp.insert(promotionRedemptions).values({
            promotionId: applied.promotionId,
            codeId: applied.codeId,
            userId,
            customerKey: p.oncePerCustomer || p.firstOrderOnly ? userId : null,
            paymentId,
            state: 'held',
            discountMinor: applied.discountMinor,
            currency: input.currency,
            createdAt: clock(),
            updatedAt: clock(),
          });
        });
      } catch (err) {
        if (pgError(err).code === '23505') throw usedConflict();
        throw err;
      }
    },

    /**
     * The order is placed (same transaction as the order): held -> used. Idempotent; no-op without a
     * redemption. A redemption released meanwhile (the payment was abandoned, or replaced by a newer
     * one, and then paid after all) takes its place again, or throws Conflict when it is gone: the
     * order must not be placed with the discount (the caller refunds the payment).
     */
    async use(tx: Tx, paymentId: string, orderId: string): Promise<void> {
      // Promotion and code before the redemption (releaseWhere's order), so no lock on the redemption
      // is held while its promotion's row is awaited; a redemption that changed meanwhile is read again.
      for (let pass = 0; pass < 5; pass++) {
        const [r] = await tx.select().from(promotionRedemptions).where(eq(promotionRedemptions.paymentId, paymentId)).limit(1);
        if (!r || r.state === 'used') return;
        try {
          const used = await tx.transaction(async (sp) => {
            if (r.state === 'released') await takePlace(sp, r.promotionId, r.codeId);
            const [row] = await sp
              .update(promotionRedemptions)
              .set({ state: 'used', orderId, updatedAt: clock() })
              .where(and(eq(promotionRedemptions.id, r.id), eq(promotionRedemptions.state, r.state), eq(promotionRedemptions.promotionId, r.promotionId)))
              .returning({ id: promotionRedemptions.id });
            // Released or moved since it was read: the savepoint gives back any place just taken.
            if (!row) sp.rollback();
            return true;
          });
          if (used) return;
        } catch (err) {
          if (err instanceof TransactionRollbackError) continue;
          // Back from released while the same customer has another live one (once per customer).
          if (pgError(err).code === '23505') throw usedConflict();
          throw err;
        }
      }
      throw usedConflict();
    },

    /** Failed, declined, abandoned (or fulfilment impossible): held -> released, counters give the place back. Idempotent; no-op without one. */
    async release(tx: Db | Tx, paymentId: string): Promise<void> {
      // The state change and the counters together (a savepoint inside the caller's transaction).
      await tx.transaction(async (t) => void (await releaseWhere(t, eq(promotionRedemptions.paymentId, paymentId))));
    },

    /**
     * A cancelled order (in its transaction, under its row lock) gives its code's place back: the
     * redemption is released, so the shopper may use the code again. No-op without one.
     */
    async giveBack(tx: Tx, orderId: string): Promise<void> {
      await releaseWhere(tx, eq(promotionRedemptions.orderId, orderId), 'used');
    },

    /** A new unique code of the 'Newsletter welcome' promotion bound to this e-mail, usage limit 1, valid code_valid_days. */
    async issueWelcomeCode(email: string, tx: Db | Tx = db): Promise<{ code: string; expiresAt: Date; percentOff: number }> {
      const [p] = await tx.select().from(promotions).where(eq(promotions.systemKey, NEWSLETTER_WELCOME)).limit(1);
      if (!p) throw new Error('the Newsletter welcome promotion is missing (migration 0006)');
      const expiresAt = new Date(clock().getTime() + (p.codeValidDays ?? 30) * 86_400_000);
      for (let attempt = 0; ; attempt++) {
        const code = WELCOME_PREFIX + randomCode();
        try {
          // A savepoint (or a transaction of its own): a collision is retried without aborting the caller's transaction.
          await tx.transaction(async (sp) => {
            await sp.insert(promotionCodes).values({
              promotionId: p.id,
              code,
              email: email.trim().toLowerCase(),
              expiresAt,
              usageLimit: 1,
              createdAt: clock(),
            });
          });
          return { code, expiresAt, percentOff: p.percentOff ?? 0 };
        } catch (err) {
          if (pgError(err).code !== '23505' || attempt >= 4) throw err;
        }
      }
    },

    ...backOffice(),

    /** The code row (tests, back office). */
    async findCode(code: string, tx: Db | Tx = db): Promise<CodeRow | null> {
      const [c] = await tx.select().from(promotionCodes).where(eq(promotionCodes.code, normaliseCode(code))).limit(1);
      return c ?? null;
    },

    /** A payment's redemption, if any (tests, order views). */
    async redemptionOf(paymentId: string, tx: Db | Tx = db) {
      const [r] = await tx.select().from(promotionRedemptions).where(eq(promotionRedemptions.paymentId, paymentId)).limit(1);
      return r ?? null;
    },
  };
}
export type PromotionService = ReturnType<typeof createPromotionService>;

/** An account's deletion: codes issued to its e-mail stay bound to its anonymous address (usable by nobody else). */
export async function unbindCodesFrom(tx: Db | Tx, email: string, anonymous: string): Promise<void> {
  await tx.update(promotionCodes).set({ email: anonymous }).where(eq(promotionCodes.email, email));
}
