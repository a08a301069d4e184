import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { ASIDE, COLUMN_OWNERS, TABLE_OWNERS } from '../../eslint/table-owners.js';

/**
 * One owner per table. The lint rule house/table-writes (eslint/house.js) checks every write against
 * the owner map in eslint/table-owners.js; what it cannot see is checked here: that the map covers
 * every table and names owners in the table's own feature, and that no write hides in SQL text.
 */
const SERVER = 'src/lib/server';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : name.endsWith('.ts') ? [path] : [];
  });
}

const moduleOf = (path: string) => relative(SERVER, path).replace(/\\/g, '/').replace(/\.ts$/, '');
const featureOf = (module: string) => module.split('/')[0]!;
/** Modules of ASIDE (the seeds, the dump), and the features whose tables they may write. */
const asideFeatures = (module: string) =>
  Object.entries(ASIDE)
    .filter(([pattern]) => new RegExp(`^${pattern.replace(/\*/g, '[^/]*')}$`).test(module))
    .flatMap(([, features]) => features);

/** Every table of the features' tables files: the name it is exported as -> its feature. */
async function tables(): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const feature of readdirSync(SERVER)) {
    const file = join(SERVER, feature, 'tables.ts');
    if (!statSync(join(SERVER, feature)).isDirectory() || !sources(join(SERVER, feature)).includes(file)) continue;
    const exported = (await import(`../../src/lib/server/${feature}/tables.ts`)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(exported)) if (is(value, PgTable)) found.set(name, feature);
  }
  return found;
}

describe('one owner per table', () => {
  it('every table has an owner in its own feature (or in code aside that may write it), and the map names only tables', async () => {
    const all = await tables();
    expect(all.size).toBeGreaterThan(50);
    expect([...all.keys()].filter((t) => !TABLE_OWNERS[t]), 'tables without an owner in eslint/table-owners.js').toEqual([]);
    expect(Object.keys(TABLE_OWNERS).filter((t) => !all.has(t)), 'owners of tables that do not exist').toEqual([]);
    const strays = Object.entries(TABLE_OWNERS).filter(([table, owner]) => {
      const feature = all.get(table)!;
      return featureOf(owner) !== feature && !asideFeatures(owner).some((f) => f === '*' || f === feature);
    });
    expect(strays, 'owners outside their table’s feature').toEqual([]);
    for (const key of Object.keys(COLUMN_OWNERS)) expect(all.has(key.split('.')[0]!), key).toBe(true);
    const modules = new Set(sources(SERVER).map(moduleOf));
    const missing = [...new Set([...Object.values(TABLE_OWNERS), ...Object.values(COLUMN_OWNERS)])].filter((m) => !modules.has(m));
    expect(missing, 'owners that are not modules').toEqual([]);
  });

  it('no write is in SQL text, where lint would not see it (the seeds and the dump aside)', () => {
    const rawSql: string[] = [];
    for (const path of sources(SERVER)) {
      const module = moduleOf(path);
      if (module.includes('/migrations/') || asideFeatures(module).length) continue;
      const text = readFileSync(path, 'utf8');
      for (const m of text.matchAll(/sql(\.raw)?\s*\(?\s*`[^`]*\b(insert\s+into|delete\s+from|update\s+\S+\s+set)\b/gi)) {
        rawSql.push(`${module}:${text.slice(0, m.index).split('\n').length}`);
      }
    }
    expect(rawSql, 'writes in SQL text (use drizzle, so the owner is checked)').toEqual([]);
  });

  it("search's document is built only by the SQL function ml_refresh_search, and only the search module calls it", () => {
    const callers = sources('src').filter((f) => !/migrations/.test(f) && readFileSync(f, 'utf8').includes('ml_refresh_search'));
    expect(callers.map((f) => f.replace(/\\/g, '/'))).toEqual(['src/lib/server/catalogue/search.ts']);
    const setters = sources(SERVER).filter((f) => !f.endsWith('tables.ts') && /\bsearchDocument\s*:/.test(readFileSync(f, 'utf8')));
    expect(setters).toEqual([]);
  });
});
