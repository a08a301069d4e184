/**
 * JavaScript budgets for low-end phones (DESIGN.md "Pages and performance").
 * Starts the built server, loads each route's HTML, follows every script it can load
 * (script tags, module preloads, island components and renderers, and their imports),
 * and sums the gzipped bytes (as the server sends them to a browser that accepts only gzip:
 * its build-time .gz files) and the bytes actually sent on the wire to a browser that accepts
 * brotli too. Prints a table; exits 1 when a budget
 * is broken.
 */
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { startServer } from '../tests/support/server';

interface Route {
  path: string;
  budgetKb?: number;
  /** Budget for the JavaScript bytes on the wire (compressed as served). */
  wireBudgetKb?: number;
  noReact?: boolean;
}

interface Fetched {
  status: number;
  body: Buffer;
  /** Bytes on the wire. */
  wire: number;
}

/** GET as a browser that accepts `encoding`: the decoded body and the bytes sent. */
function get(url: string, encoding = 'br, gzip'): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'accept-encoding': encoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const enc = res.headers['content-encoding'];
        const body = enc === 'br' ? brotliDecompressSync(raw) : enc === 'gzip' ? gunzipSync(raw) : raw;
        resolve({ status: res.statusCode ?? 0, body, wire: raw.length });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
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
    // Issue 8 sets the product page's budget as bytes on the wire (what a phone downloads, brotli):
    // at most 75 KB. Its gzip figure is reported beside it.
    { path: `/product/${productId}`, wireBudgetKb: 75 },
    { path: '/', budgetKb: 110 },
  ];

  const cache = new Map<string, Fetched & { gzipWire: number }>();
  async function fetchAsset(url: string): Promise<Fetched & { gzipWire: number }> {
    const hit = cache.get(url);
    if (hit) return hit;
    const [res, gz] = await Promise.all([get(server.baseUrl + url), get(server.baseUrl + url, 'gzip')]);
    if (res.status !== 200 || gz.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
    const fetched = { ...res, gzipWire: gz.wire };
    cache.set(url, fetched);
    return fetched;
  }

  const resolve = (from: string, spec: string) => new URL(spec, server.baseUrl + from).pathname;

  async function scriptGraph(entry: string[], seen = new Set<string>()): Promise<Set<string>> {
    const queue = [...entry];
    while (queue.length) {
      const url = queue.shift()!;
      if (seen.has(url)) continue;
      seen.add(url);
      const code = (await fetchAsset(url)).body.toString('utf8');
      const imports = [...code.matchAll(/(?:import|export)\s*(?:[\w*{}\s,$]*from\s*)?["']([^"']+\.m?js)["']|import\(\s*["']([^"']+\.m?js)["']\s*\)/g)];
      for (const m of imports) queue.push(resolve(url, (m[1] ?? m[2])!));
    }
    return seen;
  }

  const rows: string[][] = [];
  for (const route of routes) {
    const res = await get(server.baseUrl + route.path);
    const html = res.body.toString('utf8');
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
    let wire = 0;
    let react = /renderer-url="[^"]*react/i.test(html);
    for (const f of files) {
      const asset = await fetchAsset(f);
      total += asset.gzipWire;
      wire += asset.wire;
      if (/react-dom|__reactFiber|react\.production/i.test(asset.body.toString('utf8'))) react = true;
    }
    const kb = total / 1024;
    const wireKb = wire / 1024;
    const over = (route.budgetKb !== undefined && kb > route.budgetKb) || (route.wireBudgetKb !== undefined && wireKb > route.wireBudgetKb);
    const reactBroken = route.noReact === true && react;
    if (res.status !== 200 || over || reactBroken) failed = true;
    rows.push([
      route.path,
      String(res.status),
      String(files.size),
      kb.toFixed(1),
      route.budgetKb ? `<= ${route.budgetKb}` : '-',
      wireKb.toFixed(1),
      route.wireBudgetKb ? `<= ${route.wireBudgetKb}` : '-',
      (res.wire / 1024).toFixed(1),
      react ? 'yes' : 'no',
      res.status !== 200 ? 'FAIL (status)' : over ? 'FAIL (size)' : reactBroken ? 'FAIL (React)' : 'ok',
    ]);
  }
  const header = ['route', 'status', 'js files', 'js gzip KB', 'budget', 'js wire KB', 'wire budget', 'html wire KB', 'React', 'result'];
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
