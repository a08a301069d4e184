/**
 * JavaScript budgets for low-end phones (DESIGN.md "Pages and performance").
 * Starts the built server, loads each route's HTML, follows every script it can load
 * (script tags, module preloads, island components and renderers, and their imports),
 * and sums the gzipped bytes. Prints a table; exits 1 when a budget is broken.
 */
import { gzipSync } from 'node:zlib';
import { startServer } from '../tests/support/server';

interface Route {
  path: string;
  budgetKb?: number;
  noReact?: boolean;
}

const server = await startServer('pglite', { LOG_LEVEL: 'error' });
let failed = false;
try {
  const list = (await (await fetch(`${server.baseUrl}/api/v1/products?limit=1`)).json()) as { data: { docs: { id: number }[] } };
  const productId = list.data.docs[0]?.id;
  const routes: Route[] = [
    { path: '/about', budgetKb: 10, noReact: true },
    { path: '/privacy', budgetKb: 10, noReact: true },
    { path: '/contact', budgetKb: 10, noReact: true },
    { path: '/collection', budgetKb: 80 },
    { path: '/Bags-men', budgetKb: 80 },
    { path: `/product/${productId}`, budgetKb: 80 },
    { path: '/', budgetKb: 110 },
  ];

  const cache = new Map<string, Buffer>();
  async function fetchAsset(url: string): Promise<Buffer> {
    const hit = cache.get(url);
    if (hit) return hit;
    const res = await fetch(server.baseUrl + url);
    if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
    const buf = Buffer.from(await res.arrayBuffer());
    cache.set(url, buf);
    return buf;
  }

  const resolve = (from: string, spec: string) => new URL(spec, server.baseUrl + from).pathname;

  async function scriptGraph(entry: string[], seen = new Set<string>()): Promise<Set<string>> {
    const queue = [...entry];
    while (queue.length) {
      const url = queue.shift()!;
      if (seen.has(url)) continue;
      seen.add(url);
      const code = (await fetchAsset(url)).toString('utf8');
      const imports = [...code.matchAll(/(?:import|export)\s*(?:[\w*{}\s,$]*from\s*)?["']([^"']+\.m?js)["']|import\(\s*["']([^"']+\.m?js)["']\s*\)/g)];
      for (const m of imports) queue.push(resolve(url, (m[1] ?? m[2])!));
    }
    return seen;
  }

  const rows: string[][] = [];
  for (const route of routes) {
    const res = await fetch(server.baseUrl + route.path);
    const html = await res.text();
    const entries = new Set<string>();
    for (const m of html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)) entries.add(resolve(route.path, m[1]!));
    for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) entries.add(resolve(route.path, m[1]!));
    for (const m of html.matchAll(/\b(?:component-url|renderer-url|before-hydration-url)="([^"]+)"/g)) if (m[1]) entries.add(resolve(route.path, m[1]));
    const files = await scriptGraph([...entries]);
    let inlineBytes = 0;
    for (const m of html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/(?:ld\+)?json")[^>]*>([\s\S]*?)<\/script>/g)) {
      inlineBytes += gzipSync(m[1]!).length;
    }
    let total = inlineBytes;
    let react = /renderer-url="[^"]*react/i.test(html);
    for (const f of files) {
      const buf = await fetchAsset(f);
      total += gzipSync(buf).length;
      if (/react-dom|__reactFiber|react\.production/i.test(buf.toString('utf8'))) react = true;
    }
    const kb = total / 1024;
    const over = route.budgetKb !== undefined && kb > route.budgetKb;
    const reactBroken = route.noReact === true && react;
    if (res.status !== 200 || over || reactBroken) failed = true;
    rows.push([
      route.path,
      String(res.status),
      String(files.size),
      kb.toFixed(1),
      route.budgetKb ? `<= ${route.budgetKb}` : '-',
      react ? 'yes' : 'no',
      res.status !== 200 ? 'FAIL (status)' : over ? 'FAIL (size)' : reactBroken ? 'FAIL (React)' : 'ok',
    ]);
  }
  const header = ['route', 'status', 'js files', 'gzip KB', 'budget KB', 'React', 'result'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(line(header));
  for (const r of rows) console.log(line(r));
} finally {
  await server.stop();
}
if (failed) {
  console.error('JavaScript budget broken');
  process.exit(1);
}
