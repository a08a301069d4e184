/**
 * The store's service worker (ADR 0030), served at /sw.js (src/pages/sw.js.ts). It is written here
 * as a function that runs in the worker, typed but self-contained: the script is its source with
 * its settings, so the rules below are read in one place and the server can give each build (and
 * SERVICE_WORKER=off) its own worker.
 *
 * - Hashed build assets and catalogue media: cache first, within a byte budget, oldest out first;
 *   images are kept out of the cache under "data saver".
 * - The anonymous catalogue and content pages: network first within a short timeout; without a
 *   network, the last copy under a banner saying when it was saved.
 * - Never stored: anything but a GET, API calls, other pages, and any response marked personal
 *   (PERSONAL_HEADER) or `private`/`no-store`: a signed-in shopper's page (assembled from the shared
 *   cache or not) never reaches the worker's cache.
 * - The offline page is made by the worker (offlinePage): nothing to fetch or keep for it.
 * - Caches are named by build: a new build's worker takes over at once and drops the old build's
 *   pages and assets together, so no saved page outlives the assets it was built against.
 */
import { TOASTS } from '@/lib/domain/toasts';
import { STORE_NAME } from '@/lib/domain/brand';
import { ASSET_CACHE_BYTES, NETWORK_TIMEOUT_MS, OFFLINE_PAGES, PERSONAL_HEADER, SOURCE_PARAM, timeAgo } from '@/lib/domain/offline';

export interface WorkerSettings {
  build: string;
  pages: string[];
  titleSuffix: string;
  offline: { heading: string; lead: string; none: string; again: string };
  personalHeader: string;
  sourceParam: string;
  assetBytes: number;
  timeoutMs: number;
  savedText: string;
}

/** What the worker sees of its global scope (the DOM library's types cover the rest). */
interface WorkerScope {
  addEventListener(type: 'install' | 'activate', listener: (event: { waitUntil(p: Promise<unknown>): void }) => void): void;
  addEventListener(type: 'fetch', listener: (event: { request: Request; respondWith(r: Promise<Response>): void; waitUntil(p: Promise<unknown>): void }) => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown; waitUntil(p: Promise<unknown>): void }) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  registration: { active: { scriptURL: string } | null; unregister(): Promise<boolean> };
  navigator: { connection?: { saveData?: boolean } };
  location: { origin: string; href: string };
}

