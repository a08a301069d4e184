import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../../src/lib/server/db/client';

/** A store that ran before markets (one STORE_CURRENCY) keeps its prices when 0004_markets runs. */
describe('the markets migration', () => {
  const before = mkdtempSync(path.join(tmpdir(), 'ml-migrations-'));
  afterAll(() => rmSync(before, { recursive: true, force: true }));

  it('copies every product price into its market and drops the one store currency', async () => {
    cpSync(migrationsFolder, before, { recursive: true });
    const journalPath = path.join(before, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((e) => e.tag === '0004_markets');
    expect(at).toBeGreaterThan(0);
    writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));

    const client = new PGlite();
    const db = drizzle({ client });
    await migrate(db, { migrationsFolder: before });
    await db.execute(sql`insert into categories (name, slug) values ('Bags', 'bags')`);
    await db.execute(sql`insert into products (name, slug, description, price_minor, currency, category_id) values
      ('Naira Tote', 'naira-tote', 'x', 25000000, 'NGN', 1), ('Rand Clutch', 'rand-clutch', 'x', 450000, 'ZAR', 1)`);
    await migrate(db, { migrationsFolder });
    const { rows } = (await db.execute(sql`select p.slug, pp.market, pp.price_minor from product_prices pp join products p on p.id = pp.product_id order by p.slug`)) as unknown as {
      rows: { slug: string; market: string; price_minor: number | string }[];
    };
    expect(rows.map((r) => [r.slug, r.market, Number(r.price_minor)])).toEqual([
      ['naira-tote', 'NG', 25_000_000],
      ['rand-clutch', 'ZA', 450_000],
    ]);
    const cols = (await db.execute(sql`select column_name from information_schema.columns where table_name = 'products'`)) as unknown as { rows: { column_name: string }[] };
    expect(cols.rows.map((c) => c.column_name)).not.toContain('currency');
    await client.close();
  });
});
