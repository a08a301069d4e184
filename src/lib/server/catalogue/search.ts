import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { MarketCode } from '@/lib/domain/markets';
import { clearCorrection, searchWords, SHOP_WORDS, wordsFound } from '@/lib/domain/search';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { products, searchLog, searchTerms } from '@/lib/server/catalogue/tables';
import type { Logger } from '@/lib/server/infra/log';

/** What search made of the shopper's words. */
export interface SearchPlan {
  /** The words searched for: each as typed when the store knows it (or a word starting with it), else the closest known word. */
  words: string[];
  /** The query as searched when a word was corrected ("lether bag" → "leather bag"), else null. */
  corrected: string | null;
}

/** Trigram similarity from which a typed word is taken for a known one ("lether" and "leather": 0.5). */
const CORRECT = 0.4;
/** Trigram similarity from which a known word is offered under "Did you mean". */
const NEAR = 0.15;

const textArray = (words: readonly string[]) => sql`array[${sql.join(words.map((w) => sql`${w}`), sql`, `)}]::text[]`;

/** The words search knows: the catalogue's own, and the shop words shoppers use for them. */
const dictionary = sql`(select ${searchTerms.term} as term from ${searchTerms} union select unnest(${textArray(Object.keys(SHOP_WORDS))}) as term)`;
/** Close known words weighed for a clear correction when none is close enough by trigrams alone. */
const CANDIDATES = 5;

/** Searches are written to the log in batches, at most this long after they were made (off the shopper's request). */
const RECORD_DELAY_MS = 1000;
const RECORD_BATCH = 200;

const rowsOf = <T>(res: unknown): T[] => ((res as { rows?: T[] }).rows ?? (res as T[]));

/**
 * Search: PostgreSQL full-text search over each product's weighted document (name A,
 * categories and colours B, description C; `ml_refresh_search` in migration 0013 builds it), with
 * misspellings matched to the store's own words by trigram similarity (pg_trgm). The same on PGlite
 * and PostgreSQL. The one writer of `products.search_document`, `search_terms` and `search_log`.
 */
