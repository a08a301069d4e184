import type { PgSelect } from 'drizzle-orm/pg-core';

/** A page of a list (the back office's): its rows, the count over every page, which page (from 1) and its length. */
export interface Page<Row> {
  rows: Row[];
  total: number;
  page: number;
  pageSize: number;
}

/**
 * Page `page` (from 1; anything lower reads as 1) of an ordered query made dynamic (`.$dynamic()`),
 * and the total its count query gives (the same filter, as `{ n: count() }`).
 */
export async function pageOf<Q extends PgSelect>(query: Q, counted: () => Promise<{ n: number }[]>, page: number, pageSize: number): Promise<Page<Awaited<Q>[number]>> {
  const at = Math.max(1, page);
  const rows: Awaited<Q> = await query.limit(pageSize).offset((at - 1) * pageSize);
  const [t] = await counted();
  return { rows, total: t?.n ?? 0, page: at, pageSize };
}
