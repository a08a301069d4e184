import { expect, test, type Page } from '@playwright/test';
import { getJson, newShopper, purchaseReady, SHOPPER_PASSWORD, twoColourProduct } from './support';

/**
 * A signed-out shopper who taps ADD TO CART (or a heart) keeps the choice through signing in, or
 * registering and its code: they come back to the piece, in the colour and size chosen, and it is
 * in the bag once. With scripts the spec's toast offers "Sign in"; without, the form post does it.
 */
test.use({ viewport: { width: 360, height: 740 } });
test.beforeEach(({}, info) => test.skip(info.project.name !== 'phone', 'a phone-width journey'));

async function bagLines(page: Page) {
  const me = (await getJson(page.request, '/api/v1/user-auth/get-user')).data;
  return (await getJson(page.request, `/api/v1/cart/${me.id ?? me._id}`)).data.items as { productId: number; color: string | null; size: string | null; quantity: number }[];
}

async function login(page: Page, email: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(SHOPPER_PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
}

for (const js of [true, false]) {
  test.describe(js ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled: js });

    test('ADD TO CART signed out: sign in, and the piece is back in its colour and size, in the bag once', async ({ page }) => {
      const email = await newShopper(page.request, false, js ? 'keep-js' : 'keep-nojs');
      const piece = await twoColourProduct(page.request, js ? 0 : 1);
      const { color, size } = piece.variantOf(piece.second);
      await page.goto(`/product/${piece.id}?color=${encodeURIComponent(color)}`);
      if (js) await purchaseReady(page);
      if (size) await page.locator('.option-group').first().getByRole('radio', { name: size, exact: true }).check({ force: true });
      await page.getByRole('button', { name: 'ADD TO CART' }).click();
      if (js) {
        const toast = page.locator('.ml-toast').filter({ hasText: 'Please create an account or login' });
        await expect(toast).toBeVisible();
        await toast.getByRole('button', { name: 'Sign in' }).click();
      }
      await page.waitForURL(/\/login\?/);
      await expect(page.getByText('Please create an account or login')).toBeVisible();
      await login(page, email);
      await page.waitForURL((url) => url.pathname === `/product/${piece.id}`);
      const url = new URL(page.url());
      expect(url.searchParams.get('color')).toBe(color);
      expect(url.searchParams.get('size')).toBe(size);
      await expect(page.getByText('Product added to cart successfully!').first()).toBeVisible();
      expect((await bagLines(page)).filter((l) => l.productId === piece.id)).toEqual([expect.objectContaining({ color, size, quantity: 1 })]);

      // Signing in again adds nothing: the choice was done once.
      await page.context().clearCookies();
      await page.goto('/login');
      await login(page, email);
      await page.waitForURL((u) => u.pathname === '/');
      expect((await bagLines(page)).filter((l) => l.productId === piece.id)).toEqual([expect.objectContaining({ quantity: 1 })]);
    });
  });
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('registering and its code from there also comes back with the piece in the bag', async ({ page }) => {
    const piece = await twoColourProduct(page.request, 2);
    const { color, size } = piece.variantOf(piece.first);
    await page.goto(`/product/${piece.id}?color=${encodeURIComponent(color)}`);
    if (size) await page.locator('.option-group').first().getByRole('radio', { name: size, exact: true }).check({ force: true });
    await page.getByRole('button', { name: 'ADD TO CART' }).click();
    await page.waitForURL(/\/login\?/);
    await page.getByRole('link', { name: 'Create account' }).click();
    const email = `keep.reg.${Date.now().toString(36)}@example.com`;
    await page.getByLabel('First Name').fill('Adaeze');
    await page.getByLabel('Last Name').fill('Okafor');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(SHOPPER_PASSWORD);
    await page.getByLabel('Phone Number').fill('+2348031234567');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.waitForURL(/\/verify-otp/);
    const outbox = await getJson(page.request, `/api/v1/dev/outbox?to=${encodeURIComponent(email)}`);
    const code = /code is (\d{4})/.exec(outbox[0].text)![1]!;
    await page.getByLabel('Verification Code').fill(code);
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await page.waitForURL(/\/login/);
    await login(page, email);
    await page.waitForURL((url) => url.pathname === `/product/${piece.id}`);
    expect((await bagLines(page)).filter((l) => l.productId === piece.id)).toEqual([expect.objectContaining({ color, size, quantity: 1 })]);
  });

  test('a heart tapped signed out is kept through signing in', async ({ page }) => {
    const email = await newShopper(page.request, false, 'keep-heart');
    const piece = await twoColourProduct(page.request, 3);
    await page.goto(`/product/${piece.id}`);
    await page.getByRole('button', { name: 'Add to favourites' }).first().click();
    await page.waitForURL(/\/login\?/);
    await login(page, email);
    await page.waitForURL((url) => url.pathname === `/product/${piece.id}`);
    const favourites = await getJson(page.request, '/api/v1/favourites');
    expect(JSON.stringify(favourites)).toContain(`${piece.id}`);
    await expect(page.getByRole('button', { name: 'Remove from favourites' }).first()).toBeVisible();
  });
});