/** The worker itself: runs in the service worker's scope, never on the server. */
function worker(self: WorkerScope, s: WorkerSettings, ago: (then: number, now: number) => string): void {
  const pagesCache = `pages-${s.build}`;
  const assetsCache = `assets-${s.build}`;
  const pages = s.pages.map((p) => new RegExp(p.slice(1, p.lastIndexOf('/')), p.slice(p.lastIndexOf('/') + 1)));
  // "Data saver" as the pages report the phone's setting: kept in a cache of its own, since the
  // browser may stop and restart the worker between a page's message and its images.
  const settingsCache = 'settings';
  const SAVE_DATA_KEY = '/save-data';
  let saveData: Promise<boolean> = caches
    .open(settingsCache)
    .then((c) => c.match(SAVE_DATA_KEY))
    .then(async (r) => (await r?.text()) === 'on')
    .catch(() => false);

  const storable = (res: Response) => {
    const cc = res.headers.get('cache-control') ?? '';
    return res.status === 200 && res.type === 'basic' && !res.headers.has(s.personalHeader) && !/private|no-store/i.test(cc);
  };
  /** A copy with the time it was saved, so the banner can say when. */
  const stamped = async (res: Response) => {
    const body = await res.blob();
    const headers = new Headers(res.headers);
    // The body is kept decoded: what it was sent as no longer applies.
    headers.delete('content-encoding');
    headers.delete('content-length');
    headers.set('x-saved-at', String(Date.now()));
    headers.set('x-saved-bytes', String(body.size));
    return new Response(body, { status: res.status, statusText: res.statusText, headers });
  };
  // Once a newer build's worker is active it deletes this build's caches; this worker may still be
  // finishing a fetch, and opening a cache then would make it again, with nobody left to drop it.
  // The same once the store turned the worker off (a page's `retire` message): it still serves
  // the page that unregistered it.
  let retired = false;
  const superseded = () => retired || (self.registration.active !== null && self.registration.active.scriptURL !== self.location.href);
  const ours = [pagesCache, assetsCache, settingsCache];
  const dropOthers = () => caches.keys().then((names) => Promise.all(names.filter((n) => !ours.includes(n)).map((n) => caches.delete(n))));
  const pageKey = (url: URL) => {
    const key = new URL(url.href);
    key.searchParams.delete(s.sourceParam);
    key.hash = '';
    return key.href;
  };

  /** Keeps the assets' cache within its budget, dropping the oldest stored first. */
  let trimming: Promise<void> | null = null;
  // The cache the asset went into, never opened again by name (see superseded).
  const trim = (cache: Cache) =>
    (trimming ??= (async () => {
      const keys = await cache.keys();
      const sizes = await Promise.all(keys.map(async (k) => Number((await cache.match(k))?.headers.get('x-saved-bytes') ?? 0)));
      let total = sizes.reduce((a, b) => a + b, 0);
      for (let i = 0; i < keys.length && total > s.assetBytes; i++) {
        await cache.delete(keys[i]!);
        total -= sizes[i]!;
      }
    })().finally(() => (trimming = null)));

  async function asset(request: Request, wait: (p: Promise<unknown>) => void): Promise<Response> {
    if (superseded()) return fetch(request);
    const cache = await caches.open(assetsCache);
    const hit = await cache.match(request);
    if (hit) return hit;
    const res = await fetch(request);
    const image = (res.headers.get('content-type') ?? '').startsWith('image/');
    const dataSaver = request.headers.get('save-data') === 'on' || Boolean(self.navigator.connection?.saveData) || (await saveData);
    if (storable(res) && !(image && dataSaver)) {
      wait(stamped(res.clone()).then((copy) => cache.put(request, copy)).then(() => trim(cache)));
    }
    return res;
  }

  /** The saved copy of a page with the offline banner put at the top of its content. */
  async function savedCopy(key: string): Promise<Response | undefined> {
    const saved = await caches.match(key, { cacheName: pagesCache });
    if (!saved) return undefined;
    const when = ago(Number(saved.headers.get('x-saved-at') ?? Date.now()), Date.now());
    const banner = `<p class="offline-banner" role="status">${s.savedText.replace('{reason}', when)}</p>`;
    const html = (await saved.text()).replace(/(<main\b[^>]*>)/, `$1${banner}`);
    const headers = new Headers(saved.headers);
    headers.delete('content-length');
    return new Response(html, { status: 200, headers });
  }

  const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

  /**
   * The offline page: the pages saved on this phone, listed in the chrome of the newest of them
   * (its header, footer and styles, all in this build's caches), so it costs no request of its own.
   */
  async function offlinePage(): Promise<Response> {
    const cache = await caches.open(pagesCache);
    const saved = await Promise.all((await cache.keys()).map(async (key) => ({ key, res: (await cache.match(key))! })));
    saved.sort((a, b) => Number(b.res.headers.get('x-saved-at')) - Number(a.res.headers.get('x-saved-at')));
    const listed = await Promise.all(
      saved.map(async ({ key, res }) => {
        const url = new URL(key.url);
        const title = /<title>([^<]*)<\/title>/.exec(await res.clone().text())?.[1]?.replace(s.titleSuffix, '') ?? url.pathname;
        return `<li><a href="${escape(url.pathname + url.search)}">${title}</a></li>`;
      }),
    );
    const content = `<section class="container offline-page"><h1>${s.offline.heading}</h1><p>${listed.length ? s.offline.lead : s.offline.none}</p><ul class="offline-saved" data-saved-pages>${listed.join('')}</ul><a class="btn" href="/">${s.offline.again}</a></section>`;
    const newest = saved[0]?.res;
    const html = newest
      ? (await newest.text()).replace(/(<main\b[^>]*>)[\s\S]*<\/main>/, `$1${content}</main>`).replace(/<title>[^<]*<\/title>/, `<title>${s.offline.heading}</title>`)
      : `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${s.offline.heading}</title><main>${content}</main></html>`;
    return new Response(html, { status: 503, headers: { 'content-type': 'text/html; charset=utf-8' } });
  }

  async function page(request: Request, url: URL, wait: (p: Promise<unknown>) => void): Promise<Response> {
    const key = pageKey(url);
    const network = fetch(request);
    // Answered from the saved copy after the timeout, a late failure is nobody's to handle.
    network.catch(() => undefined);
    const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), s.timeoutMs));
    try {
      const res = await Promise.race([network, timeout]);
      if (res === 'timeout') {
        const copy = await savedCopy(key);
        if (copy) return copy;
        return await network;
      }
      // A page that is not anonymous any more (signed in since) must not be shown offline either.
      if (storable(res) && !superseded()) wait(Promise.all([caches.open(pagesCache), stamped(res.clone())]).then(([cache, copy]) => cache.put(key, copy)));
      return res;
    } catch {
      return (await savedCopy(key)) ?? offlinePage();
    }
  }

  async function other(request: Request): Promise<Response> {
    try {
      return await fetch(request);
    } catch {
      return offlinePage();
    }
  }

  self.addEventListener('install', (event) => event.waitUntil(self.skipWaiting()));
  self.addEventListener('activate', (event) => event.waitUntil(dropOthers().then(() => self.clients.claim())));
  /**
   * The page a visit began on loaded before this worker was there to save it (and its styles and
   * scripts): once in control, the page names them and they are fetched again and kept, as any
   * page seen later is, unless already saved.
   */
  async function keepFirst(href: string, assets: string[]): Promise<void> {
    const url = new URL(href);
    if (superseded() || url.origin !== self.location.origin || !pages.some((p) => p.test(url.pathname))) return;
    const key = pageKey(url);
    const pagesKept = await caches.open(pagesCache);
    if (!(await pagesKept.match(key))) {
      const res = await fetch(key, { credentials: 'same-origin' });
      if (storable(res) && !superseded()) await pagesKept.put(key, await stamped(res));
    }
    const assetsKept = await caches.open(assetsCache);
    for (const a of assets) {
      const asset = new URL(a);
      if (asset.origin !== self.location.origin || !asset.pathname.startsWith('/_astro/') || (await assetsKept.match(asset.href))) continue;
      const res = await fetch(asset.href);
      if (storable(res) && !superseded()) await assetsKept.put(asset.href, await stamped(res));
    }
    await trim(assetsKept);
  }

  self.addEventListener('message', (event) => {
    const data = event.data as { saveData?: unknown; retire?: unknown; keep?: unknown; assets?: unknown } | null;
    if (data?.retire === true) {
      retired = true;
      event.waitUntil(caches.keys().then((names) => Promise.all(names.map((n) => caches.delete(n)))));
      return;
    }
    if (data && typeof data.keep === 'string') {
      const assets = Array.isArray(data.assets) ? data.assets.filter((a): a is string => typeof a === 'string').slice(0, 50) : [];
      event.waitUntil(keepFirst(data.keep, assets).catch(() => undefined));
    }
    if (!data || typeof data.saveData !== 'boolean') return;
    saveData = Promise.resolve(data.saveData);
    event.waitUntil(caches.open(settingsCache).then((c) => c.put(SAVE_DATA_KEY, new Response(data.saveData ? 'on' : 'off'))));
  });
  self.addEventListener('fetch', (event) => {
    const { request } = event;
    if (request.method !== 'GET') return;
    const url = new URL(request.url);
    if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
    const wait = (p: Promise<unknown>) => event.waitUntil(p.catch(() => undefined));
    if (url.pathname.startsWith('/_astro/') || url.pathname.startsWith('/media/')) event.respondWith(asset(request, wait));
    else if (request.mode === 'navigate') {
      // What an old build's worker still wrote while this one took over goes on the next page.
      wait(dropOthers());
      event.respondWith(pages.some((p) => p.test(url.pathname)) ? page(request, url, wait) : other(request));
    }
  });
}

