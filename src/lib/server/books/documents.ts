import { and, asc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { dueRow, type LeasedTable } from '@/lib/server/infra/leased-work';
import { calendarDayIn } from '@/lib/domain/after-sales';
import { MARKETS, type MarketCode } from '@/lib/domain/markets';
import { rateForDay, taxNumberLabel, type TaxSettings } from '@/lib/domain/tax-settings';
import { byRate, creditNoteSplit, remainingOf, totalsOf, vatLines, type RateBucket } from '@/lib/domain/vat';
import type { AddressDto } from '@/lib/domain/shipping';
import { users } from '@/lib/server/accounts/tables';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { orderMoney, orders } from '@/lib/server/orders/tables';
import { nextDocumentNumber, type TaxDocumentKind } from './numbering';
import { fixOrderVat, marketOfCurrency } from './order-vat';
import type { TaxDocumentLine, TaxDocumentParty } from './pdf/tax-document-view';
import { taxSettingsOf } from './settings';
import { taxDocuments } from './tables';

/**
 * Tax invoices and credit notes (the one writer of tax_documents), each issued in the caller's
 * transaction, the one that moves the money: an order's invoice when it is paid (online at
 * placement, or at the door), an exchange's extra payment's invoice, and a credit note for every
 * amount given back. What a document prints is kept with it whole. A document is issued once per
 * cause (`source`, unique per order). A market that is not registered issues none.
 */

export type TaxDocument = typeof taxDocuments.$inferSelect;

/** South Africa, s.20: a full tax invoice above R5,000 (VAT included); R5,000 and below, an abridged one. */
export const ZA_FULL_INVOICE_ABOVE_MINOR = 5_000_00;

function formOf(market: MarketCode, grossMinor: number, buyerTaxNumber: string | null): 'full' | 'abridged' {
  // A vendor that gave its VAT number claims the VAT back: it gets the full form whatever the amount.
  return market === 'ZA' && grossMinor <= ZA_FULL_INVOICE_ABOVE_MINOR && !buyerTaxNumber ? 'abridged' : 'full';
}

function seller(settings: TaxSettings): TaxDocumentParty {
  return { name: settings.legalName, addressLines: settings.address.split('\n').map((l) => l.trim()).filter(Boolean), taxNumberLabel: taxNumberLabel(settings.market), taxNumber: settings.taxNumber };
}

/**
 * The buyer as the order names them: the delivery address's name and lines, or the account's name
 * for a collection; a company given at checkout comes first, with its VAT number or TIN.
 */
async function buyerOf(tx: Db | Tx, market: MarketCode, order: typeof orders.$inferSelect): Promise<TaxDocumentParty> {
  const [u] = await tx.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, order.userId)).limit(1);
  const accountName = [u?.firstName, u?.lastName].filter(Boolean).join(' ');
  const address = order.deliveryOption === 'delivery' ? (order.deliveryAddress as AddressDto | null) : null;
  const person = address?.name || accountName || 'Customer';
  const lines = address ? [address.address, [address.city, address.state].filter(Boolean).join(', '), address.zipCode].filter(Boolean) : [];
  if (!order.buyerCompany) return { name: person, addressLines: lines };
  return {
    name: order.buyerCompany,
    addressLines: [`Attn: ${person}`, ...lines],
    ...(order.buyerTaxNumber ? { taxNumberLabel: taxNumberLabel(market), taxNumber: order.buyerTaxNumber } : {}),
  };
}

interface Issue {
  market: MarketCode;
  settings: TaxSettings;
  kind: TaxDocumentKind;
  order: typeof orders.$inferSelect;
  source: string;
  lines: TaxDocumentLine[];
  reducesId?: string;
  reason?: string;
  at: Date;
}

async function issue(tx: Tx, d: Issue): Promise<TaxDocument> {
  const totals = totalsOf(d.lines);
  const year = Number(calendarDayIn(d.at, MARKETS[d.market].timeZone).slice(0, 4));
  const number = await nextDocumentNumber(tx, d.market, d.kind, year);
  const [row] = await tx
    .insert(taxDocuments)
    .values({
      number,
      market: d.market,
      kind: d.kind,
      orderId: d.order.id,
      reducesId: d.reducesId ?? null,
      source: d.source,
      form: d.kind === 'invoice' ? formOf(d.market, totals.grossMinor, d.order.buyerTaxNumber) : 'full',
      currency: d.order.currency,
      ...totals,
      seller: seller(d.settings),
      buyer: await buyerOf(tx, d.market, d.order),
      lines: d.lines,
      byRate: byRate(d.lines.map((l) => ({ ...l, basisPoints: l.vatRateBasisPoints }))),
      reason: d.reason ?? null,
      notice: d.settings.notice,
      issuedAt: d.at,
      eInvoicingNextAt: d.at,
      createdAt: d.at,
      updatedAt: d.at,
    })
    .returning();
  return row!;
}

