import AxeBuilder from '@axe-core/playwright';
import { expect, request as http, test, type APIRequestContext, type Page } from '@playwright/test';
import { getJson, newShopper, SHOPPER_PASSWORD, signIn } from './support';

/**
 * Discount codes in the cart and at checkout, at 360 px, with and without
 * JavaScript: the "Discount code" field and Apply, the Discount line with the code and a negative
 * amount, the lower total, Remove; the server's texts as toasts with scripts and inline without.
 * The code is made the way testers make one: the owner's POST /api/v1/admin/promotions.
 */
test.use({ viewport: { width: 360, height: 740 } });
const OWNER = { email: 'owner@maisonluxe.ng', password: 'LuxeOwner2026!' };

/** A context of its own: a session cookie left by one sign-in would make the next post need a CSRF token. */
async function fresh<T>(use: (api: APIRequestContext) => Promise<T>): Promise<T> {
  const { baseURL } = test.info().project.use;
  const api = await http.newContext({ baseURL });
  try {
    return await use(api);
  } finally {
    await api.dispose();
  }
}

/** The owner's token, confirmed for this "device" with the mailed code (each call in a context without cookies). */
async function ownerToken(): Promise<string> {
  const token = await fresh(async (api) => {
    const login = await api.post('/api/v1/user-auth/login', { data: OWNER });
    expect(login.ok()).toBe(true);
    return (await login.json()).data.token as string;
  });
  await fresh(async (api) => {
    const mail = await getJson(api, `/api/v1/dev/outbox?to=${encodeURIComponent(OWNER.email)}`);
    const code = /code is (\d{4})/.exec(mail[0].text)![1];
    const confirmed = await api.post('/api/v1/user-auth/verify-device', { headers: { authorization: `Bearer ${token}` }, data: { code } });
    expect(confirmed.ok(), await confirmed.text()).toBe(true);
  });
  return token;
}

/** A percentage code with room for every test, made the testers' way: the owner's POST /api/v1/admin/promotions. */
async function newCode(percentOff: number): Promise<string> {
  const code = `E2E${Date.now().toString(36).toUpperCase()}${Math.random().toString(36).slice(2, 6).toUpperCase()}`;
  const token = await ownerToken();
  await fresh(async (api) => {
    const res = await api.post('/api/v1/admin/promotions', { headers: { authorization: `Bearer ${token}` }, data: { code, percentOff, usageLimit: 100 } });
    expect(res.status(), await res.text()).toBeLessThan(300);
  });
  return code;
}

/** A new shopper with one in-stock colour-only item in the cart (added through the API). */
async function shopperWithCart(skip: number): Promise<string> {
  const email = await fresh((request) => newShopper(request, true));
  return fresh((request) => fillCart(request, email, skip));
}

async function fillCart(request: APIRequestContext, email: string, skip: number): Promise<string> {
  const res = await request.post('/api/v1/user-auth/login', { data: { email, password: SHOPPER_PASSWORD } });
  const body = await res.json();
  expect(res.status(), JSON.stringify(body)).toBe(200);
  const token = body.data.token as string;
  const list = await getJson(request, '/api/v1/products?limit=100');
  let seen = 0;
  for (const p of list.data.docs as { id: number; sizeNames: string[] }[]) {
    if (p.sizeNames.length > 0) continue;
    const detail = (await getJson(request, `/api/v1/products/${p.id}`)).data;
    const v = detail.variants.find((x: { stock: number }) => x.stock >= 3);
    if (!v || seen++ < skip) continue;
    const added = await request.post('/api/v1/cart/add-to-cart', { headers: { authorization: `Bearer ${token}` }, data: { productId: p.id, color: v.color, quantity: 2 } });
    expect(added.ok()).toBe(true);
    return email;
  }
  throw new Error('no variant in stock');
}

/** "₦12,345.60" -> 1234560 (minor units). */
const minorOf = (text: string) => Math.round(Number(text.replace(/[^\d.]/g, '')) * 100);

