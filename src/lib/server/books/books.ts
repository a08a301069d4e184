import { eq } from 'drizzle-orm';
import { NotFound } from '@/lib/domain/errors';
import { message } from '@/lib/domain/messages';
import { UUID } from '@/lib/domain/validation';
import type { MarketCode } from '@/lib/domain/markets';
import { VAT_INCLUDED } from '@/lib/domain/tax-settings';
import type { AuditLog } from '@/lib/server/backoffice/audit';
import type { Db } from '@/lib/server/infra/db/client';
import { orders } from '@/lib/server/orders/tables';
import { documentsOf, type TaxDocument } from './documents';
import { vatLinesOf } from './order-vat';
import { renderTaxDocumentPdf } from './pdf/tax-document';
import { createTaxSettingsService } from './settings';
import { createVatReport } from './report';
import { documentSummary, taxDocumentView, type TaxDocumentSummary } from './views';

/**
 * The books as the routes see them: the tax settings, an order's documents for its shopper or
 * staff (anyone else is told there is no such order), and a document's PDF.
 */

/** Who asks: the order's shopper sees their own; staff see every order's. */
export interface DocumentViewer {
  userId: string;
  staff: boolean;
}

export function createBooksService({ db, clock, audit }: { db: Db; clock: () => Date; audit?: AuditLog | undefined }) {
  const settings = createTaxSettingsService({ db, clock, audit });
  const vatReport = createVatReport({ db });

  async function orderFor(viewer: DocumentViewer, orderId: string) {
    if (!UUID.test(orderId)) throw new NotFound(message('order-not-found'));
    const [order] = await db.select({ id: orders.id, userId: orders.userId, trackingNumber: orders.trackingNumber }).from(orders).where(eq(orders.id, orderId)).limit(1);
    if (!order || (!viewer.staff && order.userId !== viewer.userId)) throw new NotFound(message('order-not-found'));
    return order;
  }

  function summaries(docs: TaxDocument[]): TaxDocumentSummary[] {
    const numbers = new Map(docs.map((d) => [d.id, d.number]));
    return docs.map((d) => documentSummary(d, d.reducesId ? (numbers.get(d.reducesId) ?? null) : null));
  }

  return {
    settings,
    vatReport,

    /** The order's invoice and credit notes, oldest first. */
    async documents(viewer: DocumentViewer, orderId: string): Promise<TaxDocumentSummary[]> {
      const order = await orderFor(viewer, orderId);
      return summaries(await documentsOf(db, order.id));
    },

    /** Summaries of an order's documents for a page that has loaded the order for its viewer already. */
    async documentsOfOrder(orderId: string): Promise<TaxDocumentSummary[]> {
      return UUID.test(orderId) ? summaries(await documentsOf(db, orderId)) : [];
    },

    /** "incl. VAT" where the market is registered (beside a total or a price), else null. */
    async vatNote(market: MarketCode): Promise<string | null> {
      return (await settings.read(market))?.registered ? VAT_INCLUDED : null;
    },

    /** The VAT an order's lines carry (0 where its market was not registered when it was placed). */
    async orderVatMinor(orderId: string): Promise<number> {
      if (!UUID.test(orderId)) return 0;
      return (await vatLinesOf(db, orderId)).reduce((a, l) => a + l.vatMinor, 0);
    },

    /** One document of the order as a PDF; another order's number, or none, is not found. */
    async pdf(viewer: DocumentViewer, orderId: string, number: string): Promise<{ pdf: Uint8Array; filename: string }> {
      const order = await orderFor(viewer, orderId);
      const docs = await documentsOf(db, order.id);
      const doc = docs.find((d) => d.number === number);
      if (!doc) throw new NotFound(message('tax-document-not-found'));
      const reduced = doc.reducesId ? docs.find((d) => d.id === doc.reducesId) : null;
      const pdf = await renderTaxDocumentPdf(taxDocumentView(doc, order.trackingNumber, reduced ? { number: reduced.number, issuedAt: reduced.issuedAt } : null));
      return { pdf, filename: `${doc.kind === 'invoice' ? 'tax-invoice' : 'credit-note'}-${doc.number}.pdf` };
    },
  };
}
export type BooksService = ReturnType<typeof createBooksService>;
