/**
 * Byte budgets for low-end phones (docs/measuring.md, docs/decisions/0022).
 *
 * 1. JavaScript per route: starts the built server, loads each route's HTML, follows every script
 *    it can load (script tags, module preloads, island components and renderers, and their imports,
 *    dynamic ones too, save the chunk a page imports with its first toast: its bytes are a column
 *    of their own), and sums the gzipped bytes (as the server sends them to a browser that
 *    accepts only gzip: its build-time .gz files) and the bytes actually sent on the wire to a
 *    browser that accepts brotli too.
 * 2. The purchase path: the demo shopper, cold (a fresh browser profile), at 360 px in Debian's
 *    Chromium: home -> sign in -> product -> ADD TO CART -> cart -> checkout. Every byte the
 *    browser receives (CDP Network.loadingFinished encodedDataLength: headers and bodies as sent)
 *    and every request that went to the network, per step and in all. Then the same walk again,
 *    warm (the browser's cache kept, signed out first): its requests, and the bytes of its product
 *    step, a repeat visit to a product page seen before.
 *
 * Prints both tables; exits 1 when a budget is broken.
 */
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { DEMO_USER } from '../src/lib/server/demo/seed';
import { debianChromium } from '../tests/support/playwright-common';
import { startServer } from '../tests/support/server';

/**
 * The whole purchase path, cold, on the wire: the build fails above it. 200.0 KB and 58 requests
 * on 2026-11-26 with the toaster of ADR 0021; 191.6 KB and 39 requests (10 warm) with the chunks
 * and inlined page stylesheets of ADR 0022; 195.5 KB with the structured data of ADR 0023, the
 * header links and zoom of ADR 0028 and the cards of ADR 0029; 198.8 KB on 2026-12-02 with the
 * VAT lines, lockers and documents of the books, once API answers and pictures shed the headers
 * they never use (ADR 0017); 198.4 KB on 2026-12-03 once pages' policies dropped the hashes of
 * scripts no page runs (src/lib/server/infra/csp.ts). React (61 KB with the toaster, for the sign-in, product, cart and checkout
 * islands) is the largest part. The banner's Swiper (~23 KB) is not on the path: it is fetched
 * when the shopper reaches for the banner or its first turn falls due
 * (src/lib/client/hero-banner.ts); the home route's JavaScript above still counts it.
 */
const PATH_BUDGET_KB = 200;
/**
 * Requests that reach the network on the path: on a 2G link each round trip costs about half a
 * second. Cold, from an empty cache; warm, the same walk again with the cache the first one left.
 * The build fails above either.
 */
const PATH_REQUESTS_COLD = 40;
const PATH_REQUESTS_WARM = 15;
/** A product page seen before, opened again on the warm walk: its bytes on the wire; the build fails above it (ADR 0031). */
const REPEAT_PRODUCT_KB = 10;
/** The step that stands for the service worker's own requests (not a page of the path). */
const WORKER_STEP = 'service worker';
/**
 * The chunk a page imports with its first toast: the toaster (src/lib/client/toaster-root.ts)
 * lives in the `react` chunk (astro.config.mjs), so a dynamic import of that chunk is the first
 * toast's cost, not the page's (a page with islands has it already).
 */
const TOASTER_CHUNK = /\/react\.[\w-]+\.js$/;
/**
 * Code a page fetches only when the shopper asks for it with a tap (the product pictures' zoom:
 * Swiper and its zoom module, src/lib/client/picture-zoom.ts). A dynamic import of such a chunk
 * is not counted in its page's JavaScript (no tap, no bytes); it is measured on a row of its own,
 * "(on tap)", with its own wire budget.
 */
