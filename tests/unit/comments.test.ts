import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'migrations' || name === 'node_modules' ? [] : sources(path);
    return /\.(ts|tsx|astro|css|mjs)$/.test(name) ? [path] : [];
  });
}

describe('comments name only what is in the repository', () => {
  const files = [...sources('src'), ...sources('scripts'), 'astro.config.mjs', 'drizzle.config.ts', 'eslint.config.js'].filter((f) => existsSync(f));

  it('every file a comment points to is there', () => {
    const missing: string[] = [];
    for (const file of files) {
      for (const [path] of readFileSync(file, 'utf8').matchAll(/(?<![\w./-])(?:src|docs|tests|scripts|deploy)\/[\w./[\]-]+\.(?:ts|tsx|astro|md|css|mjs|js|conf|json)\b/g)) {
        if (!existsSync(path)) missing.push(`${file}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('no comment points to a design document or a specification kept elsewhere', () => {
    const outside = files.filter((file) => /DESIGN\.md|\b[Tt]he spec\b|\b[Ss]pec's\b|\bSpec:|\b[Ss]pec section\b/.test(readFileSync(file, 'utf8')));
    expect(outside).toEqual([]);
  });
});
