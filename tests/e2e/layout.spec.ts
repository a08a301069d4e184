import { expect, test, type Page } from '@playwright/test';
import { fitsTheScreen, getJson, newShopper, overflow, purchaseReady, signIn } from './support';

/**
 * No page of the store scrolls sideways on a 320 px phone: every page template, signed out and
 * signed in, and the product page with its size guide open (in place without JavaScript, as a
 * sheet with it).
 */
// Reduced motion: <main> slides in by 28 px as a page opens, clipped on purpose, not a layout's width.
test.use({ viewport: { width: 320, height: 640 }, reducedMotion: 'reduce' });
/** A product with a size guide (clothing or shoes: more than one size). */
async function sizedProduct(page: Page): Promise<number> {
  const docs = (await getJson(page.request, '/api/v1/products?limit=60')).data.docs as { id: number; sizeNames: string[] }[];
  return docs.find((p) => p.sizeNames.length > 1)!.id;
}

const PUBLIC_PAGES = ['/', '/collection', '/collection?q=bag', '/collection?q=zzzzqqq', '/Bags-men', '/login', '/register', '/forgot-password', '/about', '/privacy', '/contact', '/delivery-options', '/no-such-page'];
const SHOPPER_PAGES = ['/', '/cart', '/place-order', '/profile', '/settings', '/orders', '/order-history', '/address-history', '/add-address', '/favourites'];

for (const js of [true, false]) {
  test.describe(js ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled: js });

    test('signed out, no page scrolls sideways at 320 px, the product page with its size guide open included', async ({ page }) => {
      const first = (await getJson(page.request, '/api/v1/products?limit=1')).data.docs[0] as { categoryId: number; subCategoryId: number };
      const paths = [...PUBLIC_PAGES, `/collection?categoryId=${first.categoryId}`, `/collection?categoryId=${first.categoryId}&subCategory=${first.subCategoryId}`];
      for (const path of paths) await fitsTheScreen(page, path);

      const id = await sizedProduct(page);
      await fitsTheScreen(page, `/product/${id}`);
      if (js) await purchaseReady(page);
      await page.getByText('Size guide', { exact: true }).click();
      const table = js ? page.getByRole('dialog', { name: 'Size guide' }).locator('table') : page.locator('.size-guide table');
      await expect(table).toBeVisible();
      const { extra, culprits } = await overflow(page);
      expect(extra, `the open size guide widens the page: ${culprits.join(', ')}`).toBeLessThanOrEqual(0);
      // The table scrolls sideways inside its own box, which stays within the screen.
      const box = await table.locator('xpath=..').boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(320);
    });

    test('signed in, no page of the shopper scrolls sideways at 320 px', async ({ page }) => {
      const email = await newShopper(page.request, true);
      await signIn(page, email);
      for (const path of SHOPPER_PAGES) await fitsTheScreen(page, path);
      await fitsTheScreen(page, `/product/${await sizedProduct(page)}`);
    });
  });
}

test.describe('the desktop header at 1366 px', () => {
  test.use({ viewport: { width: 1366, height: 900 } });
  for (const js of [true, false]) {
    test(`${js ? 'with' : 'without'} JavaScript: the parent categories are links in it, and "Shop in" is a compact control inside it that still changes the market`, async ({ browser }) => {
      const page = await browser.newPage({ javaScriptEnabled: js, viewport: { width: 1366, height: 900 } });
      await page.goto('/');
      const header = page.locator('header.topbar');
      const bar = (await header.boundingBox())!;
      const links = header.getByRole('navigation', { name: 'Categories' }).getByRole('link');
      expect(await links.count()).toBeGreaterThan(1);
      for (const link of await links.all()) await expect(link).toBeVisible();
      await expect(links.first()).toHaveAttribute('href', /^\/collection\?categoryId=\d+$/);
      const shopIn = page.getByLabel('Shop in');
      const box = (await shopIn.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(bar.y);
      expect(box.y + box.height).toBeLessThanOrEqual(bar.y + bar.height);
      await expect(shopIn.locator('option:checked')).toHaveText('Nigeria (₦ NGN)');
      // Still there once scrolled: it sticks with the bar.
      await page.mouse.wheel(0, 1200);
      await expect(shopIn).toBeInViewport();
      await shopIn.selectOption({ label: 'South Africa (R ZAR)' });
      await page.getByRole('button', { name: 'Change' }).click();
      await expect(page.getByLabel('Shop in')).toHaveValue('ZA');
      await page.close();
    });
  }
});