const ON_TAP = /\/picture-zoom\.[\w-]+\.js$/;
const ON_TAP_WIRE_BUDGET_KB = 40;
/** `npm run budget -- --requests` lists every request of the path with its bytes. */
const SHOW_REQUESTS = process.argv.includes('--requests');

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
    // The product page's budget is bytes on the wire (what a phone downloads, brotli): at most
    // 75 KB. Its gzip figure is reported beside it.
    { path: `/product/${productId}`, wireBudgetKb: 75 },
    // The home page ships at most 60 KB of JavaScript on the wire.
    { path: '/', wireBudgetKb: 60 },
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

  /** On-tap chunks met as dynamic imports while walking the pages (see ON_TAP). */
  const onTap = new Set<string>();
  /**
   * Every script a page can load, dynamic imports included, except the toaster's chunk when only
   * imported dynamically: a page imports it with its first toast (src/lib/client/toast.ts), never
   * to paint. Its own graph, met on the way, is collected into `toaster` and reported beside the
   * page's figure; a page whose islands import that chunk statically counts it as its own. On-tap
   * chunks are set aside into `onTap` too, unless `followOnTap` (walking such a chunk's own graph).
   */
  async function scriptGraph(entry: string[], seen = new Set<string>(), toaster = new Set<string>(), followOnTap = false): Promise<Set<string>> {
    const queue = [...entry];
    while (queue.length) {
      const url = queue.shift()!;
      if (seen.has(url)) continue;
      seen.add(url);
      const code = (await fetchAsset(url)).body.toString('utf8');
      const imports = [...code.matchAll(/(?:import|export)\s*(?:[\w*{}\s,$]*from\s*)?["']([^"']+\.m?js)["']|import\(\s*["'`]([^"'`]+\.m?js)["'`]\s*\)/g)];
      for (const m of imports) {
        const target = resolve(url, (m[1] ?? m[2])!);
        if (m[2] && TOASTER_CHUNK.test(target)) toaster.add(target);
        else if (!followOnTap && m[2] && ON_TAP.test(target)) onTap.add(target);
        else queue.push(target);
      }
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
    const toasterEntries = new Set<string>();
    const files = await scriptGraph([...entries], new Set(), toasterEntries);
    // What the first toast adds: the toaster's scripts the page has not loaded already (React on a page without islands).
    let toastWire = 0;
    for (const f of await scriptGraph([...toasterEntries])) if (!files.has(f)) toastWire += (await fetchAsset(f)).wire;
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
      (toastWire / 1024).toFixed(1),
      react ? 'yes' : 'no',
      res.status !== 200 ? 'FAIL (status)' : over ? 'FAIL (size)' : reactBroken ? 'FAIL (React)' : 'ok',
    ]);
  }
  // What a tap adds: the on-tap chunks and what they import that the product page has not loaded.
  if (onTap.size) {
    const page = routes.find((r) => r.path.startsWith('/product/'))!;
    const res = await get(server.baseUrl + page.path);
    const entries = [...res.body.toString('utf8').matchAll(/\b(?:component-url|renderer-url|before-hydration-url)="([^"]+)"/g)].map((m) => resolve(page.path, m[1]!));
    const loaded = await scriptGraph(entries);
    const added = [...(await scriptGraph([...onTap], new Set(), new Set(), true))].filter((f) => !loaded.has(f) || onTap.has(f));
    let gzip = 0;
    let wire = 0;
    for (const f of added) {
      const asset = await fetchAsset(f);
      gzip += asset.gzipWire;
      wire += asset.wire;
    }
    const over = wire / 1024 > ON_TAP_WIRE_BUDGET_KB;
    if (over) failed = true;
    rows.push([`${page.path} (on tap)`, '200', String(added.length), (gzip / 1024).toFixed(1), '-', (wire / 1024).toFixed(1), `<= ${ON_TAP_WIRE_BUDGET_KB}`, '-', '-', 'no', over ? 'FAIL (size)' : 'ok']);
  }
  const header = ['route', 'status', 'js files', 'js gzip KB', 'budget', 'js wire KB', 'wire budget', 'html wire KB', '1st toast KB', 'React', 'result'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(line(header));
  for (const r of rows) console.log(line(r));
  console.log("js gzip KB: as sent to a browser asking 'gzip'; js wire KB, html wire KB: asking 'br, gzip'");

  const { cold, warm, acceptEncoding } = await measurePurchasePath(server.baseUrl);
  const sum = (steps: Step[], key: 'requests' | 'bytes' | 'scriptBytes') => steps.reduce((total, s) => total + s[key], 0);
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  const pathRows = cold.map((s, i) => [s.name, String(s.requests), kb(s.bytes), kb(s.scriptBytes), String(warm[i]!.requests), kb(warm[i]!.bytes)]);
  pathRows.push(['total', String(sum(cold, 'requests')), kb(sum(cold, 'bytes')), kb(sum(cold, 'scriptBytes')), String(sum(warm, 'requests')), kb(sum(warm, 'bytes'))]);
  const pathHeader = ['purchase path (360 px)', 'cold requests', 'cold wire KB', 'of which js KB', 'warm requests', 'warm wire KB'];
  const pathWidths = pathHeader.map((h, i) => Math.max(h.length, ...pathRows.map((r) => r[i]!.length)));
  console.log('');
  for (const r of [pathHeader, ...pathRows]) console.log(r.map((c, i) => c.padEnd(pathWidths[i]!)).join('  '));
  console.log(`as Debian's Chromium asked: accept-encoding: ${acceptEncoding ?? '(not seen)'}`);
  // The budgets hold the pages of the path; the worker's script and the manifest (fetched once, after
  // the first page has loaded, ADR 0030) are reported beside them.
  const isPage = (s: Step) => s.name !== WORKER_STEP;
  const coldPages = cold.filter(isPage);
  const warmPages = warm.filter(isPage);
  const worker = cold.find((s) => !isPage(s));
  const totalKb = sum(coldPages, 'bytes') / 1024;
  if (worker) console.log(`pages of the path, cold: ${sum(coldPages, 'requests')} requests, ${kb(sum(coldPages, 'bytes'))} KB; with the service worker: ${sum(cold, 'requests')} requests, ${kb(sum(cold, 'bytes'))} KB`);
  const pathOver = totalKb > PATH_BUDGET_KB;
  console.log(`path budget <= ${PATH_BUDGET_KB} KB cold: ${pathOver ? `FAIL (${(totalKb - PATH_BUDGET_KB).toFixed(1)} KB over)` : `ok (${(PATH_BUDGET_KB - totalKb).toFixed(1)} KB to spare)`}`);
  const requestChecks: [string, number, number][] = [
    ['cold', sum(coldPages, 'requests'), PATH_REQUESTS_COLD],
    ['warm', sum(warmPages, 'requests'), PATH_REQUESTS_WARM],
  ];
  for (const [name, count, budget] of requestChecks) {
    console.log(`path requests <= ${budget} ${name}: ${count > budget ? `FAIL (${count})` : `ok (${count})`}`);
    if (count > budget) failed = true;
  }
  const repeat = warm.find((s) => s.name === 'product')!;
  const repeatOver = repeat.bytes / 1024 > REPEAT_PRODUCT_KB;
  console.log(`product page seen before, again <= ${REPEAT_PRODUCT_KB} KB: ${repeatOver ? 'FAIL' : 'ok'} (${kb(repeat.bytes)} KB, ${repeat.requests} requests)`);
  if (repeatOver) failed = true;
  if (pathOver) failed = true;
} finally {
  await server.stop();
}
if (failed) {
  console.error('Byte budget broken');
  process.exit(1);
}

interface Step {
  name: string;
  requests: number;
  /** Bytes received: headers and bodies, compressed as sent. */
  bytes: number;
  scriptBytes: number;
}

/**
 * The purchase path as a shopper on a cheap phone walks it, from an empty cache (cold), then again
 * with the cache the first walk left (warm: signed out first, as a shopper back the next visit).
 * Each step ends when the network has been quiet for 500 ms (idle islands and their imports
 * included); what the browser takes from its own cache costs nothing and is not counted as a
 * request.
 */
/**
 * What the service worker (ADR 0030) and the installable app cost on the network, besides the pages
 * the worker passes through: the worker's script and the web app manifest, once (a phone's browser
 * reads the manifest to offer the install); the browser's check for a new worker on each
 * navigation is answered by its HTTP cache (src/pages/sw.js.ts), and the offline page is made by
 * the worker. Bytes as sent to a browser that accepts brotli.
 */
async function workerCost(baseUrl: string): Promise<Step> {
  const build = /data-service-worker="([^"]+)"/.exec((await get(baseUrl + '/')).body.toString('utf8'))?.[1];
  if (!build) throw new Error('the home page registers no service worker');
  const sw = await get(`${baseUrl}/sw.js?v=${build}`);
  const manifest = await get(baseUrl + '/manifest.webmanifest');
  return { name: WORKER_STEP, requests: 2, bytes: sw.wire + manifest.wire, scriptBytes: sw.wire };
}

async function measurePurchasePath(baseUrl: string): Promise<{ cold: Step[]; warm: Step[]; acceptEncoding: string | null }> {
  const productId = await productToBuy(baseUrl);
  const browser = await chromium.launch({ ...debianChromium, headless: true });
  try {
    // The service worker is kept out of the walk: once it controls a page, the page's own CDP
    // session no longer sees what reaches the network (the worker's fetches do). Its own cost is
    // measured apart (workerCost) and added to both walks.
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 360, height: 740 }, hasTouch: true, serviceWorkers: 'block' });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    let current: Step = { name: '', requests: 0, bytes: 0, scriptBytes: 0 };
    const scripts = new Set<string>();
    const urls = new Map<string, string>();
    cdp.on('Network.responseReceived', (e) => {
      urls.set(e.requestId, e.response.url.replace(baseUrl, ''));
      if (e.type === 'Script') scripts.add(e.requestId);
    });
    cdp.on('Network.loadingFinished', (e) => {
      if (e.encodedDataLength <= 0) return; // from the browser's cache
      current.requests += 1;
      current.bytes += e.encodedDataLength;
      if (scripts.has(e.requestId)) current.scriptBytes += e.encodedDataLength;
      if (SHOW_REQUESTS) console.log(`  ${phase} ${current.name}: ${(e.encodedDataLength / 1024).toFixed(1)} KB ${urls.get(e.requestId) ?? e.requestId}`);
    });
    // What the browser asked for, as sent (its own headers, not the page's).
    let acceptEncoding: string | null = null;
    cdp.on('Network.requestWillBeSentExtraInfo', (e) => {
      acceptEncoding ??= Object.entries(e.headers).find(([name]) => name.toLowerCase() === 'accept-encoding')?.[1] ?? null;
    });
    cdp.on('Network.loadingFailed', () => {
      current.requests += 1;
    });

    let steps: Step[] = [];
    let phase = 'cold';
    async function step(name: string, walk: (page: Page) => Promise<void>): Promise<void> {
      current = { name, requests: 0, bytes: 0, scriptBytes: 0 };
      await walk(page);
      await page.waitForLoadState('networkidle');
      steps.push(current);
    }
    async function walkPath(): Promise<Step[]> {
      steps = [];
      await step('home', async (p) => {
        await p.goto('/');
      });
      await step('sign in', async (p) => {
        await p.goto('/login');
        await p.getByLabel('Email').fill(DEMO_USER.email);
        await p.getByLabel('Password').fill(DEMO_USER.password);
        await p.getByRole('button', { name: 'Login' }).click();
        await p.waitForURL((url) => url.pathname === '/');
      });
      await step('product', async (p) => {
        await p.goto(`/product/${productId.id}`);
      });
      await step('ADD TO CART', async (p) => {
        // The island hydrates when the shopper reaches its form (client:reach): scroll there first, as a shopper does.
        await p.locator('form[data-purchase]').scrollIntoViewIfNeeded();
        await p.locator('astro-island[component-url*="/ProductPurchase."]:not([ssr])').waitFor({ state: 'attached' });
        if (productId.size) await p.getByRole('radio', { name: productId.size, exact: true }).check();
        if (productId.color) await p.getByRole('radio', { name: productId.color, exact: true }).check();
        await p.getByRole('button', { name: 'ADD TO CART' }).click();
        await p.getByText('Product added to cart successfully!').waitFor();
      });
      await step('cart', async (p) => {
        await p.goto('/cart');
        await p.locator('.cart-line').first().waitFor();
      });
      await step('checkout', async (p) => {
        await p.getByRole('link', { name: 'PROCEED TO CHECKOUT' }).click();
        await p.waitForURL((url) => url.pathname === '/place-order');
      });
      return steps;
    }

    const cold = await walkPath();
    cold.push(await workerCost(baseUrl));
    // Signed out, so the warm walk signs in as the cold one did (the cart it fills is the shopper's own).
    await context.clearCookies();
    phase = 'warm';
    const warm = await walkPath();
    warm.push({ name: WORKER_STEP, requests: 0, bytes: 0, scriptBytes: 0 });
    return { cold, warm, acceptEncoding };
  } finally {
    await browser.close();
  }
}

/** The first product with a variant in stock, and the choices that variant needs. */
async function productToBuy(baseUrl: string): Promise<{ id: number; size: string | null; color: string | null }> {
  const list = (await (await fetch(`${baseUrl}/api/v1/products?limit=50`)).json()) as { data: { docs: { id: number }[] } };
  for (const { id } of list.data.docs) {
    const detail = (await (await fetch(`${baseUrl}/api/v1/products/${id}`)).json()) as {
      data: { variants: { size: string | null; color: string | null; stock: number }[] };
    };
    const variant = detail.data.variants.find((v) => v.stock > 0);
    if (variant) return { id, size: variant.size, color: variant.color };
  }
  throw new Error('no product in stock');
}
