import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/** An ILIKE pattern matching `q` anywhere, its `%`, `_` and `\` taken literally (the back office's searches). */
export function containing(q: string): string {
  return `%${q.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
}

/**
 * `column` is one of the values a subquery returns, written so it stays indexable inside an OR:
 * `= any(array(select …))` runs the subquery once (its own index, e.g. a trigram one) and looks the
 * values up by the column's index, where `in (select …)` or a join read the whole table (ADR 0018).
 */
export function amongValuesOf(column: SQLWrapper, subquery: SQLWrapper): SQL {
  return sql`${column} = any(array(${subquery}))`;
}