async function registered(tx: Db | Tx, orderId: string) {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).limit(1);
  const market = order && marketOfCurrency(order.currency);
  if (!order || !market) return null;
  const settings = await taxSettingsOf(tx, market);
  return settings?.registered ? { order, market, settings } : null;
}

async function existing(tx: Db | Tx, orderId: string, source: string): Promise<TaxDocument | null> {
  const [row] = await tx.select().from(taxDocuments).where(and(eq(taxDocuments.orderId, orderId), eq(taxDocuments.source, source))).limit(1);
  return row ?? null;
}

/** The order's tax invoice, issued now (in the transaction that makes it paid) from its VAT lines; once. */
export async function issueOrderInvoice(tx: Tx, orderId: string, at: Date): Promise<TaxDocument | null> {
  const lines = await fixOrderVat(tx, orderId);
  const r = await registered(tx, orderId);
  if (!r || lines.length === 0) return null;
  const already = await existing(tx, orderId, 'order');
  if (already) return already;
  return issue(tx, {
    ...r,
    kind: 'invoice',
    source: 'order',
    lines: lines.map((l) => ({
      description: l.description,
      quantity: l.quantity,
      unitGrossMinor: l.quantity > 0 ? Math.round(l.grossMinor / l.quantity) : l.grossMinor,
      netMinor: l.netMinor,
      vatMinor: l.vatMinor,
      grossMinor: l.grossMinor,
      vatRateBasisPoints: l.rateBasisPoints,
    })),
    at,
  });
}

/** An exchange's extra payment: its own invoice, at the rate of the day it is paid. */
export async function issueDifferenceInvoice(tx: Tx, input: { orderId: string; paymentId: string; amountMinor: number; at: Date }): Promise<TaxDocument | null> {
  const r = await registered(tx, input.orderId);
  if (!r || input.amountMinor <= 0) return null;
  const source = `difference:${input.paymentId}`;
  const already = await existing(tx, input.orderId, source);
  if (already) return already;
  const rate = rateForDay(r.settings, calendarDayIn(input.at, MARKETS[r.market].timeZone));
  const [l] = vatLines([{ kind: 'item', grossMinor: input.amountMinor, basisPoints: rate }]);
  return issue(tx, {
    ...r,
    kind: 'invoice',
    source,
    lines: [{ description: 'Exchange: the difference in price', quantity: 1, unitGrossMinor: l!.grossMinor, netMinor: l!.netMinor, vatMinor: l!.vatMinor, grossMinor: l!.grossMinor, vatRateBasisPoints: l!.basisPoints }],
    at: input.at,
  });
}

/** What each of the order's invoices still carries per rate, oldest invoice first. */
async function invoicesLeft(tx: Db | Tx, orderId: string): Promise<Array<{ invoice: TaxDocument; left: RateBucket[] }>> {
  const docs = await tx.select().from(taxDocuments).where(eq(taxDocuments.orderId, orderId)).orderBy(asc(taxDocuments.issuedAt), asc(taxDocuments.number));
  return docs
    .filter((d) => d.kind === 'invoice')
    .map((invoice) => ({ invoice, left: remainingOf(invoice.byRate, docs.filter((c) => c.reducesId === invoice.id).flatMap((c) => c.byRate)) }));
}

/**
 * A credit note for an amount given back (refunded, credited as store credit, sent by transfer),
 * written in the transaction that records it, which holds the order's row lock. It reduces the
 * order's oldest invoice that still carries anything, and the next for what is beyond it; never
 * more than the invoices carry (a deposit refunded before any invoice has none to reduce).
 */
