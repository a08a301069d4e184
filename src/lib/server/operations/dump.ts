import { sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../infra/db/client';

/**
 * The store's own logical dump: every table of the public schema, row by row in PostgreSQL's text
 * form, plus the sequences and the migrations the schema was built by. It is what `npm run backup`
 * writes for PGlite (whose pg_dump breaks on real sizes), what `npm run restore` loads into PGlite
 * or PostgreSQL, and what `npm run db:move` streams from one to the other.
 *
 * The stream is JSON lines: a header, then for each table a `table` line, its rows (arrays of
 * text or null, in the header's column order) and an `end` line with the row count and checksum
 * read in the same snapshot, then a `done` line. A file cut short has no `done` line and is refused.
 *
 * Reading happens in one REPEATABLE READ transaction (one snapshot), paged by primary key so no
 * page is larger than a few megabytes whatever the store's size. Loading disables the tables'
 * own triggers (the rollups would count every order twice) and loads parents before children.
 */

export const DUMP_FORMAT = 'maison-store-dump';
export const DUMP_VERSION = 1;

export interface TableInfo {
  name: string;
  /** Columns written (generated ones are left out: the target computes them). */
  columns: string[];
  /** Each column's type as format_type names it, for the casts on load. */
  types: string[];
  /** Primary key columns (paging); empty: paged by physical position. */
  key: string[];
}

export interface DumpHeader {
  format: typeof DUMP_FORMAT;
  version: number;
  createdAt: string;
  driver: 'pglite' | 'pg';
  /** Hashes of the migrations applied, oldest first. */
  migrations: string[];
  tables: TableInfo[];
  sequences: { name: string; value: string | null }[];
}

export type DumpLine =
  | DumpHeader
  | { table: string }
  | (string | null)[]
  | { end: string; rows: number; checksum: string }
  | { done: true; tables: number; rows: number };

export interface TableCount {
  rows: number;
  checksum: string;
}

async function rows<T>(db: Db | Tx, query: SQL): Promise<T[]> {
  const result = await db.execute(query);
  return (result as unknown as { rows: T[] }).rows;
}

const ident = (name: string) => sql.identifier(name);
const list = (names: string[]) => sql.join(names.map(ident), sql`, `);

/** Text output that reads back the same on any server: UTC times, ISO dates, exact floats, hex bytes. */
async function stableTextSettings(tx: Tx): Promise<void> {
  await tx.execute(sql`set local time zone 'UTC'`);
  await tx.execute(sql`set local datestyle = 'ISO, YMD'`);
  await tx.execute(sql`set local intervalstyle = 'postgres'`);
  await tx.execute(sql`set local extra_float_digits = 1`);
  await tx.execute(sql`set local bytea_output = 'hex'`);
}

/** The public schema's tables, parents before the tables that refer to them. */
export async function describeTables(db: Db | Tx): Promise<TableInfo[]> {
  const cols = await rows<{ table: string; column: string; type: string }>(
    db,
    sql`select c.relname as "table", a.attname as "column", format_type(a.atttypid, a.atttypmod) as "type"
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute a on a.attrelid = c.oid
        where n.nspname = 'public' and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
        order by c.relname, a.attnum`,
  );
  const keys = await rows<{ table: string; column: string }>(
    db,
    sql`select c.relname as "table", a.attname as "column"
        from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace
        cross join lateral unnest(i.indkey) with ordinality as k(attnum, ord)
        join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum
        where n.nspname = 'public' and i.indisprimary
        order by c.relname, k.ord`,
  );
  const refs = await rows<{ child: string; parent: string }>(
    db,
    sql`select c.relname as child, p.relname as parent
        from pg_constraint f join pg_class c on c.oid = f.conrelid join pg_class p on p.oid = f.confrelid
        join pg_namespace n on n.oid = c.relnamespace
        where f.contype = 'f' and n.nspname = 'public' and c.oid <> p.oid`,
  );
  const tables = new Map<string, TableInfo>();
  for (const c of cols) {
    const t = tables.get(c.table) ?? { name: c.table, columns: [], types: [], key: [] };
    t.columns.push(c.column);
    t.types.push(c.type);
    tables.set(c.table, t);
  }
  for (const k of keys) tables.get(k.table)?.key.push(k.column);
  // Depth-first: a table is listed after every table it refers to.
  const parents = new Map<string, string[]>();
  for (const r of refs) parents.set(r.child, [...(parents.get(r.child) ?? []), r.parent]);
  const ordered: TableInfo[] = [];
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const p of parents.get(name) ?? []) visit(p);
    const t = tables.get(name);
    if (t) ordered.push(t);
  };
  for (const name of [...tables.keys()].sort()) visit(name);
  return ordered;
}

