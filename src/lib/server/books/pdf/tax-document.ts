import { STORE_NAME } from '@/lib/domain/brand';
import { toMajor } from '@/lib/domain/money';
import { houseDocument, type HouseDocument, type TableColumn } from '@/lib/server/infra/pdf';
import type { TaxDocumentLine, TaxDocumentParty, TaxDocumentView } from './tax-document-view';

/**
 * A tax invoice or a credit note on A4, as the VAT Act asks of it (s.20 for an invoice, full or
 * abridged; s.21 for a credit note) and as Nigeria's VAT rules ask (both parties' TINs, the rate,
 * the VAT and the gross): the title, the seller, the buyer on a full form, the serial number and
 * date, the invoice a credit note reduces and why, the lines, the totals and the VAT by rate.
 * Amounts in the market's own format (₦12,500.00, R 12 500,00), always with their cents.
 */

const TITLES = { invoice: 'Tax Invoice', 'credit-note': 'Credit Note' } as const;

/** The totals' words: an invoice charges, a credit note takes off (s.21: the reduction and its VAT). */
const TOTALS = {
  invoice: { net: 'Total excl. VAT', vat: 'VAT', gross: 'Total incl. VAT' },
  'credit-note': { net: 'Reduction excl. VAT', vat: 'VAT credited', gross: 'Total credited' },
} as const;

