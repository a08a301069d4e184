import { expect, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { freePort } from '../support/store-process';
import { startServer, type RunningServer } from '../support/server';
import { getJson, newShopper, purchaseReady, signIn } from './support';

/**
 * Offline mode (ADR 0030) on a phone: the service worker keeps the anonymous catalogue pages seen,
 * shows them offline under a banner, shows the offline page for the rest, never keeps a signed-in
 * page, keeps images out under "data saver"; forms sent offline keep their fields, and only those
 * safe to send twice go by themselves once the phone is back online.
 */
test.use({ viewport: { width: 360, height: 740 } });
const SAVED_BANNER = /^You're offline\. This page was saved (just now|\d+ minutes? ago)\.$/;

/** Products to visit: a few after `skip`, so tests in parallel do not share stock. */
async function products(request: APIRequestContext, count: number, skip = 0): Promise<{ id: number; name: string }[]> {
  const list = await getJson(request, '/api/v1/products?limit=30');
  return (list.data.docs as { id: number; name: string }[]).slice(skip, skip + count);
}

/** Opens the home page and waits until the service worker controls it. */
async function withWorker(page: Page, origin = ''): Promise<void> {
  await page.goto(origin + '/');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
  });
}

/** What the worker's caches hold: each cache's entries, with their content type and body. */
async function cached(page: Page): Promise<{ cache: string; url: string; type: string; body: string }[]> {
  return page.evaluate(async () => {
    const out: { cache: string; url: string; type: string; body: string }[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) {
        const res = (await cache.match(request))!;
        const type = res.headers.get('content-type') ?? '';
        out.push({ cache: name, url: new URL(request.url).pathname + new URL(request.url).search, type, body: type.startsWith('text/') ? await res.text() : '' });
      }
    }
    return out;
  });
}

/** Waits until the worker has saved the page at `path`. */
async function saved(page: Page, path: string): Promise<void> {
  await expect.poll(async () => (await cached(page)).some((e) => e.cache.startsWith('pages-') && e.url === path)).toBe(true);
}

async function offline(context: BrowserContext, on: boolean): Promise<void> {
  await context.setOffline(on);
}

test('pages seen online are shown offline under a banner; an unseen one shows the offline page listing them', async ({ page, context, request }) => {
  const seen = await products(request, 3);
  await withWorker(page);
  for (const p of seen) {
    await page.goto(`/product/${p.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(p.name);
    await saved(page, `/product/${p.id}`);
  }
  // Online, a page comes from the network: no banner.
  await expect(page.locator('.offline-banner')).toHaveCount(0);
  // Pictures seen are kept (data saver is off).
  expect((await cached(page)).some((e) => e.cache.startsWith('assets-') && e.type.startsWith('image/'))).toBe(true);

  await offline(context, true);
  for (const p of seen) {
    await page.goto(`/product/${p.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(p.name);
    await expect(page.getByRole('status').filter({ hasText: "You're offline" })).toHaveText(SAVED_BANNER);
  }
  const [unseen] = await products(request, 1, 3);
  await page.goto(`/product/${unseen!.id}`);
  await expect(page.getByRole('heading', { name: "You're offline" })).toBeVisible();
  const list = page.locator('[data-saved-pages] a');
  // The three products and the home page the visit began on (kept once the worker took control).
  await expect(list).toHaveCount(4);
  for (const p of seen) await expect(page.locator(`[data-saved-pages] a[href="/product/${p.id}"]`)).toHaveText(new RegExp(p.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  await page.locator(`[data-saved-pages] a[href="/product/${seen[1]!.id}"]`).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(seen[1]!.name);
});

test('the page the visit began on is kept too, once the worker takes control', async ({ page, context }) => {
  await withWorker(page);
  // The home page loaded before the worker existed: it is saved when the worker takes control.
  await saved(page, '/');
  await offline(context, true);
  await page.goto('/');
  await expect(page.getByRole('status').filter({ hasText: "You're offline" })).toHaveText(SAVED_BANNER);
  await expect(page.getByRole('heading', { name: 'BEST SELLERS' })).toBeVisible();
  // Its styles were kept with it: the page looks itself offline.
  await expect(page.locator('.topbar').first()).toHaveCSS('position', 'sticky');
  await offline(context, false);
});

test('signed in, then offline: no page shows the shopper, their cart or their token', async ({ page, context, request }) => {
  const [p] = await products(request, 1, 5);
  await withWorker(page);
  await page.goto(`/product/${p!.id}`);
  await saved(page, `/product/${p!.id}`);

  const email = await newShopper(request, false);
  await signIn(page, email);
  await page.goto(`/product/${p!.id}`);
  // Online, the page is the shopper's own.
  expect(await page.content()).toContain('Kemi');
  const token = await page.locator('input[name="_csrf"]').first().inputValue();
  expect(token).toMatch(/^[\w-]{20,}$/);
  // Nothing signed in reached the worker's caches.
  const kept = await cached(page);
  expect(kept.filter((e) => e.body.includes(token) || e.body.includes(email))).toEqual([]);

  await offline(context, true);
  await page.goto(`/product/${p!.id}`);
  await expect(page.getByRole('status').filter({ hasText: "You're offline" })).toHaveText(SAVED_BANNER);
  const html = await page.content();
  expect(html).not.toContain(token);
  expect(html).not.toContain(email);
  expect(html).not.toContain('Kemi');
  await expect(page.locator('[data-cart-count]')).toBeHidden();
  await expect(page.getByRole('link', { name: 'Create an account or log in' })).toBeVisible();
  // A page never saved (the profile) is the offline page, which is the anonymous one too.
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: "You're offline" })).toBeVisible();
  expect(await page.content()).not.toContain(token);
});

test('the newsletter sent offline keeps its field and goes by itself once back online', async ({ page, context }) => {
  await withWorker(page);
  await expect(page.locator('form[data-newsletter-form][data-enhanced]')).toBeAttached();
  const email = `offline.${Date.now().toString(36)}@example.com`;
  await page.getByLabel('Email address').fill(email);
  await offline(context, true);
  await page.getByRole('button', { name: 'SUBSCRIBE' }).click();
  await expect(page.getByRole('status').filter({ hasText: "You're offline. We'll send this when you're back." })).toBeVisible();
  await expect(page.getByLabel('Email address')).toHaveValue(email);
  const sent = page.waitForResponse((r) => r.url().includes('/api/v1/newsletter/subscribe'));
  await offline(context, false);
  expect((await sent).ok()).toBe(true);
  await expect(page.getByText(/Thank you for subscribing/).first()).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: "You're offline" })).toHaveCount(0);
  await expect(page.getByLabel('Email address')).toHaveValue('');
});