/**
 * Rows and an order-free checksum of one table: the sum of the first 60 bits of each row's md5,
 * over the dumped columns in PostgreSQL's text form. Equal on two stores holding the same rows.
 */
async function countTable(tx: Tx, t: TableInfo): Promise<TableCount> {
  const row = sql`row(${list(t.columns)})::text`;
  const [r] = await rows<{ rows: string; checksum: string }>(
    tx,
    sql`select count(*)::text as rows, coalesce(sum(('x' || left(md5(${row}), 15))::bit(60)::bigint), 0)::text as checksum from ${ident(t.name)}`,
  );
  return { rows: Number(r?.rows ?? 0), checksum: r?.checksum ?? '0' };
}

/** Every table's rows and checksum, read in one snapshot. */
export async function tableCounts(db: Db): Promise<Map<string, TableCount>> {
  return db.transaction(
    async (tx) => {
      await stableTextSettings(tx);
      const out = new Map<string, TableCount>();
      for (const t of await describeTables(tx)) out.set(t.name, await countTable(tx, t));
      return out;
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** Bytes a page of rows should stay under, whatever the width of a table's rows (images are wide). */
const PAGE_BYTES = 4 * 1024 * 1024;
const MAX_PAGE_ROWS = 2000;

async function pageRows(tx: Tx, t: TableInfo): Promise<number> {
  const [r] = await rows<{ width: string | null }>(
    tx,
    sql`select avg(pg_column_size(s.*))::text as width from (select * from ${ident(t.name)} limit 50) s`,
  );
  const width = Math.max(1, Number(r?.width ?? 1));
  return Math.max(1, Math.min(MAX_PAGE_ROWS, Math.floor(PAGE_BYTES / (width * 2))));
}

/** One table, page by page, each row's columns in text form. */
async function* tableRows(tx: Tx, t: TableInfo): AsyncGenerator<(string | null)[]> {
  const limit = await pageRows(tx, t);
  const select = sql.join(
    t.columns.map((c) => sql`${ident(c)}::text`),
    sql`, `,
  );
  const keyIndex = t.key.map((k) => t.columns.indexOf(k));
  let after: (string | null)[] | undefined;
  let afterTid: string | undefined;
  for (;;) {
    let page: Record<string, string | null>[];
    if (t.key.length > 0 && keyIndex.every((i) => i >= 0)) {
      const keyCols = sql`(${list(t.key)})`;
      const from = after
        ? sql`where ${keyCols} > (${sql.join(
            t.key.map((_, i) => sql`${after![i]}::${sql.raw(t.types[keyIndex[i]!]!)}`),
            sql`, `,
          )})`
        : sql``;
      // Ordered by the table's columns, not the text outputs of the same names (10 < 9 as text).
      const order = sql.join(
        t.key.map((k) => sql`${ident('__t')}.${ident(k)}`),
        sql`, `,
      );
      page = await rows(tx, sql`select ${select} from ${ident(t.name)} as ${ident('__t')} ${from} order by ${order} limit ${limit}`);
    } else {
      const from = afterTid ? sql`where ctid > ${afterTid}::tid` : sql``;
      page = await rows(tx, sql`select ctid::text as "__tid", ${select} from ${ident(t.name)} ${from} order by ctid limit ${limit}`);
      afterTid = page.at(-1)?.__tid ?? undefined;
    }
    for (const r of page) {
      const values = t.columns.map((c) => r[c] ?? null);
      yield values;
      after = keyIndex.map((i) => values[i] ?? null);
    }
    if (page.length < limit) return;
  }
}

export interface DumpSummary {
  tables: { name: string; rows: number; checksum: string }[];
  rows: number;
}

/**
 * Writes the whole store as dump lines (see DumpLine) to `write`, which may wait (back-pressure).
 * One REPEATABLE READ, read-only transaction: every table as of the same moment.
 */
export async function dumpStore(db: Db, driver: 'pglite' | 'pg', write: (line: DumpLine) => Promise<void> | void): Promise<DumpSummary> {
  return db.transaction(
    async (tx) => {
      await stableTextSettings(tx);
      const tables = await describeTables(tx);
      const header: DumpHeader = {
        format: DUMP_FORMAT,
        version: DUMP_VERSION,
        createdAt: new Date().toISOString(),
        driver,
        migrations: await appliedMigrations(tx),
        tables,
        sequences: await rows<{ name: string; value: string | null }>(
          tx,
          sql`select sequencename as name, last_value::text as value from pg_sequences where schemaname = 'public' order by sequencename`,
        ),
      };
      await write(header);
      const summary: DumpSummary = { tables: [], rows: 0 };
      for (const t of tables) {
        await write({ table: t.name });
        let n = 0;
        for await (const r of tableRows(tx, t)) {
          await write(r);
          n++;
        }
        const count = await countTable(tx, t);
        if (count.rows !== n) throw new Error(`dump of ${t.name}: ${n} rows written, ${count.rows} in the table`);
        await write({ end: t.name, ...count });
        summary.tables.push({ name: t.name, ...count });
        summary.rows += n;
      }
      await write({ done: true, tables: tables.length, rows: summary.rows });
      return summary;
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** Migration hashes applied to this database (drizzle's table), oldest first; none on an empty one. */
export async function appliedMigrations(db: Db | Tx): Promise<string[]> {
  const [exists] = await rows<{ t: string | null }>(db, sql`select to_regclass('drizzle.__drizzle_migrations')::text as t`);
  if (!exists?.t) return [];
  const found = await rows<{ hash: string }>(db, sql`select hash from drizzle.__drizzle_migrations order by created_at, id`);
  return found.map((r) => r.hash);
}

/**
 * Rows in the store's tables, all together, leaving out the system promotions the migrations
 * write themselves: 0 for a store that has only been migrated.
 */
export async function storeRows(db: Db): Promise<number> {
  const counts = await tableCounts(db);
  let n = 0;
  for (const c of counts.values()) n += c.rows;
  if (counts.has('promotions')) {
    const [r] = await rows<{ n: string }>(db, sql`select count(*)::text as n from promotions where system_key is not null`);
    n -= Number(r?.n ?? 0);
  }
  return n;
}

export class DumpError extends Error {}

const LOAD_BATCH_BYTES = 4 * 1024 * 1024;
const LOAD_BATCH_ROWS = 2000;

export interface LoadSummary {
  header: DumpHeader;
  tables: { name: string; rows: number; checksum: string; verified: boolean }[];
  rows: number;
}

/**
 * Loads dump lines into a store whose schema is at the dump's migrations (the caller migrates):
 * every table is emptied first, then filled in batches, its sequences set, and each table's
 * count and checksum compared with the dump's in the same transaction, so a mismatch loads nothing.
 */
export async function loadStore(
  db: Db,
  lines: AsyncIterable<DumpLine>,
  opts: { beforeLoad?: (header: DumpHeader) => Promise<void>; onTable?: (name: string, rows: number) => void } = {},
): Promise<LoadSummary> {
  const it = lines[Symbol.asyncIterator]();
  const first = await it.next();
  const header = first.value as DumpHeader | undefined;
  if (first.done || !header || (header as { format?: string }).format !== DUMP_FORMAT) throw new DumpError('not a store dump (its first line is not the header)');
  if (header.version !== DUMP_VERSION) throw new DumpError(`dump version ${header.version}; this store reads version ${DUMP_VERSION}`);
  await opts.beforeLoad?.(header);
  return db.transaction(async (tx) => {
    await stableTextSettings(tx);
    const target = new Map((await describeTables(tx)).map((t) => [t.name, t]));
    for (const t of header.tables) {
      const have = target.get(t.name);
      const missing = t.columns.filter((c) => !have?.columns.includes(c));
      if (missing.length > 0) throw new DumpError(`the target has no ${have ? `column(s) ${missing.join(', ')} in` : 'table'} ${t.name}`);
    }
    // Emptied first (the migrations may have written rows of their own), triggers off while loading.
    if (target.size > 0) await tx.execute(sql`truncate ${list([...target.keys()])} restart identity cascade`);
    for (const name of target.keys()) await tx.execute(sql`alter table ${ident(name)} disable trigger user`);
    const byName = new Map(header.tables.map((t) => [t.name, t]));
    const summary: LoadSummary = { header, tables: [], rows: 0 };
    let table: TableInfo | undefined;
    let batch: (string | null)[][] = [];
    let batchBytes = 0;
    let loaded = 0;
    const flush = async () => {
      if (!table || batch.length === 0) return;
      const t = table;
      const casts = sql.join(
        t.columns.map((_, i) => sql`(r->>${sql.raw(String(i))})::${sql.raw(t.types[i]!)}`),
        sql`, `,
      );
      await tx.execute(sql`insert into ${ident(t.name)} (${list(t.columns)}) overriding system value select ${casts} from json_array_elements(${JSON.stringify(batch)}::json) r`);
      loaded += batch.length;
      batch = [];
      batchBytes = 0;
    };
    let done = false;
    for (;;) {
      const next = await it.next();
      if (next.done) break;
      const line = next.value;
      if (Array.isArray(line)) {
        if (!table) throw new DumpError('a row before its table');
        batch.push(line);
        batchBytes += line.reduce((s, v) => s + (v?.length ?? 4), 0);
        if (batch.length >= LOAD_BATCH_ROWS || batchBytes >= LOAD_BATCH_BYTES) await flush();
      } else if ('table' in line) {
        table = byName.get(line.table);
        if (!table) throw new DumpError(`table ${line.table} is not in the dump's header`);
        loaded = 0;
      } else if ('end' in line) {
        await flush();
        const t = table;
        if (!t || t.name !== line.end) throw new DumpError(`end of ${line.end} out of place`);
        const count = await countTable(tx, t);
        const verified = count.rows === line.rows && count.checksum === line.checksum && loaded === line.rows;
        if (!verified) throw new DumpError(`${t.name}: the dump has ${line.rows} rows (checksum ${line.checksum}), the store now ${count.rows} (checksum ${count.checksum})`);
        summary.tables.push({ name: t.name, rows: count.rows, checksum: count.checksum, verified });
        summary.rows += count.rows;
        opts.onTable?.(t.name, count.rows);
        table = undefined;
      } else if ('done' in line) {
        if (line.tables !== summary.tables.length || line.rows !== summary.rows) throw new DumpError('the dump ends with other totals than it holds');
        done = true;
        break;
      }
    }
    if (!done) throw new DumpError('the dump is cut short (no end line): it was not written to the end');
    for (const s of header.sequences) {
      await tx.execute(
        s.value === null
          ? sql`select setval(format('%I.%I', 'public', ${s.name}::text)::regclass, 1, false)`
          : sql`select setval(format('%I.%I', 'public', ${s.name}::text)::regclass, ${s.value}::bigint, true)`,
      );
    }
    for (const name of target.keys()) await tx.execute(sql`alter table ${ident(name)} enable trigger user`);
    return summary;
  });
}
