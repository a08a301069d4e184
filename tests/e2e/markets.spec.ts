import { expect, test, type Page } from '@playwright/test';
import { formatMoney } from '@/lib/domain/money';
import { getJson, purchaseReady, signIn, southAfricanProducts, southAfricanShopper, type Variant } from './support';

/**
 * Markets in the browser at 360 px, with JavaScript on and off: switch to South Africa with the
 * "Shop in" control, see R prices on the home page, a collection and a product, buy in rand with
 * the South African delivery fee, pay in ZAR on the simulated page and find the order in ZAR; then
 * switch back to Nigeria, see the cart re-priced in naira, and buy in naira (pickup in Lagos, since
 * the shopper's address is in South Africa).
 */
test.use({ viewport: { width: 360, height: 740 } });
const zar = (n: number) => formatMoney(n, 'ZAR');
const ngn = (n: number) => formatMoney(n, 'NGN');
const status = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text }).first();

async function shopIn(page: Page, label: 'South Africa (R ZAR)' | 'Nigeria (₦ NGN)') {
  await page.getByLabel('Shop in').selectOption({ label });
  await page.getByRole('button', { name: 'Change' }).click();
  await expect(status(page, `You are now shopping in ${label}`)).toBeVisible();
  await expect(page.getByLabel('Shop in')).toHaveValue(label.startsWith('South') ? 'ZA' : 'NG');
}

async function addToCart(page: Page, js: boolean, v: { productId: number; color: string | null }) {
  await page.goto(`/product/${v.productId}`);
  if (js) await purchaseReady(page);
  if (v.color) await page.getByRole('radio', { name: v.color, exact: true }).check();
  await page.getByRole('button', { name: 'ADD TO CART' }).click();
  if (js) await expect(page.getByText('Product added to cart successfully!')).toBeVisible();
  else await expect(page).toHaveURL(/\/cart\?notice=/);
}

async function payOnSimulatedPage(page: Page, currency: 'ZAR' | 'NGN', total: string) {
  await page.getByRole('button', { name: 'PAY & PLACE ORDER' }).click();
  await expect(page).toHaveURL(/\/pay\/simulated\//);
  await expect(page.getByLabel('Amount')).toContainText(total);
  await expect(page.getByText(`Charged in ${currency}`)).toBeVisible();
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page.getByText('Order placed successfully!').first()).toBeVisible();
}