test('the profile sent offline keeps its fields and is saved once back online', async ({ page, context, request }) => {
  const email = await newShopper(request, false);
  await signIn(page, email);
  await page.goto('/settings');
  const save = page.getByRole('button', { name: 'Save Changes' });
  await expect(page.locator('astro-island[ssr]', { has: save })).toHaveCount(0);
  await page.getByLabel('Phone Number').fill('+234 803 555 0311');
  await offline(context, true);
  await save.click();
  await expect(page.getByRole('status').filter({ hasText: "You're offline. We'll send this when you're back." })).toBeVisible();
  await expect(page.getByLabel('Phone Number')).toHaveValue('+234 803 555 0311');
  await offline(context, false);
  await expect(page.getByText('Profile saved.').first()).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Phone Number')).toHaveValue(/803\s?555\s?0311/);
});

test('the checkout sent offline is never sent again by itself: only Retry sends it', async ({ page, context, request }) => {
  const email = await newShopper(request, true);
  await signIn(page, email);
  const list = await getJson(request, '/api/v1/products?limit=100');
  let added = false;
  for (const p of (list.data.docs as { id: number; sizeNames: string[] }[]).filter((x) => x.sizeNames.length === 0).slice(7)) {
    const detail = (await getJson(request, `/api/v1/products/${p.id}`)).data;
    const v = detail.variants.find((x: { stock: number }) => x.stock >= 4);
    if (!v) continue;
    await page.goto(`/product/${p.id}`);
    await purchaseReady(page);
    if (v.color) await page.getByRole('radio', { name: v.color, exact: true }).check();
    await page.getByRole('button', { name: 'ADD TO CART' }).click();
    await expect(page.getByText('Product added to cart successfully!')).toBeVisible();
    added = true;
    break;
  }
  expect(added).toBe(true);
  await page.goto('/place-order');
  const pay = page.getByRole('button', { name: 'PAY & PLACE ORDER' });
  await expect(page.locator('astro-island[ssr]', { has: pay })).toHaveCount(0);
  const initiated: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/v1/orders/initiate')) initiated.push(r.url());
  });
  await offline(context, true);
  await pay.click();
  const note = page.getByRole('status').filter({ hasText: "You're offline. Nothing was sent: press Retry when you're back." });
  await expect(note).toBeVisible();
  const tried = initiated.length;
  await offline(context, false);
  // Back online, nothing goes by itself: the page stays and asks for Retry.
  await page.waitForTimeout(1500);
  expect(initiated.length).toBe(tried);
  await expect(page).toHaveURL(/\/place-order$/);
  await expect(note).toBeVisible();
  await note.getByRole('button', { name: 'Retry' }).click();
  await page.waitForURL((url) => url.pathname !== '/place-order', { timeout: 15_000 });
  expect(initiated.length).toBe(tried + 1);
});

test('data saver: no picture is kept', async ({ page, request }) => {
  await page.addInitScript(() => Object.defineProperty(navigator, 'connection', { value: { saveData: true }, configurable: true }));
  const [p] = await products(request, 1, 9);
  await withWorker(page);
  // The home page told the worker; the product page's pictures then go past the cache.
  await expect.poll(async () => page.evaluate(async () => (await (await caches.open('settings')).match('/save-data'))?.text())).toBe('on');
  await page.goto(`/product/${p!.id}`);
  await saved(page, `/product/${p!.id}`);
  await expect.poll(() => page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.includes('/media/')).length)).toBeGreaterThan(0);
  const kept = await cached(page);
  expect(kept.some((e) => e.url.startsWith('/_astro/'))).toBe(true);
  expect(kept.filter((e) => e.type.startsWith('image/'))).toEqual([]);
});

