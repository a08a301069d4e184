import { expect, test, type Page } from '@playwright/test';
import { getJson, newShopper, purchaseReady, SHOPPER_PASSWORD } from '../e2e/support';
import { baseURL } from '../../playwright.tls.config';

/**
 * Buying through nginx terminating TLS (deploy/nginx.conf, playwright.tls.config.ts): the browser is
 * on https://127.0.0.1:PORT and sends that Origin; the store sees plain http from nginx. Every
 * write must be taken as same-site (an https origin behind the proxy), cookies must carry
 * Secure and the payment must come back to the https address.
 */
const DEMO = { email: 'demo@maisonluxe.ng', password: 'LuxeDemo2026!' };

/** An in-stock sized variant, skipping `skip` so the two purchases use different stock. */
async function sizedVariant(page: Page, skip: number) {
  const list = await getJson(page.request, '/api/v1/products?limit=100');
  let seen = 0;
  for (const p of list.data.docs as { id: number; sizeNames: string[] }[]) {
    if (p.sizeNames.length === 0) continue;
    const detail = (await getJson(page.request, `/api/v1/products/${p.id}`)).data;
    const v = detail.variants.find((x: { stock: number }) => x.stock >= 4);
    if (!v || seen++ < skip) continue;
    return { productId: p.id as number, size: v.size as string, color: v.color as string | null };
  }
  throw new Error('no sized variant in stock');
}

async function expectSecureSession(page: Page) {
  const session = (await page.context().cookies()).find((c) => c.name === 'ml_session');
  expect(session?.secure).toBe(true);
  expect(session?.httpOnly).toBe(true);
}

test('nginx answers plain http with a redirect to https, and the store sends HSTS', async ({ request }) => {
  const redirect = await request.get(`http://127.0.0.1:${Number(new URL(baseURL).port) + 1}/collection?x=1`, { maxRedirects: 0 });
  expect(redirect.status()).toBe(301);
  expect(redirect.headers().location).toBe(`${baseURL}/collection?x=1`);
  const health = await request.get('/api/v1/health');
  expect(health.ok()).toBe(true);
  expect(health.headers()['strict-transport-security']).toMatch(/max-age=\d+/);
});

test('nginx never passes /metrics on, though the store behind it sees a local caller', async ({ request }) => {
  for (const path of ['/metrics', '/metrics/', '/%6Detrics', '//metrics?x=1']) {
    const res = await request.get(`${baseURL}${path}`);
    expect(res.status(), path).toBe(404);
    expect(await res.text()).not.toMatch(/http_request/);
  }
});

test.describe('with JavaScript', () => {
  test('sign in, add to the cart, check out, pay and see the order', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(DEMO.email);
    await page.getByLabel('Password').fill(DEMO.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByText('Login successful!')).toBeVisible();
    await page.waitForURL((url) => url.pathname === '/');
    await expectSecureSession(page);

    const v = await sizedVariant(page, 0);
    await page.goto(`/product/${v.productId}`);
    await purchaseReady(page);
    await page.getByRole('radio', { name: v.size, exact: true }).check();
    if (v.color) await page.getByRole('radio', { name: v.color, exact: true }).check();
    await page.getByRole('button', { name: 'ADD TO CART' }).click();
    await expect(page.getByText('Product added to cart successfully!')).toBeVisible();
    await expect(page.locator('[data-cart-count]')).toHaveText('1');

    await page.goto('/cart');
    await page.getByRole('link', { name: 'PROCEED TO CHECKOUT' }).click();
    await expect(page).toHaveURL(/\/place-order$/);
    await page.getByRole('button', { name: 'PAY & PLACE ORDER' }).click();
    await expect(page).toHaveURL(new RegExp(`^${baseURL}/pay/simulated/`));
    await page.getByRole('button', { name: /^Pay / }).click();

    await expect(page.getByText('Order placed successfully!')).toBeVisible();
    // After paying, the order's own page thanks the shopper.
    await page.waitForURL(new RegExp(`^${baseURL}/order-details/[^?]+\\?placed=1$`));
    await expect(page.getByRole('heading', { name: 'Thank you' })).toBeVisible();
    await page.goto('/order-history');
    const card = page.locator('.order-card').first();
    await expect(card.locator('[data-status]')).toHaveText('pending');
    await expect(card).toContainText('1 item');
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('sign in, add to the cart, check out, pay and see the order, all through plain forms', async ({ page, request }) => {
    const email = await newShopper(request, true);
    const status = (text: string) => page.getByRole('status').filter({ hasText: text });
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(SHOPPER_PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect(status('Login successful!')).toBeVisible();
    await expectSecureSession(page);

    const v = await sizedVariant(page, 3);
    await page.goto(`/product/${v.productId}`);
    await page.getByRole('radio', { name: v.size, exact: true }).check();
    if (v.color) await page.getByRole('radio', { name: v.color, exact: true }).check();
    await page.getByRole('button', { name: 'ADD TO CART' }).click();
    await expect(page).toHaveURL(/\/cart\?notice=/);
    await expect(status('Product added to cart successfully!')).toBeVisible();
    await expect(page.locator('.cart-line')).toHaveCount(1);

    await page.getByRole('link', { name: 'PROCEED TO CHECKOUT' }).click();
    await expect(page).toHaveURL(/\/place-order$/);
    await page.getByRole('button', { name: 'PAY & PLACE ORDER' }).click();
    await expect(page).toHaveURL(new RegExp(`^${baseURL}/pay/simulated/`));
    await page.getByRole('button', { name: /^Pay / }).click();

    await expect(page).toHaveURL(new RegExp(`^${baseURL}/place-order\\?paid=true`));
    await expect(status('Order placed successfully!')).toBeVisible();
    await page.goto('/order-history');
    const cards = page.locator('.order-card');
    await expect(cards).toHaveCount(1);
    await expect(cards.first().locator('[data-status]')).toHaveText('pending');
  });
});
