import { sql } from 'drizzle-orm';
import type { MarketCode } from '@/lib/domain/markets';
import type { Tx } from '@/lib/server/infra/db/client';
import { taxDocumentCounters } from './tables';

/**
 * Gap-free document numbers (the one writer of tax_document_counters): a market's series of a year
 * is one counter row, raised by one under its row lock in the transaction that issues the document.
 * Another transaction issuing in that series waits for the lock; a rollback gives the number back,
 * and a killed server's transaction is rolled back, so numbers neither repeat nor skip (a database
 * sequence would skip). Taken last in a transaction (every other lock before it), invoice before
 * credit note.
 */

export type TaxDocumentKind = 'invoice' | 'credit-note';

/** `ZA-2026-000001` (an invoice), `ZA-CN-2026-000001` (a credit note). */
export function documentNumber(market: MarketCode, kind: TaxDocumentKind, year: number, n: number): string {
  return `${market}-${kind === 'credit-note' ? 'CN-' : ''}${year}-${String(n).padStart(6, '0')}`;
}

export async function nextDocumentNumber(tx: Tx, market: MarketCode, kind: TaxDocumentKind, year: number): Promise<string> {
  const [row] = await tx
    .insert(taxDocumentCounters)
    .values({ market, kind, year, last: 1 })
    .onConflictDoUpdate({ target: [taxDocumentCounters.market, taxDocumentCounters.kind, taxDocumentCounters.year], set: { last: sql`${taxDocumentCounters.last} + 1` } })
    .returning({ last: taxDocumentCounters.last });
  return documentNumber(market, kind, year, row!.last);
}