async function expectDiscounted(page: Page, summary: string, totalTestId: string, code: string, percentOff: number) {
  const box = page.getByRole('complementary', { name: summary });
  const line = box.locator('.buy-discount-line');
  await expect(line).toContainText('Discount');
  await expect(line).toContainText(code);
  const discount = (await box.getByTestId('discount').textContent())!;
  expect(discount.startsWith('-')).toBe(true);
  const subtotal = minorOf((await box.locator('dl > div').first().locator('dd').textContent())!);
  expect(minorOf(discount)).toBe(Math.floor((subtotal * percentOff) / 100));
  const fee = (await box.locator('dl > div', { hasText: 'Shipping Fee' }).locator('dd').textContent())!;
  const feeMinor = /free/i.test(fee) ? 0 : minorOf(fee);
  expect(minorOf((await box.getByTestId(totalTestId).textContent())!)).toBe(subtotal - minorOf(discount) + feeMinor);
}

/** No serious accessibility problems with the code's field, Discount line and Remove button on the page. */
async function expectAccessible(page: Page, path: string) {
  const results = await new AxeBuilder({ page }).include('#main').analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${path}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test.describe('with JavaScript', () => {
  test('apply a code in the cart and at checkout, see the discount, remove it', async ({ page }) => {
    // Two owner sign-ins, two pages and two axe runs: near a minute on a busy two-core machine.
    test.setTimeout(120_000);
    const code = await newCode(20);
    await signIn(page, await shopperWithCart(12));
    await page.goto('/cart');
    await expect(page.locator('astro-island[component-url*="/CartView."]')).not.toHaveAttribute('ssr', /.*/, { timeout: 15_000 });

    const field = page.getByLabel('Discount code');
    await field.fill('not-a-real-code');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByText('This code is not valid.')).toBeVisible();
    await expect(page.locator('.buy-discount-line')).toHaveCount(0);

    await field.fill(code.toLowerCase());
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Discount applied!' })).toBeVisible();
    // At once, not after the error's 5 s: the success replaces the error about the same code: the two never stand one above the other.
    expect(await page.getByText('This code is not valid.').count()).toBe(0);
    await expect(page).toHaveURL(/\/cart$/);
    await expectDiscounted(page, 'Cart total', 'cart-total', code, 20);
    await expectAccessible(page, '/cart');

    // The checkout shows the same discount, and the code can come off there too.
    await page.getByRole('link', { name: 'PROCEED TO CHECKOUT' }).click();
    await expect(page).toHaveURL(/\/place-order$/);
    await expect(page.locator('astro-island[component-url*="/PlaceOrder."]')).not.toHaveAttribute('ssr', /.*/, { timeout: 15_000 });
    await expectDiscounted(page, 'Order summary', 'order-total', code, 20);
    await page.getByRole('button', { name: `Remove code ${code}` }).click();
    await expect(page.getByText('Discount removed')).toBeVisible();
    await expect(page.locator('.buy-discount-line')).toHaveCount(0);
    await expect(page.getByLabel('Discount code')).toBeVisible();
    await page.getByLabel('Discount code').fill(code);
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByText('Discount applied!')).toBeVisible();
    await expectDiscounted(page, 'Order summary', 'order-total', code, 20);
    await expectAccessible(page, '/place-order');
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('apply a code in the cart and at checkout, messages inline, remove it', async ({ page }) => {
    const code = await newCode(15);
    await signIn(page, await shopperWithCart(13));
    await page.goto('/cart');

    await page.getByLabel('Discount code').fill('not-a-real-code');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/\/cart\?error=code-not-valid$/);
    await expect(page.getByRole('alert').filter({ hasText: 'This code is not valid.' })).toBeVisible();

    await page.getByLabel('Discount code').fill(code.toLowerCase());
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/\/cart\?notice=discount-applied$/);
    await expect(page.getByRole('status').filter({ hasText: 'Discount applied!' })).toBeVisible();
    await expectDiscounted(page, 'Cart total', 'cart-total', code, 15);
    await page.getByRole('button', { name: `Remove code ${code}` }).click();
    await expect(page).toHaveURL(/\/cart\?notice=discount-removed$/);
    await expect(page.getByRole('status').filter({ hasText: 'Discount removed' })).toBeVisible();
    await expect(page.locator('.buy-discount-line')).toHaveCount(0);

    await page.goto('/place-order');
    await page.getByLabel('Discount code').fill(code);
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/\/place-order\?notice=discount-applied$/);
    await expectDiscounted(page, 'Order summary', 'order-total', code, 15);
  });
});
