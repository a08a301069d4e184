import { expect, type APIRequestContext, type Locator, type Page, type TestInfo } from '@playwright/test';
import type { Driver } from '../support/server';

/** Helpers shared by the end-to-end suites. */
export const SHOPPER_PASSWORD = 'Lagos-2026!';
const PASSWORD = SHOPPER_PASSWORD;

/** Registers and verifies a shopper through the API (code from the dev outbox), optionally with a default address. */
export async function newShopper(request: APIRequestContext, withAddress: boolean, localPrefix = 'e2e'): Promise<string> {
  const email = `${localPrefix}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@example.com`;
  const created = await request.post('/api/v1/user-auth/create', {
    data: { firstName: 'Kemi', lastName: 'Bello', email, password: PASSWORD, phoneNumber: '+2348031234567', country: 'nigeria' },
  });
  expect(created.status()).toBe(201);
  const outbox = await getJson(request, `/api/v1/dev/outbox?to=${encodeURIComponent(email)}`);
  const code = /code is (\d{4})/.exec(outbox[0].text)![1];
  expect((await request.post('/api/v1/user-auth/verify-otp', { data: { email, otp: code } })).ok()).toBe(true);
  if (withAddress) {
    const login = await request.post('/api/v1/user-auth/login', { data: { email, password: PASSWORD } });
    const token = (await login.json()).data.token;
    const address = await request.post('/api/v1/address/create', {
      headers: { authorization: `Bearer ${token}` },
      data: { name: 'Kemi Bello', country: 'nigeria', state: 'Lagos', city: 'Lekki', address: '5 Admiralty Way', zipCode: '105102', active: true },
    });
    expect(address.status()).toBe(201);
  }
  return email;
}

/** The database the stores of this test's project run on (its `metadata.driver`, playwright.config.ts). */
export function driverOf(info: TestInfo): Driver {
  return info.project.metadata.driver === 'pg' ? 'pg' : 'pglite';
}

/** Waits until the island around a control has hydrated (Astro drops the ssr attribute then). */
export async function hydrated(page: Page, control: Locator): Promise<void> {
  await control.first().waitFor();
  await expect(page.locator('astro-island[ssr]', { has: control.first() })).toHaveCount(0);
}

/** GET JSON, retrying once: a reused keep-alive connection can be reset by the server. */
export async function getJson(request: APIRequestContext, path: string): Promise<any> {
  try {
    return await (await request.get(path)).json();
  } catch {
    return (await request.get(path, { headers: { connection: 'close' } })).json();
  }
}

