import { MARKETS } from '@/lib/domain/markets';
import { toMajor } from '@/lib/domain/money';
import type { TaxDocument } from './documents';
import type { TaxDocumentView } from './pdf/tax-document-view';

/** What a document prints (renderTaxDocumentPdf), and what the documents API lists of it. */

export function taxDocumentView(doc: TaxDocument, orderNumber: string, reduces?: { number: string; issuedAt: Date } | null): TaxDocumentView {
  const m = MARKETS[doc.market];
  return {
    kind: doc.kind,
    form: doc.form,
    market: doc.market,
    currency: m.currency,
    locale: m.locale,
    timeZone: m.timeZone,
    number: doc.number,
    issuedAt: doc.issuedAt,
    orderNumber,
    seller: doc.seller,
    ...(doc.buyer ? { buyer: doc.buyer } : {}),
    ...(reduces ? { reduces } : {}),
    ...(doc.reason ? { reason: doc.reason } : {}),
    lines: doc.lines,
    totals: { netMinor: doc.netMinor, vatMinor: doc.vatMinor, grossMinor: doc.grossMinor },
    byRate: doc.byRate.map((b) => ({ vatRateBasisPoints: b.basisPoints, netMinor: b.netMinor, vatMinor: b.vatMinor })),
    notices: doc.notice ? [doc.notice] : [],
    ...(doc.eInvoicingReference || doc.eInvoicingQr ? { eInvoicing: { ...(doc.eInvoicingReference ? { reference: doc.eInvoicingReference } : {}), ...(doc.eInvoicingQr ? { qrData: doc.eInvoicingQr } : {}) } } : {}),
  };
}

/** A document as the API lists it: major units, as every JSON answer of the store. */
export interface TaxDocumentSummary {
  number: string;
  kind: 'invoice' | 'credit-note';
  title: 'Tax Invoice' | 'Credit Note';
  issuedAt: string;
  currency: string;
  net: number;
  vat: number;
  gross: number;
  reduces: string | null;
  pdf: string;
}

export function documentSummary(doc: TaxDocument, reducesNumber: string | null): TaxDocumentSummary {
  return {
    number: doc.number,
    kind: doc.kind,
    title: doc.kind === 'invoice' ? 'Tax Invoice' : 'Credit Note',
    issuedAt: doc.issuedAt.toISOString(),
    currency: doc.currency,
    net: toMajor(doc.netMinor),
    vat: toMajor(doc.vatMinor),
    gross: toMajor(doc.grossMinor),
    reduces: reducesNumber,
    pdf: `/api/v1/orders/${doc.orderId}/documents/${doc.number}.pdf`,
  };
}
