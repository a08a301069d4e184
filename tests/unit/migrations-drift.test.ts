import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import config from '../../drizzle.config';

/**
 * The features' tables files and the committed migrations say the same: drizzle-kit, reading the
 * tables as drizzle.config.ts names them, finds nothing to generate against a copy of the
 * migrations. A copy whose latest snapshot lacks a table is told apart, so the check is not blind.
 */
const MIGRATIONS = 'src/lib/server/infra/db/migrations';
const scratch = mkdtempSync(path.join(tmpdir(), 'migrations-drift-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function generate(out: string): { output: string; files: string[] } {
  const schema = Array.isArray(config.schema) ? config.schema : [config.schema];
  expect(schema).toHaveLength(1);
  // drizzle-kit joins a relative --out to the working directory.
  const output = execFileSync(
    process.execPath,
    ['node_modules/drizzle-kit/bin.cjs', 'generate', `--dialect=${config.dialect}`, `--schema=${schema[0]}`, `--out=${path.relative(process.cwd(), out)}`],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return { output, files: readdirSync(out).sort() };
}

describe('the tables files match the migrations', () => {
  it('drizzle-kit generate finds no schema change', () => {
    const out = path.join(scratch, 'same');
    cpSync(MIGRATIONS, out, { recursive: true });
    const before = readdirSync(out).sort();
    const { output, files } = generate(out);
    expect(output).toContain('No schema changes');
    expect(files).toEqual(before);
  }, 60_000);

  it('and sees a table the migrations do not have', () => {
    const out = path.join(scratch, 'behind');
    cpSync(MIGRATIONS, out, { recursive: true });
    // The latest snapshot forgets a table: drizzle-kit must want to create it.
    const snapshots = readdirSync(path.join(out, 'meta')).filter((f) => f.endsWith('_snapshot.json')).sort();
    const latest = path.join(out, 'meta', snapshots.at(-1)!);
    const snapshot = JSON.parse(readFileSync(latest, 'utf8')) as { tables: Record<string, unknown> };
    expect(snapshot.tables['public.backup_runs']).toBeDefined();
    delete snapshot.tables['public.backup_runs'];
    writeFileSync(latest, JSON.stringify(snapshot));
    const before = readdirSync(out).filter((f) => f.endsWith('.sql')).length;
    const { output, files } = generate(out);
    expect(output).not.toContain('No schema changes');
    const added = files.filter((f) => f.endsWith('.sql'));
    expect(added).toHaveLength(before + 1);
    expect(readFileSync(path.join(out, added.at(-1)!), 'utf8')).toContain('CREATE TABLE "backup_runs"');
  }, 60_000);
});