test("installable: Chromium finds nothing missing, and the manifest is the store's", async ({ page, context }) => {
  await withWorker(page);
  const cdp = await context.newCDPSession(page);
  // What Chromium itself checks before offering the install (Lighthouse 12 dropped its PWA checks);
  // a test's browser context is an incognito one, which Chromium never offers to install from.
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  expect(installabilityErrors.filter((e) => e.errorId !== 'in-incognito')).toEqual([]);
  const { url, errors } = await cdp.send('Page.getAppManifest', {});
  expect(new URL(url).pathname).toBe('/manifest.webmanifest');
  expect(errors).toEqual([]);
  const manifest = (await (await page.request.get(url)).json()) as { display: string; start_url: string; icons: { sizes: string; purpose?: string }[]; shortcuts: { name: string }[] };
  expect(manifest.display).toBe('standalone');
  expect(manifest.start_url).toBe('/?source=pwa');
  expect(manifest.icons.map((i) => `${i.sizes} ${i.purpose ?? 'any'}`)).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']));
  expect(manifest.shortcuts.map((s) => s.name)).toEqual(['Bags', 'Orders', 'Cart']);
});

/** The names of the worker's caches and how many workers are registered, as the page sees them. */
async function workerState(page: Page): Promise<{ caches: string[]; registrations: number; script: string | null }> {
  return page.evaluate(async () => ({
    caches: (await caches.keys()).sort(),
    registrations: (await navigator.serviceWorker.getRegistrations()).length,
    script: navigator.serviceWorker.controller ? new URL(navigator.serviceWorker.controller.scriptURL).search : null,
  }));
}

test("a new build's worker takes over on the next navigation, and SERVICE_WORKER=off removes it", async ({ page, context }) => {
  // Two builds of one store, one after the other at the same address: the built store twice, told
  // a different BUILD_ID (what names a build's caches), then once more with the worker turned off.
  // Three servers started in turn: on a busy shared machine each start has taken over three minutes.
  test.setTimeout(600_000);
  const port = await freePort();
  const serve = (env: Record<string, string>) => startServer('pglite', env, { pickPort: async () => port });
  let server: RunningServer | undefined = await serve({ BUILD_ID: 'build-one' });
  try {
    const origin = server.baseUrl;
    const productPath = `/product/${(await (await fetch(`${origin}/api/v1/products?limit=1`)).json()).data.docs[0].id}`;
    await withWorker(page, origin);
    await page.goto(origin + productPath);
    await saved(page, productPath);
    expect((await workerState(page)).caches).toEqual(['assets-build-one', 'pages-build-one', 'settings']);

    await server.stop();
    server = await serve({ BUILD_ID: 'build-two' });
    // The old worker fetches the page first; the new build's page it passes on registers the new
    // build's worker, which takes over that very page. (A server slow to answer its first page gets
    // the saved copy, still the old build's, within the worker's timeout: then once more.)
    await expect
      .poll(
        async () => {
          await page.goto(origin + productPath);
          return page.locator('html').getAttribute('data-service-worker');
        },
        { timeout: 30_000 },
      )
      .toBe('build-two');
    // The page registers the new build's worker as it loads; a registration a busy machine let
    // fail (its script fetch timed out) is made again by the next page, as a shopper's next tap would.
    await expect
      .poll(
        async () => {
          const { script } = await workerState(page);
          if (script !== '?v=build-two') await page.goto(origin + productPath);
          return script;
        },
        { timeout: 120_000, intervals: [1_000, 2_000, 5_000] },
      )
      .toBe('?v=build-two');
    // The next navigation is the new worker's, and the old build's pages and assets went with the
    // old worker: no page outlives the assets it was built against.
    await page.goto(origin + productPath);
    expect((await workerState(page)).script).toBe('?v=build-two');
    await expect.poll(async () => (await workerState(page)).caches.filter((name) => name.includes('build-one'))).toEqual([]);
    await page.goto(origin + productPath);
    await saved(page, productPath);
    await context.setOffline(true);
    await page.goto(origin + productPath);
    await expect(page.getByRole('status').filter({ hasText: "You're offline" })).toHaveText(SAVED_BANNER);
    await context.setOffline(false);

    await server.stop();
    server = await serve({ SERVICE_WORKER: 'off' });
    await page.goto(origin + '/');
    await expect(page.locator('html')).not.toHaveAttribute('data-service-worker');
    // The worker still serving this page keeps nothing more, even the pictures it loads late.
    await page.waitForLoadState('networkidle');
    await expect.poll(async () => workerState(page)).toMatchObject({ caches: [], registrations: 0 });
  } finally {
    await server?.stop();
  }
});