/** Signs a shopper in through the login page (any shopper the suites make has SHOPPER_PASSWORD) and waits for the home page. */
export async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(SHOPPER_PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

/** A product in two colours, each with stock and pictures of its own (the gallery follows the colour). */
export async function twoColourProduct(request: APIRequestContext, skip = 0) {
  const list = await getJson(request, '/api/v1/products?limit=100');
  let seen = 0;
  for (const p of list.data.docs as { id: number; colorNames: string[] }[]) {
    if (p.colorNames.length < 2) continue;
    const detail = (await getJson(request, `/api/v1/products/${p.id}`)).data;
    const inStock = (c: string) => detail.variants.find((v: { color: string; stock: number }) => v.color === c && v.stock >= 3);
    const colours = (detail.colors as { name: string }[]).map((c) => c.name).filter((c) => inStock(c));
    if (colours.length < 2 || seen++ < skip) continue;
    const hashesOf = (colour: string): string[] =>
      (detail.images as string[]).filter((_, i) => detail.imageColors[i] === colour).map((url) => /\/media\/([a-f0-9]+)/.exec(url)![1]!);
    const [first, second] = colours as [string, string];
    return { id: p.id as number, name: detail.name as string, first, second, hashesOf, variantOf: (c: string) => inStock(c) as { size: string | null; color: string } };
  }
  throw new Error('no product in two colours with stock');
}

/**
 * How far the page reaches past the screen, and the elements that do (to say which). The root
 * clips sideways overflow (overflow-x: clip), so the page cannot be scrolled there but is cut
 * instead: an element counts when it reaches past the screen's right edge and no box of its own
 * that stays within the screen scrolls or clips it (a table in its scroll box, a thumbnail row).
 */
export async function overflow(page: Page) {
  // main slides in on arrival (page-in): measured mid-slide, it would stand past the edge
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const clippedWithin = (el: Element) => {
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        if (getComputedStyle(up).overflowX !== 'visible' && up.getBoundingClientRect().right <= width + 1) return true;
      }
      return false;
    };
    const out = [...document.querySelectorAll('body *')].filter((el) => {
      const rect = el.getBoundingClientRect();
      return rect.right > width + 1 && rect.width > 1 && el.checkVisibility({ visibilityProperty: true }) && !clippedWithin(el);
    });
    const reach = Math.max(document.documentElement.scrollWidth, ...out.map((el) => el.getBoundingClientRect().right));
    return {
      extra: Math.round(reach - width),
      culprits: out.slice(0, 8).map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} (${Math.round(el.getBoundingClientRect().right)} px)`),
    };
  });
}

export async function fitsTheScreen(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBeLessThan(500);
  const { extra, culprits } = await overflow(page);
  expect(extra, `${path} scrolls sideways: ${culprits.join(', ')}`).toBeLessThanOrEqual(0);
}

export type Variant = { id: number; color: string | null; size: string | null; stock: number; price: number };

/** A shopper whose default address is in Johannesburg. */
export async function southAfricanShopper(request: APIRequestContext): Promise<string> {
  const email = await newShopper(request, false);
  const login = await request.post('/api/v1/user-auth/login', { data: { email, password: SHOPPER_PASSWORD } });
  const token = (await login.json()).data.token;
  const address = await request.post('/api/v1/address/create', {
    headers: { authorization: `Bearer ${token}` },
    data: { name: 'Thandi Nkosi', country: 'south_africa', state: 'Gauteng', city: 'Johannesburg', address: '12 Jan Smuts Avenue', zipCode: '2196', active: true },
  });
  expect(address.status()).toBe(201);
  return email;
}

/** Colour-only products sold in South Africa with stock, skipping `skip` so the two runs use different stock. */
export async function southAfricanProducts(request: APIRequestContext, skip: number, count: number) {
  const list = await getJson(request, '/api/v1/products?limit=100&market=ZA');
  const out: { productId: number; color: string | null; zaPrice: number; ngPrice: number }[] = [];
  let seen = 0;
  for (const p of list.data.docs as { id: number; sizeNames: string[]; price: number }[]) {
    if (p.sizeNames.length > 0) continue;
    const detail = (await getJson(request, `/api/v1/products/${p.id}?market=ZA`)).data as { variants: Variant[] };
    // One price for every colour, so the page shows it whichever colour is preselected (the
    // per-variant price test below covers the others).
    if (new Set(detail.variants.map((x) => x.price)).size > 1) continue;
    const v = detail.variants.find((x) => x.stock >= 4);
    if (!v || seen++ < skip) continue;
    const ng = (await getJson(request, `/api/v1/products/${p.id}?market=NG`)).data as { variants: Variant[] };
    out.push({ productId: p.id, color: v.color, zaPrice: v.price, ngPrice: ng.variants.find((x) => x.id === v.id)!.price });
    if (out.length === count) return out;
  }
  throw new Error('not enough South African stock');
}

/**
 * The product page's island hydrates when the shopper reaches for it (client:reach): its purchase
 * form coming onto the screen, or a touch in it. Scrolls to the form as a shopper would, then waits
 * until Astro drops the island's `ssr` attribute.
 */
export async function purchaseReady(page: Page): Promise<void> {
  await page.locator('form[data-purchase]').scrollIntoViewIfNeeded();
  await expect(page.locator('astro-island[component-url*="/ProductPurchase."]')).not.toHaveAttribute('ssr', /.*/, { timeout: 15_000 });
}
