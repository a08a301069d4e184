import { and, asc, desc, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { PageAt } from '@/lib/domain/paging';
import { UUID } from '@/lib/domain/validation';

/**
 * A page of a list the store shows (the back office's): its rows, the count over every page,
 * which page (from 1) and its length, and the keys of the pages before and after it.
 */
export interface Page<Row> {
  rows: Row[];
  total: number;
  page: number;
  pageSize: number;
  /** The ids to ask the previous and next pages by (`before`, `after`), null when there is none. */
  cursors: { before: string | null; after: string | null };
}

/**
 * How a list is ordered, for paging by key: its sort columns (the last one unique, or ended by
 * the id), the table they are on and its id. A page after (or before) a row is the rows that sort
 * after (before) it, found through the sort's index from that row wherever the list is: page
 * 40,000 of a million orders costs what page 2 does, where an OFFSET reads every row before it.
 */
export interface Ordering<Row> {
  table: PgTable;
  id: PgColumn;
  /** What the id looks like: a cursor that does not is ignored (never a database error). */
  idKind: 'uuid' | 'int';
  idOf: (row: Row) => string | number;
  keys: readonly SortKey[];
}

/**
 * A sort column, and how to read its value for the row with a given id when it is not on the
 * list's table (a product's price in a market: `at`).
 */
export interface SortKey {
  column: PgColumn | SQL.Aliased;
  desc: boolean;
  at?: (id: string) => SQL;
}

const isId = (kind: Ordering<unknown>['idKind'], v: string) => (kind === 'uuid' ? UUID.test(v) : /^\d{1,10}$/.test(v) && Number(v) <= 2_147_483_647);

/** The order of a list, forwards (as shown) or backwards (to read the page before a row, then turned round). */
function orderOf(ordering: Ordering<unknown>, forwards: boolean): SQL[] {
  return ordering.keys.map((k) => (k.desc === forwards ? desc(k.column) : asc(k.column)));
}

/**
 * The rows after (forwards) or before the row with this id in the list's order. The row's own
 * sort values are read by the database (a timestamp keeps its microseconds). Keys all one way are
 * one row comparison; mixed ones (newest first, then by e-mail) are spelt out, with the first
 * column's bound so the index starts there.
 */
function beyond(ordering: Ordering<unknown>, id: string, forwards: boolean): SQL {
  const at = (k: SortKey) => k.at?.(id) ?? sql`(select ${k.column} from ${ordering.table} where ${ordering.id} = ${id})`;
  // Every key the same way: one row comparison, which an index on the keys starts from exactly.
  if (ordering.keys.every((k) => k.desc === ordering.keys[0]!.desc)) {
    const columns = sql.join(ordering.keys.map((k) => sql`${k.column}`), sql`, `);
    const values = sql.join(ordering.keys.map(at), sql`, `);
    return ordering.keys[0]!.desc === forwards ? sql`(${columns}) < (${values})` : sql`(${columns}) > (${values})`;
  }
  const further = (k: SortKey) => (k.desc === forwards ? sql`${k.column} < ${at(k)}` : sql`${k.column} > ${at(k)}`);
  const [first] = ordering.keys;
  const bound = first!.desc === forwards ? sql`${first!.column} <= ${at(first!)}` : sql`${first!.column} >= ${at(first!)}`;
  const ties = ordering.keys.map((k, i) => and(...ordering.keys.slice(0, i).map((p) => sql`${p.column} = ${at(p)}`), further(k)));
  return and(bound, or(...ties))!;
}

/** What a list's query is given to read one page: the key's condition (if any), the order and the window. */
export interface PageWindow {
  where: SQL | undefined;
  orderBy: SQL[];
  limit: number;
  offset: number;
}

/**
 * A page of a list: by key when the request names the row it follows (`after`), the row it comes
 * before (`before`) or the end (`before=end`, the last page), else by page number (what a typed
 * `?page=` asks; the first pages cost nothing either way). `list` runs the caller's query with the
 * where, order and window given; `counted` counts the same filter.
 */
export async function pageOf<Row>(
  list: (window: PageWindow) => Promise<Row[]>,
  ordering: Ordering<Row>,
  counted: () => Promise<number>,
  at: PageAt,
  pageSize: number,
): Promise<Page<Row>> {
  const page = Math.max(1, at.page ?? 1);
  const after = at.after && isId(ordering.idKind, at.after) ? at.after : null;
  const before = at.before === 'end' || (at.before && isId(ordering.idKind, at.before)) ? at.before : null;
  let rows: Row[];
  let total: number;
  if (before === 'end') {
    total = await counted();
    // The last page holds what is left after the full pages before it.
    const left = total - (page - 1) * pageSize;
    const size = left > 0 && left <= pageSize ? left : pageSize;
    rows = (await list({ where: undefined, orderBy: orderOf(ordering as Ordering<unknown>, false), limit: size, offset: 0 })).reverse();
  } else {
    const window = after
      ? { where: beyond(ordering as Ordering<unknown>, after, true), orderBy: orderOf(ordering as Ordering<unknown>, true), limit: pageSize, offset: 0 }
      : before
        ? { where: beyond(ordering as Ordering<unknown>, before, false), orderBy: orderOf(ordering as Ordering<unknown>, false), limit: pageSize, offset: 0 }
        : { where: undefined, orderBy: orderOf(ordering as Ordering<unknown>, true), limit: pageSize, offset: (page - 1) * pageSize };
    [rows, total] = await Promise.all([list(window), counted()]);
    if (before) rows.reverse();
  }
  const first = rows[0];
  const last = rows.at(-1);
  return {
    rows,
    total,
    page,
    pageSize,
    cursors: {
      before: page > 1 && first !== undefined ? String(ordering.idOf(first)) : null,
      after: page * pageSize < total && last !== undefined ? String(ordering.idOf(last)) : null,
    },
  };
}
