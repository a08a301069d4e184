/**
 * What a tax invoice or a credit note prints: the books build it from a document they issued, and
 * `renderTaxDocumentPdf` (tax-document.ts) draws it. Amounts are integer minor units of the
 * document's currency.
 */
export type TaxDocumentKind = 'invoice' | 'credit-note';
export interface TaxDocumentParty {
  name: string;                 // legal name (seller) or the shopper's / company's name (buyer)
  addressLines: string[];
  taxNumberLabel?: 'VAT number' | 'TIN';
  taxNumber?: string;
}
export interface TaxDocumentLine {
  description: string;
  quantity?: number;            // omitted on an abridged ZA invoice
  unitGrossMinor?: number;
  netMinor: number;
  vatMinor: number;
  grossMinor: number;
  vatRateBasisPoints: number;   // 1500 = 15%, 750 = 7.5%
}
export interface TaxDocumentView {
  kind: TaxDocumentKind;
  form: 'full' | 'abridged';    // ZA s.20: full above R5,000, abridged R50..R5,000; NG: always full
  market: 'NG' | 'ZA';
  currency: 'NGN' | 'ZAR';
  locale: 'en-NG' | 'en-ZA';
  timeZone: string;             // the market's zone, for the printed date
  number: string;               // e.g. ZA-2026-000001 (credit notes have their own series)
  issuedAt: Date;
  orderNumber: string;          // the order's tracking number as the shopper sees it
  seller: TaxDocumentParty;
  buyer?: TaxDocumentParty;     // absent on an abridged invoice
  reduces?: { number: string; issuedAt: Date };  // a credit note: the invoice it reduces
  reason?: string;              // a credit note's reason (return, refund, cancel…)
  lines: TaxDocumentLine[];
  totals: { netMinor: number; vatMinor: number; grossMinor: number };
  byRate: Array<{ vatRateBasisPoints: number; netMinor: number; vatMinor: number }>;
  notices: string[];            // e.g. the demo store's "Demo numbers: not a real registration"
  eInvoicing?: { reference?: string; qrData?: string };
}
