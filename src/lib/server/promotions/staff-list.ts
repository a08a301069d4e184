import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { NotFound } from '@/lib/domain/errors';
import type { MarketCode } from '@/lib/domain/markets';
import { message } from '@/lib/domain/messages';
import { toMajor } from '@/lib/domain/money';
import type { Db } from '@/lib/server/infra/db/client';
import { orders } from '@/lib/server/orders/tables';
import { promotionCodes, promotionRedemptions, promotions } from '@/lib/server/promotions/tables';
import type { PromotionRow } from './rows';

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

/** The back office's list and page of promotions, with uses, discount given and sales per currency. */
export function createPromotionList({ db }: { db: Db }) {
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

  return {
    /** Every promotion, newest first, with uses, discount given and sales per currency. */
    async list(): Promise<PromotionDto[]> {
      const rows = await db.select().from(promotions).orderBy(sql`${promotions.systemKey} is null`, sql`${promotions.createdAt} desc`, sql`${promotions.id} desc`);
      return dtos(rows);
    },

    async get(id: number): Promise<PromotionDto> {
      const [p] = await db.select().from(promotions).where(eq(promotions.id, id)).limit(1);
      if (!p) throw new NotFound(message('promotion-not-found'));
      return (await dtos([p]))[0]!;
    },
  };
}