export async function issueCreditNotes(tx: Tx, input: { orderId: string; source: string; amountMinor: number; reason: string; at: Date }): Promise<TaxDocument[]> {
  const r = await registered(tx, input.orderId);
  if (!r || input.amountMinor <= 0) return [];
  const notes: TaxDocument[] = [];
  let amount = input.amountMinor;
  for (const [i, { invoice, left }] of (await invoicesLeft(tx, input.orderId)).entries()) {
    const carried = left.reduce((a, b) => a + b.grossMinor, 0);
    if (amount <= 0 || carried <= 0) continue;
    const source = i === 0 ? input.source : `${input.source}:${invoice.number}`;
    if (await existing(tx, input.orderId, source)) return notes;
    const split = creditNoteSplit(left, Math.min(amount, carried));
    notes.push(
      await issue(tx, {
        ...r,
        kind: 'credit-note',
        source,
        reducesId: invoice.id,
        reason: input.reason,
        lines: split.map((b) => ({ description: input.reason, netMinor: b.netMinor, vatMinor: b.vatMinor, grossMinor: b.grossMinor, vatRateBasisPoints: b.basisPoints })),
        at: input.at,
      }),
    );
    amount -= totalsOf(split).grossMinor;
  }
  return notes;
}

/** The credit notes issued for a return's money (its refunds, credit and transfers). */
export async function creditNotesOfReturn(tx: Db | Tx, returnId: string): Promise<TaxDocument[]> {
  return tx
    .select(getTableColumns(taxDocuments))
    .from(taxDocuments)
    .innerJoin(orderMoney, sql`${taxDocuments.source} like 'money:' || ${orderMoney.id}::text || '%'`)
    .where(and(eq(orderMoney.returnId, returnId), eq(taxDocuments.kind, 'credit-note'), eq(taxDocuments.orderId, orderMoney.orderId)))
    .orderBy(asc(taxDocuments.number));
}

/** A document as a mail's line: its title, number and where to download it. */
export function documentMailLine(doc: Pick<TaxDocument, 'kind' | 'number' | 'orderId'>, siteUrl: string): string {
  const link = new URL(`/api/v1/orders/${doc.orderId}/documents/${doc.number}.pdf`, siteUrl).toString();
  return `${doc.kind === 'invoice' ? 'Tax invoice' : 'Credit note'} ${doc.number} (PDF): ${link}`;
}

/** An order's documents, in the order they were issued. */
export async function documentsOf(tx: Db | Tx, orderId: string): Promise<TaxDocument[]> {
  return tx.select().from(taxDocuments).where(eq(taxDocuments.orderId, orderId)).orderBy(asc(taxDocuments.issuedAt), asc(taxDocuments.number));
}

export async function documentsByIds(tx: Db | Tx, ids: string[]): Promise<TaxDocument[]> {
  return ids.length ? tx.select().from(taxDocuments).where(inArray(taxDocuments.id, ids)) : [];
}

/** The documents as the e-invoicing outbox: each waits until the port has taken it once. */
const E_INVOICING: LeasedTable = {
  table: taxDocuments,
  id: taxDocuments.id,
  status: taxDocuments.eInvoicingStatus,
  nextAttemptAt: taxDocuments.eInvoicingNextAt,
  leaseUntil: taxDocuments.eInvoicingLeaseUntil,
  attempts: taxDocuments.eInvoicingAttempts,
  updatedAt: taxDocuments.updatedAt,
};

/** Claims the next document waiting for the e-invoicing port (skipping ones another server holds). */
export async function claimForEInvoicing(db: Db, now: Date, leaseMs: number): Promise<TaxDocument | null> {
  const [row] = await db
    .update(taxDocuments)
    .set({ eInvoicingLeaseUntil: new Date(now.getTime() + leaseMs), eInvoicingAttempts: sql<number>`${taxDocuments.eInvoicingAttempts} + 1`, updatedAt: now })
    .where(inArray(taxDocuments.id, dueRow(db, E_INVOICING, 'waiting', now)))
    .returning();
  return row ?? null;
}

/** The port took it: handed, with what it returned (a reference number and QR data, printed from then on). */
export async function markEInvoiced(db: Db, id: string, result: { reference?: string | null; qrData?: string | null }, now: Date): Promise<void> {
  await db
    .update(taxDocuments)
    .set({ eInvoicingStatus: 'handed', eInvoicingReference: result.reference ?? null, eInvoicingQr: result.qrData ?? null, eInvoicingLeaseUntil: null, updatedAt: now })
    .where(and(eq(taxDocuments.id, id), eq(taxDocuments.eInvoicingStatus, 'waiting')));
}

/** The port failed: the document waits again until `nextAt`. */
export async function deferEInvoicing(db: Db, id: string, nextAt: Date, now: Date): Promise<void> {
  await db.update(taxDocuments).set({ eInvoicingNextAt: nextAt, eInvoicingLeaseUntil: null, updatedAt: now }).where(and(eq(taxDocuments.id, id), eq(taxDocuments.eInvoicingStatus, 'waiting')));
}
