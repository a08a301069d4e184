/**
 * Shared by `npm run lighthouse` and `npm run bench`: which store to measure.
 * Either a running store (`--url http://127.0.0.1:4321`), or by default the built server
 * (`dist/server/entry.mjs`, or `$STORE_DIST`) started here on a free port with a fresh
 * database (a temporary PGlite directory, or `--driver pg` for a new PostgreSQL database),
 * (the built server always runs in production mode). Nothing is built: run `npm run build` first.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startServer, type Driver } from '../tests/support/server';

export interface Target {
  baseUrl: string;
  /** How the store was reached, for the report. */
  description: string;
  stop(): Promise<void>;
}

export async function openTarget(opts: { url?: string; driver?: string }): Promise<Target> {
  if (opts.url) {
    const baseUrl = opts.url.replace(/\/+$/, '');
    const health = await fetch(`${baseUrl}/api/v1/health`).catch((e: unknown) => {
      throw new Error(`${baseUrl} is not reachable: ${e instanceof Error ? e.message : String(e)}`);
    });
    if (!health.ok) throw new Error(`${baseUrl}/api/v1/health answered ${health.status}`);
    return { baseUrl, description: `running store at ${baseUrl}`, stop: async () => {} };
  }
  const driver: Driver = opts.driver === 'pg' ? 'pg' : 'pglite';
  const entry = `${process.env.STORE_DIST ?? 'dist'}/server/entry.mjs`;
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first (or pass --url)`);
  const server = await startServer(driver, { LOG_LEVEL: 'error' });
  return {
    baseUrl: server.baseUrl,
    description: `built server (${entry}), fresh ${driver === 'pg' ? 'PostgreSQL' : 'PGlite'} database, production mode, ${server.baseUrl}`,
    stop: () => server.stop(),
  };
}

/** Throws a plain message when the store no longer answers (stopped, or killed from outside). */
export async function assertAlive(baseUrl: string): Promise<void> {
  try {
    const res = await fetch(`${baseUrl}/api/v1/health`, { signal: AbortSignal.timeout(30_000) });
    if (res.ok) return;
    throw new Error(`HTTP ${res.status}`);
  } catch (e) {
    const why = e instanceof Error ? `${e.message}${e.cause instanceof Error ? ` (${e.cause.message})` : ''}` : String(e);
    throw new Error(`the store at ${baseUrl} stopped answering: ${why}; measurement abandoned`);
  }
}

/** The id of a real product: the first one the public catalogue API lists. */
export async function firstProductId(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/v1/products?limit=1`);
  const body = (await res.json()) as { data?: { docs?: { id?: string | number }[] } };
  const id = body.data?.docs?.[0]?.id;
  if (id === undefined) throw new Error(`GET /api/v1/products?limit=1 answered ${res.status} without data.docs[0].id`);
  return String(id);
}

/**
 * Loads each path once, with the same-origin scripts, stylesheets and images (every srcset
 * rendition) its HTML names, so that nothing is measured cold.
 */
export async function warmUp(baseUrl: string, paths: string[], headers: Record<string, string> = {}): Promise<void> {
  for (const p of paths) {
    const res = await fetch(baseUrl + p, { headers });
    const text = await res.text();
    if (!(res.headers.get('content-type') ?? '').includes('html')) continue;
    const assets = new Set<string>();
    for (const m of text.matchAll(/(?:src|href)="(\/[^/"][^"]*)"/g)) if (/^\/(_astro|media)\//.test(m[1]!)) assets.add(m[1]!);
    for (const m of text.matchAll(/srcset="([^"]+)"/g)) {
      for (const candidate of m[1]!.split(',')) {
        const url = candidate.trim().split(/\s+/)[0];
        if (url?.startsWith('/') && !url.startsWith('//')) assets.add(url);
      }
    }
    const list = [...assets];
    for (let i = 0; i < list.length; i += 8) {
      await Promise.all(list.slice(i, i + 8).map((a) => fetch(baseUrl + a, { headers }).then((r) => r.arrayBuffer())));
    }
  }
}

/** Writes a JSON report under .bench/ and returns its path. */
export function writeReport(file: string, data: unknown): string {
  const out = path.join('.bench', file);
  mkdirSync('.bench', { recursive: true });
  writeFileSync(out, JSON.stringify(data, null, 2) + '\n');
  return out;
}

/** A plain text table, columns padded; numeric-looking cells right-aligned. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const numeric = (s: string) => /^[-+]?[\d.,]+\s?\S{0,3}$/.test(s);
  const line = (cells: string[]) =>
    cells.map((c, i) => (numeric(c) && i > 0 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(header), line(header.map((_, i) => '-'.repeat(widths[i]!))), ...rows.map(line)].join('\n');
}

export function median(values: number[]): number {
  const s = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
