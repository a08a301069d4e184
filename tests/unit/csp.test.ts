import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import idleScript from 'astro/runtime/client/idle.prebuilt.js';
import loadScript from 'astro/runtime/client/load.prebuilt.js';
import visibleScript from 'astro/runtime/client/visible.prebuilt.js';
import islandScript from 'astro/runtime/server/astro-island.prebuilt.js';
import islandDevScript from 'astro/runtime/server/astro-island.prebuilt-dev.js';
import { USED_CLIENT_DIRECTIVES, withoutUnrunScripts } from '@/lib/server/infra/csp';

const hash = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
const inlinePageScript = hash('for(let e of document.querySelectorAll(`form.sort-form`)){}');

describe('the page policy keeps only the scripts a page can run', () => {
  it('drops the unused directives and the development island loader, and keeps the rest in order', () => {
    const policy = `default-src 'self';frame-ancestors 'none'; script-src 'self' ${inlinePageScript} ${hash(idleScript)} ${hash(loadScript)} ${hash(islandDevScript)} ${hash(visibleScript)} ${hash(islandScript)}; style-src 'self' 'unsafe-inline' ;`;
    expect(withoutUnrunScripts(policy)).toBe(
      `default-src 'self';frame-ancestors 'none'; script-src 'self' ${inlinePageScript} ${hash(loadScript)} ${hash(visibleScript)} ${hash(islandScript)}; style-src 'self' 'unsafe-inline' ;`,
    );
  });

  it('names every client directive the pages use', () => {
    const used = new Set<string>();
    for (const file of readdirSync('src', { recursive: true, encoding: 'utf8' })) {
      if (!/\.(astro|tsx?)$/.test(file)) continue;
      for (const m of readFileSync(`src/${file}`, 'utf8').matchAll(/\bclient:([a-z]+)\b/g)) used.add(m[1]!);
    }
    expect([...used].sort()).toEqual([...USED_CLIENT_DIRECTIVES].sort());
  });
});