/** The worker that takes the place of an installed one when the store turns it off: it removes itself and its caches, and reloads its pages. */
function remover(self: WorkerScope): void {
  self.addEventListener('install', () => void self.skipWaiting());
  self.addEventListener('activate', (event) =>
    event.waitUntil(
      caches
        .keys()
        .then((names) => Promise.all(names.map((n) => caches.delete(n))))
        .then(() => self.registration.unregister()),
    ),
  );
}

/**
 * A function's source as the worker's script: without its comments and indentation, which a phone
 * would download again with every new build (the code has no multi-line strings to spoil).
 */
function scriptOf(fn: (...args: never[]) => void): string {
  return fn
    .toString()
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('//') && !line.startsWith('/*') && !line.startsWith('*'))
    .join('\n');
}

/** The source of /sw.js for this build (`build`), or of the worker that removes itself when the store turns it off. */
export function serviceWorkerScript(opts: { build: string; on: boolean }): string {
  if (!opts.on) return `(${scriptOf(remover)})(self);\n`;
  const settings: WorkerSettings = {
    build: opts.build,
    pages: OFFLINE_PAGES.map(String),
    titleSuffix: ` | ${STORE_NAME}`,
    offline: { heading: TOASTS['offline-heading'], lead: TOASTS['offline-lead'], none: TOASTS['offline-none'], again: TOASTS['offline-again'] },
    personalHeader: PERSONAL_HEADER,
    sourceParam: SOURCE_PARAM,
    assetBytes: ASSET_CACHE_BYTES,
    timeoutMs: NETWORK_TIMEOUT_MS,
    savedText: TOASTS['offline-saved'],
  };
  return `(${scriptOf(worker)})(self, ${JSON.stringify(settings)}, ${scriptOf(timeAgo)});\n`;
}

/** The id of the running build (BUILD_ID, else the one made at build time): names the worker's caches and its script's URL. */
export function buildId(config: { BUILD_ID?: string | undefined }): string {
  return config.BUILD_ID ?? __STORE_BUILD_ID__;
}
