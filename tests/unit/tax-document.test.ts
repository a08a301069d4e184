import { getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { renderTaxDocumentPdf } from '@/lib/server/books/pdf/tax-document';
import type { TaxDocumentLine, TaxDocumentParty, TaxDocumentView } from '@/lib/server/books/pdf/tax-document-view';
import { NAMES, pdfFilledShapes, pdfPages, pdfText } from '../support/pdf-text';

/**
 * The tax documents' PDF (src/lib/server/books/pdf/tax-document.ts): what a full and an abridged
 * invoice must and must not carry (VAT Act s.20), a credit note's title and the invoice it reduces
 * (s.21), Nigeria's TINs and rate, long documents across pages, the names as written, the size.
 */

const ZA_SELLER: TaxDocumentParty = { name: 'Maison Luxe (Pty) Ltd', addressLines: ['50 Bath Avenue, Rosebank', 'Johannesburg 2196', 'South Africa'], taxNumberLabel: 'VAT number', taxNumber: '4000000001' };
const ZA_BUYER: TaxDocumentParty = { name: 'Nomvula Mkhize-Dlamini', addressLines: ['21 Bree Street', 'Cape Town, Western Cape 8001', 'South Africa'], taxNumberLabel: 'VAT number', taxNumber: '4123456789' };
const NG_SELLER: TaxDocumentParty = { name: 'Maison Luxe Nigeria Ltd', addressLines: ['12 Awolowo Road', 'Ikoyi, Lagos 101233', 'Nigeria'], taxNumberLabel: 'TIN', taxNumber: '12345678-0001' };
const NG_BUYER: TaxDocumentParty = { name: 'Chiamaka Ńnàmdị', addressLines: ['4 Adeola Odeku Street', 'Victoria Island, Lagos', 'Nigeria'], taxNumberLabel: 'TIN', taxNumber: '87654321-0001' };

/** A line of `quantity` at `unitGross`, its VAT taken out of the VAT-inclusive price at the rate. */
function line(description: string, quantity: number, unitGross: number, basisPoints = 1500): TaxDocumentLine {
  const gross = unitGross * quantity;
  const vat = Math.round((gross * basisPoints) / (10_000 + basisPoints));
  return { description, quantity, unitGrossMinor: unitGross, netMinor: gross - vat, vatMinor: vat, grossMinor: gross, vatRateBasisPoints: basisPoints };
}

function view(over: Partial<TaxDocumentView> & { lines: TaxDocumentLine[] }): TaxDocumentView {
  const sum = (k: 'netMinor' | 'vatMinor' | 'grossMinor') => over.lines.reduce((s, l) => s + l[k], 0);
  const rates = [...new Set(over.lines.map((l) => l.vatRateBasisPoints))];
  return {
    kind: 'invoice',
    form: 'full',
    market: 'ZA',
    currency: 'ZAR',
    locale: 'en-ZA',
    timeZone: 'Africa/Johannesburg',
    number: 'ZA-2026-000001',
    issuedAt: new Date('2026-11-14T09:30:00Z'),
    orderNumber: 'ML-7KQ2M9AB',
    seller: ZA_SELLER,
    buyer: ZA_BUYER,
    totals: { netMinor: sum('netMinor'), vatMinor: sum('vatMinor'), grossMinor: sum('grossMinor') },
    byRate: rates.map((r) => {
      const of = over.lines.filter((l) => l.vatRateBasisPoints === r);
      return { vatRateBasisPoints: r, netMinor: of.reduce((s, l) => s + l.netMinor, 0), vatMinor: of.reduce((s, l) => s + l.vatMinor, 0) };
    }),
    notices: ['Demo numbers: not a real registration'],
    ...over,
  };
}

const ZA_LINES = [line('Quilted leather shoulder bag (Black)', 1, 2_450_000), line('Silk twill scarf (Ivory)', 2, 385_000), line('Delivery: Express', 1, 15_000)];

/** Amounts and dates as the document writes them for its market (no-break spaces read as spaces). */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
const zar = (minor: number) => plain(new Intl.NumberFormat('en-ZA', { style: 'currency', currency: 'ZAR', currencyDisplay: 'narrowSymbol', minimumFractionDigits: 2 }).format(minor / 100));
const ngn = (minor: number) => plain(new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN', currencyDisplay: 'narrowSymbol', minimumFractionDigits: 2 }).format(minor / 100));
const textOf = async (v: TaxDocumentView) => plain(await pdfText(await renderTaxDocumentPdf(v)));

/** The text items of the first page with their size: the title is the largest. */
async function largestText(pdf: Uint8Array): Promise<string> {
  const page = await (await getDocumentProxy(new Uint8Array(pdf))).getPage(1);
  const items = (await page.getTextContent()).items.filter((i) => 'str' in i && i.str.trim() !== '') as Array<{ str: string; transform: number[] }>;
  return items.reduce((a, b) => (Math.abs(b.transform[3]!) > Math.abs(a.transform[3]!) ? b : a)).str;
}

describe('a tax invoice, full form (ZA above R5,000)', () => {
  it('carries what s.20 asks: the words, both parties with VAT numbers, number, date, each line with quantity, value, VAT and total', async () => {
    const v = view({ lines: ZA_LINES });
    const pdf = await renderTaxDocumentPdf(v);
    const text = plain(await pdfText(pdf));
    expect(await largestText(pdf)).toBe('Tax Invoice');
    for (const part of [
      'Maison Luxe (Pty) Ltd',
      '50 Bath Avenue, Rosebank',
      'Johannesburg 2196',
      'VAT number 4000000001',
      'BILL TO',
      'Nomvula Mkhize-Dlamini',
      '21 Bree Street',
      'Cape Town, Western Cape 8001',
      'VAT number 4123456789',
      'Number ZA-2026-000001',
      'Date 14 November 2026',
      'Order ML-7KQ2M9AB',
      'DESCRIPTION QTY VAT RATE VALUE EXCL. VAT VAT TOTAL INCL. VAT',
      `Quilted leather shoulder bag (Black) 1 15% ${zar(ZA_LINES[0]!.netMinor)} ${zar(ZA_LINES[0]!.vatMinor)} ${zar(2_450_000)}`,
      `Silk twill scarf (Ivory) 2 15% ${zar(ZA_LINES[1]!.netMinor)} ${zar(ZA_LINES[1]!.vatMinor)} ${zar(770_000)}\n2 × ${zar(385_000)} incl. VAT`,
      `Total excl. VAT ${zar(v.totals.netMinor)}`,
      `VAT ${zar(v.totals.vatMinor)}`,
      `Total incl. VAT ${zar(v.totals.grossMinor)}`,
      `15% ${zar(v.totals.netMinor)} ${zar(v.totals.vatMinor)}`,
      'Demo numbers: not a real registration',
      'Maison Luxe · Tax Invoice ZA-2026-000001 · Page 1 of 1',
    ]) {
      expect(text).toContain(part);
    }
    expect(zar(v.totals.grossMinor)).toBe('R 32 350,00');
    expect(text).not.toContain('Credit Note');
    expect(text).not.toContain('E-INVOICING');
  });

  for (const name of NAMES) {
    it(`prints the buyer ${name} as written`, async () => {
      expect(await textOf(view({ lines: ZA_LINES, buyer: { ...ZA_BUYER, name } }))).toContain(name);
    });
  }

  it('a buyer who is not a vendor: name and address, no VAT number line', async () => {
    const text = await textOf(view({ lines: ZA_LINES, buyer: { name: 'Nomvula Mkhize-Dlamini', addressLines: ['21 Bree Street'] } }));
    expect(text).toContain('Nomvula Mkhize-Dlamini');
    expect(text.match(/VAT number/g)).toHaveLength(1);
  });
});

describe('a tax invoice, abridged form (ZA from R50 to R5,000)', () => {
  const lines = [line('Silk twill scarf (Ivory)', 1, 385_000)].map(({ quantity: _q, unitGrossMinor: _u, ...rest }) => rest);

  it('carries the words, the seller and its VAT number, number, date, description, value, VAT and total', async () => {
    const v = view({ form: 'abridged', buyer: undefined, lines });
    const text = await textOf(v);
    for (const part of ['Tax Invoice', 'Maison Luxe (Pty) Ltd', '50 Bath Avenue, Rosebank', 'VAT number 4000000001', 'Number ZA-2026-000001', 'Date 14 November 2026', `Silk twill scarf (Ivory) 15% ${zar(lines[0]!.netMinor)} ${zar(lines[0]!.vatMinor)} ${zar(385_000)}`, `Total incl. VAT ${zar(385_000)}`]) {
      expect(text).toContain(part);
    }
  });

  it('carries no buyer and no quantity, even when the view holds a buyer', async () => {
    const text = await textOf(view({ form: 'abridged', buyer: ZA_BUYER, lines: [line('Silk twill scarf (Ivory)', 2, 150_000)] }));
    for (const absent of ['BILL TO', 'Nomvula', '21 Bree Street', '4123456789', 'QTY', ' × ']) expect(text).not.toContain(absent);
    expect(text).toContain('DESCRIPTION VAT RATE VALUE EXCL. VAT VAT TOTAL INCL. VAT');
  });
});

describe('a Nigerian invoice', () => {
  it("carries both parties' TINs, the 7.5% rate, the VAT and the gross in naira", async () => {
    const lines = [line('Quilted leather shoulder bag (Black)', 1, 125_000_000, 750), line('Delivery: Standard', 1, 500_000, 750)];
    const v = view({ market: 'NG', currency: 'NGN', locale: 'en-NG', timeZone: 'Africa/Lagos', number: 'NG-2026-000042', seller: NG_SELLER, buyer: NG_BUYER, lines });
    const text = await textOf(v);
    for (const part of ['Tax Invoice', 'Maison Luxe Nigeria Ltd', 'TIN 12345678-0001', 'Chiamaka Ńnàmdị', 'TIN 87654321-0001', 'Number NG-2026-000042', `7.5% ${ngn(lines[0]!.netMinor)} ${ngn(lines[0]!.vatMinor)} ${ngn(125_000_000)}`, `Total incl. VAT ${ngn(v.totals.grossMinor)}`]) {
      expect(text).toContain(part);
    }
    expect(ngn(v.totals.grossMinor)).toBe('₦1,255,000.00');
    expect(text).not.toContain('VAT number');
  });
});

describe('a credit note (s.21)', () => {
  const reduced = [line('Silk twill scarf (Ivory)', 1, 385_000)];
  const credit = (over: Partial<TaxDocumentView> = {}) =>
    view({
      kind: 'credit-note',
      number: 'ZA-CN-2026-000001',
      issuedAt: new Date('2026-11-20T12:00:00Z'),
      reduces: { number: 'ZA-2026-000001', issuedAt: new Date('2026-11-14T09:30:00Z') },
      reason: 'Return',
      lines: reduced,
      ...over,
    });

  it('says "Credit Note" as its largest words, names the invoice it reduces and why, both parties, the reduction and its VAT', async () => {
    const pdf = await renderTaxDocumentPdf(credit());
    const text = plain(await pdfText(pdf));
    expect(await largestText(pdf)).toBe('Credit Note');
    for (const part of [
      'Number ZA-CN-2026-000001',
      'Date 20 November 2026',
      'Reduces Tax Invoice ZA-2026-000001',
      'Invoice date 14 November 2026',
      'Reason Return',
      'Maison Luxe (Pty) Ltd',
      'VAT number 4000000001',
      'ISSUED TO',
      'Nomvula Mkhize-Dlamini',
      `Reduction excl. VAT ${zar(reduced[0]!.netMinor)}`,
      `VAT credited ${zar(reduced[0]!.vatMinor)}`,
      `Total credited ${zar(385_000)}`,
      'Maison Luxe · Credit Note ZA-CN-2026-000001 · Page 1 of 1',
    ]) {
      expect(text).toContain(part);
    }
    expect(text).not.toContain('Total incl. VAT R');
  });

  for (const name of NAMES) {
    it(`prints the buyer ${name} as written`, async () => {
      expect(await textOf(credit({ buyer: { ...ZA_BUYER, name } }))).toContain(name);
    });
  }
});

describe('a long document', () => {
  it('runs 60 lines across pages, the headings on every page, each line once, the totals once at the end', async () => {
    const lines = Array.from({ length: 60 }, (_, i) => line(`Capsule piece ${i + 1}`, (i % 3) + 1, 100_000 + i * 1_000));
    const v = view({ lines });
    const pages = (await pdfPages(await renderTaxDocumentPdf(v))).map(plain);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    pages.forEach((page, i) => {
      expect(page).toContain('DESCRIPTION QTY VAT RATE VALUE EXCL. VAT VAT TOTAL INCL. VAT');
      expect(page).toContain(`Maison Luxe · Tax Invoice ZA-2026-000001 · Page ${i + 1} of ${pages.length}`);
    });
    const all = pages.join('\n');
    for (let i = 1; i <= 60; i++) expect(all.split(`Capsule piece ${i} ${(i - 1) % 3 + 1} 15% `).length - 1).toBe(1);
    expect(pages.at(-1)).toContain(`Total incl. VAT ${zar(v.totals.grossMinor)}`);
    expect(pages.slice(0, -1).join('\n')).not.toContain('Total incl. VAT R');
  });
});

describe('e-invoicing', () => {
  it('draws the QR code only when the data is given, and prints the reference', async () => {
    const withQr = await renderTaxDocumentPdf(view({ lines: ZA_LINES, eInvoicing: { reference: 'IRN-0001-ABC', qrData: 'https://einvoice.example/verify/IRN-0001-ABC' } }));
    expect(await pdfFilledShapes(withQr)).toEqual([1]);
    expect(await pdfText(withQr)).toContain('E-INVOICING REFERENCE\nIRN-0001-ABC');
    const referenceOnly = await renderTaxDocumentPdf(view({ lines: ZA_LINES, eInvoicing: { reference: 'IRN-0001-ABC' } }));
    expect(await pdfFilledShapes(referenceOnly)).toEqual([0]);
    expect(await pdfText(referenceOnly)).toContain('IRN-0001-ABC');
    expect(await pdfFilledShapes(await renderTaxDocumentPdf(view({ lines: ZA_LINES })))).toEqual([0]);
  });
});

describe('the file', () => {
  it('a one-page invoice stays small: the fonts are subset', async () => {
    const pdf = await renderTaxDocumentPdf(view({ lines: ZA_LINES }));
    expect(await pdfPages(pdf)).toHaveLength(1);
    console.log(`one-page tax invoice: ${pdf.length} bytes`);
    expect(pdf.length).toBeLessThan(40_000);
  });
});
