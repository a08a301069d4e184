import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pgliteExtensions } from '@/lib/server/infra/db/pglite-extensions';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '@/lib/server/infra/db/client';

/** A store that ran before markets (one STORE_CURRENCY) keeps its prices when 0004_markets and 0005_variant_prices run. */
describe('the markets migration', () => {
  const before = mkdtempSync(path.join(tmpdir(), 'ml-migrations-'));
  afterAll(() => rmSync(before, { recursive: true, force: true }));

  it('copies every product price into its market, then onto each of its variants, and drops the one store currency', async () => {
    cpSync(migrationsFolder, before, { recursive: true });
    const journalPath = path.join(before, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((e) => e.tag === '0004_markets');
    expect(at).toBeGreaterThan(0);
    writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));

    const client = new PGlite({ extensions: await pgliteExtensions() });
    const db = drizzle({ client });
    await migrate(db, { migrationsFolder: before });
    await db.execute(sql`insert into categories (name, slug) values ('Bags', 'bags')`);
    await db.execute(sql`insert into products (name, slug, description, price_minor, currency, category_id) values
      ('Naira Tote', 'naira-tote', 'x', 25000000, 'NGN', 1), ('Rand Clutch', 'rand-clutch', 'x', 450000, 'ZAR', 1)`);
    await db.execute(sql`insert into colors (name, hex) values ('Black', '#000000'), ('Tan', '#a0522d')`);
    await db.execute(sql`insert into variants (product_id, color_id, stock) values (1, 1, 3), (1, 2, 0), (2, 1, 1)`);
    await migrate(db, { migrationsFolder });
    const { rows } = (await db.execute(
      sql`select p.slug, v.color_id, vp.market, vp.price_minor from variant_prices vp join variants v on v.id = vp.variant_id join products p on p.id = v.product_id order by p.slug, v.color_id`,
    )) as unknown as {
      rows: { slug: string; color_id: number; market: string; price_minor: number | string }[];
    };
    expect(rows.map((r) => [r.slug, r.color_id, r.market, Number(r.price_minor)])).toEqual([
      ['naira-tote', 1, 'NG', 25_000_000],
      ['naira-tote', 2, 'NG', 25_000_000],
      ['rand-clutch', 1, 'ZA', 450_000],
    ]);
    const tables = (await db.execute(sql`select tablename from pg_tables where schemaname = 'public'`)) as unknown as { rows: { tablename: string }[] };
    expect(tables.rows.map((t) => t.tablename)).not.toContain('product_prices');
    const cols = (await db.execute(sql`select column_name from information_schema.columns where table_name = 'products'`)) as unknown as { rows: { column_name: string }[] };
    expect(cols.rows.map((c) => c.column_name)).not.toContain('currency');
    await client.close();
  });
});