function formats(view: TaxDocumentView) {
  const amount = new Intl.NumberFormat(view.locale, { style: 'currency', currency: view.currency, currencyDisplay: 'narrowSymbol', minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const percent = new Intl.NumberFormat(view.locale, { style: 'percent', maximumFractionDigits: 2 });
  const date = new Intl.DateTimeFormat(view.locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: view.timeZone });
  return {
    money: (minor: number) => amount.format(toMajor(minor)),
    rate: (basisPoints: number) => percent.format(basisPoints / 10_000),
    date: (at: Date) => date.format(at),
  };
}

function taxNumberLine(party: TaxDocumentParty): string | null {
  return party.taxNumberLabel && party.taxNumber ? `${party.taxNumberLabel} ${party.taxNumber}` : null;
}

/** A party's block: its name, its address and its tax number, from (x, y) in the given width. */
function party(pdf: HouseDocument, p: TaxDocumentParty, x: number, y: number, width: number): number {
  pdf.text(p.name, 'strong', { x, y, width });
  for (const line of p.addressLines) pdf.text(line, 'body', { x, width });
  const tax = taxNumberLine(p);
  if (tax) pdf.space(2).text(tax, 'body', { x, width });
  return pdf.y;
}

/** The label and value pairs under the title, right-aligned in the header's right column. */
function meta(pdf: HouseDocument, rows: Array<[string, string]>, x: number, width: number): void {
  const labelWidth = 78;
  for (const [label, value] of rows) {
    const top = pdf.y;
    pdf.text(label, 'small', { x, y: top + 1.5, width: labelWidth });
    pdf.text(value, 'body', { x: x + labelWidth, y: top, width: width - labelWidth, align: 'right' });
    pdf.space(2);
  }
}

function lineColumns(full: boolean, width: number): TableColumn[] {
  const figures: TableColumn[] = [
    ...(full ? [{ header: 'Qty', width: 30, align: 'right' as const }] : []),
    { header: 'VAT rate', width: 52, align: 'right' },
    { header: 'Value excl. VAT', width: 88, align: 'right' },
    { header: 'VAT', width: 74, align: 'right' },
    { header: 'Total incl. VAT', width: 88, align: 'right' },
  ];
  const rest = figures.reduce((sum, c) => sum + c.width, 0);
  return [{ header: 'Description', width: width - rest }, ...figures];
}

export async function renderTaxDocumentPdf(view: TaxDocumentView): Promise<Uint8Array> {
  const f = formats(view);
  const title = TITLES[view.kind];
  const full = view.form === 'full';
  const pdf = houseDocument({ size: 'A4', title: `${title} ${view.number} · ${STORE_NAME}`, footer: `${STORE_NAME} · ${title} ${view.number}`, createdAt: view.issuedAt });

  // The header: the seller on the left under the house's name, the title and the document's facts on the right.
  const top = pdf.y;
  const leftWidth = pdf.width * 0.5;
  pdf.text(STORE_NAME, 'brand', { y: top + 6, width: leftWidth });
  const sellerEnd = party(pdf, view.seller, pdf.left, pdf.y + 14, leftWidth);
  const rightX = pdf.left + pdf.width * 0.52;
  const rightWidth = pdf.right - rightX;
  pdf.text(title, 'title', { x: rightX, y: top - 4, width: rightWidth, align: 'right' });
  pdf.space(8);
  meta(
    pdf,
    [
      ['Number', view.number],
      ['Date', f.date(view.issuedAt)],
      ['Order', view.orderNumber],
      ...(view.reduces
        ? ([
            ['Reduces', `Tax Invoice ${view.reduces.number}`],
            ['Invoice date', f.date(view.reduces.issuedAt)],
          ] as Array<[string, string]>)
        : []),
      ...(view.reason ? [['Reason', view.reason] as [string, string]] : []),
    ],
    rightX,
    rightWidth,
  );
  pdf.y = Math.max(sellerEnd, pdf.y) + 16;
  pdf.rule({ colour: 'gold' });
  pdf.space(18);

  // The buyer: on a full form only (an abridged invoice carries no buyer, s.20(5)).
  if (full && view.buyer) {
    pdf.text(view.kind === 'invoice' ? 'Bill to' : 'Issued to', 'eyebrow');
    pdf.space(4);
    party(pdf, view.buyer, pdf.left, pdf.y, leftWidth);
    pdf.space(22);
  }

  // The lines (quantities on a full form only), the headings again on every page they run on to.
  const columns = lineColumns(full, pdf.width);
  const cells = (l: TaxDocumentLine) => [l.description, ...(full ? [l.quantity === undefined ? '' : String(l.quantity)] : []), f.rate(l.vatRateBasisPoints), f.money(l.netMinor), f.money(l.vatMinor), f.money(l.grossMinor)];
  const note = (l: TaxDocumentLine) => (full && l.quantity !== undefined && l.quantity > 1 && l.unitGrossMinor !== undefined ? `${l.quantity} × ${f.money(l.unitGrossMinor)} incl. VAT` : undefined);
  pdf.table(
    columns,
    view.lines.map((l) => ({ cells: cells(l), note: note(l) })),
  );

  // The VAT by rate on the left and the totals on the right, kept on one page together.
  const words = TOTALS[view.kind];
  const summaryWidth = pdf.width * 0.46;
  const totalsWidth = pdf.width * 0.44;
  const totalsX = pdf.right - totalsWidth;
  const summaryHeight = 40 + view.byRate.length * 18;
  pdf.space(14);
  pdf.keepTogether(Math.max(summaryHeight, 70));
  const blockTop = pdf.y;
  pdf.text('VAT by rate', 'eyebrow', { width: summaryWidth });
  pdf.space(4);
  const rateColumns = [summaryWidth * 0.28, summaryWidth * 0.38, summaryWidth * 0.34];
  const rateRow = (cellsOfRow: string[], style: 'small' | 'body') => {
    const y = pdf.y;
    let x = pdf.left;
    cellsOfRow.forEach((c, i) => {
      pdf.text(c, style, { x, y, width: rateColumns[i]!, align: i === 0 ? 'left' : 'right' });
      x += rateColumns[i]!;
    });
    pdf.y = Math.max(pdf.y, y + 12);
    pdf.space(3);
  };
  rateRow(['Rate', 'Value excl. VAT', 'VAT'], 'small');
  pdf.rule({ width: summaryWidth });
  pdf.space(4);
  for (const r of view.byRate) rateRow([f.rate(r.vatRateBasisPoints), f.money(r.netMinor), f.money(r.vatMinor)], 'body');
  const summaryEnd = pdf.y;

  pdf.y = blockTop;
  const totalRow = (label: string, value: string, style: 'body' | 'strong') => {
    const y = pdf.y;
    pdf.text(label, style, { x: totalsX, y, width: totalsWidth * 0.55 });
    pdf.text(value, style, { x: totalsX + totalsWidth * 0.4, y, width: totalsWidth * 0.6, align: 'right' });
    pdf.space(4);
  };
  totalRow(words.net, f.money(view.totals.netMinor), 'body');
  totalRow(words.vat, f.money(view.totals.vatMinor), 'body');
  pdf.rule({ x: totalsX, width: totalsWidth, colour: 'ink', weight: 0.6 });
  pdf.space(5);
  totalRow(words.gross, f.money(view.totals.grossMinor), 'strong');
  pdf.y = Math.max(summaryEnd, pdf.y) + 24;

  // The e-invoicing reference and its QR code, once the tax authority's system has returned them.
  const e = view.eInvoicing;
  if (e?.reference || e?.qrData) {
    const qrSize = 72;
    pdf.keepTogether(qrSize + 10);
    const y = pdf.y;
    let x = pdf.left;
    if (e.qrData) {
      pdf.qr(e.qrData, x, y, qrSize);
      x += qrSize + 14;
    }
    pdf.text('E-invoicing reference', 'eyebrow', { x, y });
    pdf.space(3);
    pdf.text(e.reference ?? '—', 'body', { x });
    pdf.y = Math.max(pdf.y, y + (e.qrData ? qrSize : 0)) + 18;
  }

  for (const notice of view.notices) {
    pdf.keepTogether(12);
    pdf.text(notice, 'small');
    pdf.space(2);
  }
  return pdf.finish();
}
