import { and, asc, eq, gt, gte, lt, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { MARKET_CODES, MARKETS, type MarketCode } from '@/lib/domain/markets';
import { message } from '@/lib/domain/messages';
import { toMajor } from '@/lib/domain/money';
import { isDay } from '@/lib/domain/tax-settings';
import { csvChunks, type CsvCell } from '@/lib/server/infra/csv';
import type { Db } from '@/lib/server/infra/db/client';
import { parseWith } from '@/lib/server/infra/http';
import { orders } from '@/lib/server/orders/tables';
import { taxDocuments } from './tables';

/**
 * The VAT report: for a market and a period (days of the market's calendar), the sales invoiced,
 * the credit notes, and the VAT due, by rate, read from the documents issued in the period. A
 * document belongs to the day it was issued, so a credit note issued today for an older sale falls
 * in today's period and a closed period never changes. Totals are the sums of the period's
 * documents; the CSV lists those documents one by one.
 */

export const vatReportQuery = z
  .object({
    market: z.string({ error: message('tax-market-unknown') }).transform((v) => v.trim().toUpperCase()).pipe(z.enum(MARKET_CODES, { error: message('tax-market-unknown') })),
    from: z.string({ error: message('tax-period-unknown') }).refine(isDay, message('tax-period-unknown')),
    to: z.string({ error: message('tax-period-unknown') }).refine(isDay, message('tax-period-unknown')),
  })
  .refine((q) => q.from <= q.to && Date.parse(q.to) - Date.parse(q.from) <= 366 * 86_400_000, { message: message('tax-period-unknown') });
export type VatReportQuery = z.infer<typeof vatReportQuery>;

/** The instant a calendar day begins in a time zone. */
export function startOfDayIn(day: string, timeZone: string): Date {
  const utc = new Date(`${day}T00:00:00Z`);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
      .formatToParts(utc)
      .map((p) => [p.type, p.value]),
  );
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute));
  return new Date(utc.getTime() - (wall - utc.getTime()));
}

function bounds(q: VatReportQuery): { start: Date; end: Date } {
  const zone = MARKETS[q.market].timeZone;
  const next = new Date(Date.parse(`${q.to}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return { start: startOfDayIn(q.from, zone), end: startOfDayIn(next, zone) };
}

interface Sums {
  net: number;
  vat: number;
  gross: number;
  documents: number;
}

export interface VatReport {
  market: MarketCode;
  currency: string;
  from: string;
  to: string;
  sales: Sums;
  creditNotes: Sums;
  /** VAT on sales less VAT credited: what the period owes. */
  vatDue: number;
  byRate: Array<{ ratePercent: number; salesNet: number; salesVat: number; creditedNet: number; creditedVat: number; vatDue: number }>;
}

type Row = Record<string, unknown>;
const n = (v: unknown) => Number(v ?? 0);

async function rows(db: Db, query: ReturnType<typeof sql>): Promise<Row[]> {
  const res = await db.execute(query);
  return ((res as { rows?: Row[] }).rows ?? (res as unknown as Row[])) as Row[];
}

export function createVatReport({ db }: { db: Db }) {
  return {
    parse: (input: unknown) => parseWith(vatReportQuery, input),

    async totals(input: unknown): Promise<VatReport> {
      const q = parseWith(vatReportQuery, input);
      const { start, end } = bounds(q);
      const inPeriod = sql`market = ${q.market} and issued_at >= ${start} and issued_at < ${end}`;
      const kinds = await rows(db, sql`select kind, count(*) as documents, coalesce(sum(net_minor), 0) as net, coalesce(sum(vat_minor), 0) as vat, coalesce(sum(gross_minor), 0) as gross from tax_documents where ${inPeriod} group by kind`);
      const rates = await rows(
        db,
        sql`select d.kind, (r->>'basisPoints')::int as bp, sum((r->>'netMinor')::bigint) as net, sum((r->>'vatMinor')::bigint) as vat
            from tax_documents d cross join lateral jsonb_array_elements(d.by_rate) r where ${inPeriod} group by d.kind, bp order by bp desc`,
      );
      const sums = (kind: string): Sums => {
        const r = kinds.find((k) => k.kind === kind);
        return { net: toMajor(n(r?.net)), vat: toMajor(n(r?.vat)), gross: toMajor(n(r?.gross)), documents: n(r?.documents) };
      };
      const sales = sums('invoice');
      const creditNotes = sums('credit-note');
      const bps = [...new Set(rates.map((r) => n(r.bp)))].sort((a, b) => b - a);
      const of = (kind: string, bp: number, k: 'net' | 'vat') => n(rates.find((r) => r.kind === kind && n(r.bp) === bp)?.[k]);
      return {
        market: q.market,
        currency: MARKETS[q.market].currency,
        from: q.from,
        to: q.to,
        sales,
        creditNotes,
        vatDue: toMajor(Math.round(sales.vat * 100) - Math.round(creditNotes.vat * 100)),
        byRate: bps.map((bp) => ({
          ratePercent: bp / 100,
          salesNet: toMajor(of('invoice', bp, 'net')),
          salesVat: toMajor(of('invoice', bp, 'vat')),
          creditedNet: toMajor(of('credit-note', bp, 'net')),
          creditedVat: toMajor(of('credit-note', bp, 'vat')),
          vatDue: toMajor(of('invoice', bp, 'vat') - of('credit-note', bp, 'vat')),
        })),
      };
    },

    /** Every document of the period, one row each (number, kind, date, order, net, VAT, gross), a thousand at a time. */
    csv(input: unknown): AsyncGenerator<string> {
      const q = parseWith(vatReportQuery, input);
      const { start, end } = bounds(q);
      const zone = MARKETS[q.market].timeZone;
      const day = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
      async function* batches(): AsyncGenerator<CsvCell[][]> {
        let after: { at: Date; number: string } | null = null;
        for (;;) {
          const page: Array<{ number: string; kind: 'invoice' | 'credit-note'; issuedAt: Date; order: string; net: number; vat: number; gross: number }> = await db
            .select({ number: taxDocuments.number, kind: taxDocuments.kind, issuedAt: taxDocuments.issuedAt, order: orders.trackingNumber, net: taxDocuments.netMinor, vat: taxDocuments.vatMinor, gross: taxDocuments.grossMinor })
            .from(taxDocuments)
            .innerJoin(orders, eq(orders.id, taxDocuments.orderId))
            .where(
              and(
                eq(taxDocuments.market, q.market),
                gte(taxDocuments.issuedAt, start),
                lt(taxDocuments.issuedAt, end),
                // The plain bound lets the period index start at the last page's end; the OR alone made
                // every page read the period from its start again.
                after ? gte(taxDocuments.issuedAt, after.at) : undefined,
                after ? or(gt(taxDocuments.issuedAt, after.at), and(eq(taxDocuments.issuedAt, after.at), gt(taxDocuments.number, after.number))) : undefined,
              ),
            )
            .orderBy(asc(taxDocuments.issuedAt), asc(taxDocuments.number))
            .limit(1000);
          if (page.length === 0) return;
          yield page.map((d) => [d.number, d.kind === 'invoice' ? 'Tax Invoice' : 'Credit Note', day.format(d.issuedAt), d.order, toMajor(d.net), toMajor(d.vat), toMajor(d.gross)]);
          const last = page[page.length - 1]!;
          after = { at: last.issuedAt, number: last.number };
          if (page.length < 1000) return;
        }
      }
      return csvChunks(['Number', 'Kind', 'Date', 'Order', 'Net', 'VAT', 'Gross'], batches());
    },
  };
}
export type VatReportService = ReturnType<typeof createVatReport>;
