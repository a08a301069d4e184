import { backoffMs, runClaimed } from '@/lib/server/infra/leased-work';
import type { Db } from '@/lib/server/infra/db/client';
import type { Logger } from '@/lib/server/infra/log';
import { claimForEInvoicing, deferEInvoicing, markEInvoiced, type TaxDocument } from './documents';

/**
 * E-invoicing: every invoice and credit note is handed once, through the documents' outbox, to the
 * e-invoicing port, a tax authority's system (FIRS's MBS from July 2027 for Nigeria). The port may
 * answer the reference number and QR data the authority gave the document; they are kept and
 * printed on it. The default port does nothing and answers nothing.
 */
export interface EInvoicingPort {
  readonly name: string;
  submit(document: TaxDocument): Promise<{ reference?: string | null; qrData?: string | null }>;
}

export const noEInvoicing: EInvoicingPort = {
  name: 'none',
  async submit() {
    return {};
  },
};

const LEASE_MS = 2 * 60_000;

export function createEInvoicing({ db, clock, log, port = noEInvoicing }: { db: Db; clock: () => Date; log: Logger; port?: EInvoicingPort }) {
  async function hand(doc: TaxDocument): Promise<boolean> {
    try {
      const answer = await port.submit(doc);
      await markEInvoiced(db, doc.id, answer, clock());
      return true;
    } catch (err) {
      const next = new Date(clock().getTime() + backoffMs(doc.eInvoicingAttempts, { firstMs: 60_000, maxMs: 6 * 3_600_000 }));
      await deferEInvoicing(db, doc.id, next, clock());
      log.warn('e-invoicing port refused a document; tried again later', { number: doc.number, attempts: doc.eInvoicingAttempts, err });
      return false;
    }
  }
  return {
    port,
    /** Hands what is waiting, one document at a time, at most `limit`; returns how many the port took. */
    runDue: ({ limit = 50 }: { limit?: number } = {}) => runClaimed(() => claimForEInvoicing(db, clock(), LEASE_MS), hand, limit),
  };
}
export type EInvoicing = ReturnType<typeof createEInvoicing>;