export function createSearch(deps: { db: Db; log?: Logger | undefined }) {
  const { db } = deps;
  let pending: (typeof searchLog.$inferInsert)[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  /** Writes the searches waiting to be logged (never fails a caller: a lost log line is only a lost statistic). */
  async function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    try {
      await db.insert(searchLog).values(batch);
    } catch (err) {
      deps.log?.warn('searches not recorded', { err, count: batch.length });
    }
  }

  return {
    /** Rebuilds the search documents and known words of these products (null: all), inside the caller's transaction when given. */
    async refresh(productIds: readonly number[] | null, tx: Db | Tx = db): Promise<void> {
      if (productIds && productIds.length === 0) return;
      await tx.execute(sql`select ml_refresh_search(${productIds ? sql`array[${sql.join(productIds.map((id) => sql`${id}`), sql`, `)}]::int[]` : sql`null::int[]`})`);
    },

    /** The shopper's words, each kept when the store knows it (or a word starting with it), else corrected to the closest known word. */
    async plan(q: string): Promise<SearchPlan | null> {
      const typed = searchWords(q);
      if (typed.length === 0) return null;
      const rows = rowsOf<{ w: string; known: boolean; near: string[] | null; best: number | null }>(
        await db.execute(sql`
          select w,
            exists (select 1 from ${dictionary} d where d.term like w || '%') as known,
            c.near, c.best
          from unnest(${textArray(typed)}) as w,
            lateral (select array_agg(n.term order by n.score desc, n.term) as near, max(n.score) as best
              from (select d.term, similarity(d.term, w) as score from ${dictionary} d
                where similarity(d.term, w) > ${NEAR} order by score desc, d.term limit ${CANDIDATES}) n) c`),
      );
      const words = typed.map((w) => {
        const row = rows.find((r) => r.w === w);
        if (!row || row.known || !row.near?.length) return w;
        // Close enough by trigrams ("lether" → "leather"), else one clear slip away ("sandles" → "sandals").
        return (row.best !== null && Number(row.best) >= CORRECT ? row.near[0] : clearCorrection(w, row.near)) ?? w;
      });
      const corrected = words.some((w, i) => w !== typed[i]) ? words.join(' ') : null;
      return { words, corrected };
    },

    /** The text-search condition and rank for a plan: every word (as a prefix) when `all`, else any. */
    match(plan: SearchPlan, all: boolean): { where: SQL; rank: SQL } {
      // A shop word finds the catalogue's words for it too ("handbag" or "bag").
      const parts = plan.words.map((w) => sql`to_tsquery('english', ${wordsFound(w).map((x) => `${x}:*`).join(' | ')})`);
      const query = sql`(${sql.join(parts, all ? sql` && ` : sql` || `)})`;
      return {
        where: sql`${products.searchDocument} @@ ${query}`,
        // Weights {D, C, B, A}: a word in the name counts most, then categories and colours, then the description.
        rank: sql`ts_rank('{0.05, 0.2, 0.5, 1.0}', ${products.searchDocument}, ${query})`,
      };
    },

    /** "Did you mean": up to three known words close to each word that found nothing, as whole queries. */
    async didYouMean(plan: SearchPlan): Promise<string[]> {
      const rows = rowsOf<{ w: string; term: string }>(
        await db.execute(sql`
          select w, t.term from unnest(${textArray(plan.words)}) as w,
            lateral (select d.term from ${dictionary} d
              where similarity(d.term, w) > ${NEAR} and d.term <> w
              order by similarity(d.term, w) desc, d.term limit 3) t`),
      );
      const out = new Set<string>();
      for (let k = 0; k < 3; k++) {
        const alternative = plan.words.map((w) => rows.filter((r) => r.w === w)[k]?.term ?? w);
        if (alternative.some((w, i) => w !== plan.words[i])) out.add(alternative.join(' '));
      }
      return [...out];
    },

    /** Known words starting like what is being typed (the search field's suggestions), most similar first. */
    async suggest(q: string, limit = 6): Promise<string[]> {
      const typed = searchWords(q);
      const last = typed.at(-1);
      if (!last || last.length < 2) return [];
      const head = typed.slice(0, -1).join(' ');
      const rows = rowsOf<{ term: string }>(
        await db.execute(sql`
          select d.term from ${dictionary} d
          where d.term like ${`${last}%`} or d.term % ${last}
          order by (d.term like ${`${last}%`}) desc, similarity(d.term, ${last}) desc, d.term
          limit ${limit}`),
      );
      return rows.map((r) => (head ? `${head} ${r.term}` : r.term));
    },

    /** Records a search for the back office's report: queued, and written within a second in one batch with the others. */
    record(query: string, results: number, market: MarketCode): void {
      const words = searchWords(query).join(' ');
      if (!words) return;
      pending.push({ query: words.slice(0, 100), results, market });
      if (pending.length >= RECORD_BATCH) void flush();
      else timer ??= setTimeout(() => void flush(), RECORD_DELAY_MS).unref();
    },

    /** Writes the searches still queued (the report does, and the server before it stops). */
    flush,

    /** The back office's report: the most frequent searches, and those that found nothing, since `since`. */
    async report(since: Date, limit = 10) {
      await flush();
      const top = (where: SQL | undefined) =>
        db
          .select({ query: searchLog.query, searches: sql<number>`count(*)::int`, results: sql<number>`max(${searchLog.results})::int` })
          .from(searchLog)
          .where(and(gte(searchLog.createdAt, since), where))
          .groupBy(searchLog.query)
          .orderBy(desc(sql`count(*)`), searchLog.query)
          .limit(limit);
      const [frequent, empty] = await Promise.all([top(undefined), top(eq(searchLog.results, 0))]);
      return { frequent, empty };
    },
  };
}
export type SearchService = ReturnType<typeof createSearch>;

/** Retention: deletes what shoppers searched for before `cutoff` (the report's log); answers how many. */
export async function purgeSearchLogBefore(db: Db, cutoff: Date): Promise<number> {
  const gone = await db.delete(searchLog).where(lt(searchLog.createdAt, cutoff)).returning({ id: searchLog.id });
  return gone.length;
}