for (const js of [true, false]) {
  test.describe(`markets with JavaScript ${js ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled: js });

    test('buy in South Africa in rand, then in Nigeria in naira', async ({ page, request }) => {
      const email = await southAfricanShopper(request);
      const [first, second] = await southAfricanProducts(request, js ? 0 : 4, 2);
      await signIn(page, email);

      // The shopper's country is South Africa: the signed-in store already prices in rand; choose it explicitly anyway.
      await page.goto('/');
      await shopIn(page, 'South Africa (R ZAR)');
      await expect(page.locator('.card-price').first()).toHaveText(/^(From )?R\u00a0\d/);
      await page.goto('/collection');
      await expect(page.locator('.card-price').first()).toHaveText(/^(From )?R\u00a0\d/);
      await expect(page.locator('main')).not.toContainText('₦');
      await page.goto(`/product/${first!.productId}`);
      await expect(page.locator('.product-price')).toHaveText(zar(first!.zaPrice));
      await addToCart(page, js, first!);
      await page.goto('/cart');
      const fee = 180; // Standard delivery within South Africa, R180
      await expect(page.getByRole('complementary', { name: 'Cart total' })).toContainText(zar(fee));
      await expect(page.getByTestId('cart-total')).toHaveText(zar(first!.zaPrice + fee));

      await page.getByRole('link', { name: 'PROCEED TO CHECKOUT' }).click();
      await expect(page).toHaveURL(/\/place-order$/);
      await expect(page.getByRole('radio', { name: 'Delivery', exact: true })).toBeChecked();
      await expect(page.getByTestId('order-total')).toHaveText(zar(first!.zaPrice + fee));
      await payOnSimulatedPage(page, 'ZAR', zar(first!.zaPrice + fee));

      await page.goto('/order-history');
      await expect(page.locator('.order-card').first()).toContainText(zar(first!.zaPrice + fee));

      // Back to Nigeria: the cart is re-priced on the server, and the shopper is told.
      await addToCart(page, js, second!);
      await page.goto('/cart');
      await expect(page.getByTestId('cart-total')).toContainText('R');
      await shopIn(page, 'Nigeria (₦ NGN)');
      await expect(status(page, 'Your cart has been re-priced in NGN')).toBeVisible();
      await page.goto('/cart');
      await expect(page.locator('.cart-line').getByLabel('Line total')).toHaveText(ngn(second!.ngPrice));

      // The address is in South Africa: checkout in Nigeria says so; pickup in Lagos is fine.
      await page.getByRole('link', { name: 'PROCEED TO CHECKOUT' }).click();
      await expect(page.locator('[data-market-mismatch]')).toContainText('Your delivery address is in South Africa');
      await expect(page.locator('[data-market-mismatch]')).toContainText('We deliver Nigeria orders only to Nigeria');
      await expect(page.getByRole('button', { name: 'Shop in South Africa (R ZAR)' })).toBeVisible();
      await page.getByRole('radio', { name: 'Pickup' }).check();
      if (!js) await page.getByRole('button', { name: 'Update total' }).click();
      await expect(page.getByRole('group', { name: 'Pickup address' })).toContainText('Maison Luxe Ikoyi');
      await expect(page.getByTestId('order-total')).toHaveText(ngn(second!.ngPrice));
      await payOnSimulatedPage(page, 'NGN', ngn(second!.ngPrice));
      await page.goto('/order-history');
      const cards = page.locator('.order-card');
      await expect(cards).toHaveCount(2);
      await expect(page.locator('main')).toContainText(ngn(second!.ngPrice));
      await expect(page.locator('main')).toContainText(zar(first!.zaPrice + fee));
    });

    test('a cart opened in another market is re-priced there and says so', async ({ page, request }) => {
      const email = await southAfricanShopper(request);
      const [item] = await southAfricanProducts(request, js ? 8 : 10, 1);
      await signIn(page, email);
      await shopIn(page, 'South Africa (R ZAR)');
      await addToCart(page, js, item!);
      await page.goto('/cart?market=NG');
      // A toast once the cart island runs; read inline on the page without scripts.
      await expect(page.getByText('Your cart is now priced for Nigeria (₦ NGN).')).toBeVisible();
      await expect(page.locator('.cart-line').getByLabel('Line total')).toHaveText(ngn(item!.ngPrice));
      await page.goto('/cart?market=NG');
      await expect(page.locator('.cart-line')).toHaveCount(1);
      await expect(page.getByText('Your cart is now priced for Nigeria (₦ NGN).')).toHaveCount(0);
    });
  });
}

test('a colour that costs more shows its own price on the product page and in the cart', async ({ page, request }) => {
  const list = await getJson(request, '/api/v1/products?limit=100&market=ZA');
  let found: { id: number; cheap: Variant; dear: Variant } | null = null;
  for (const p of list.data.docs as { id: number; sizeNames: string[] }[]) {
    if (p.sizeNames.length > 0) continue;
    const detail = (await getJson(request, `/api/v1/products/${p.id}?market=ZA`)).data as { price: number; variants: Variant[] };
    const dear = detail.variants.find((v) => v.price > detail.price && v.stock > 0);
    const cheap = detail.variants.find((v) => v.price === detail.price && v.stock > 0);
    if (dear && cheap) {
      found = { id: p.id, cheap, dear };
      break;
    }
  }
  expect(found, 'a seeded product with a premium colour').not.toBeNull();
  const email = await southAfricanShopper(request);
  await signIn(page, email);
  await page.goto(`/product/${found!.id}?market=ZA`);
  await purchaseReady(page);
  await page.getByRole('radio', { name: found!.cheap.color!, exact: true }).check();
  await expect(page.locator('.product-price')).toHaveText(zar(found!.cheap.price));
  // Each colour shows its own price beside its name (also without scripts), outside the option's accessible name.
  await expect(page.locator('label.option').filter({ hasText: found!.dear.color! }).locator('.option-price')).toHaveText(zar(found!.dear.price));
  await page.getByRole('radio', { name: found!.dear.color!, exact: true }).check();
  await expect(page.locator('.product-price')).toHaveText(zar(found!.dear.price));
  await page.getByRole('button', { name: 'ADD TO CART' }).click();
  await expect(page.getByText('Product added to cart successfully!')).toBeVisible();
  await page.goto('/cart');
  await expect(page.locator('.cart-line').filter({ hasText: found!.dear.color! }).getByLabel('Line total')).toHaveText(zar(found!.dear.price));
});
