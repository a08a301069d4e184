import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';

/**
 * Designers: from the side menu to the A–Z, one designer's pieces only, the name above each
 * card's and above the product page's name. At phone width only: nothing here changes at 1366 px.
 */
test('the side menu leads to the designers, and one designer shows only their pieces, named above each piece', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Shop by category' });
  await menu.getByRole('link', { name: 'Designers' }).click();
  await expect(page).toHaveURL(/\/designers$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Designers' })).toBeVisible();
  const serious = (await new AxeBuilder({ page }).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
  expect(serious).toEqual([]);
  const designer = page.locator('.dz li a').first();
  const name = (await designer.textContent())!.trim();
  await designer.click();
  await expect(page).toHaveURL(/\/collection\?designer=[a-z0-9-]+$/);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

  const cards = page.locator('#products article.card');
  await expect(cards.first()).toBeVisible();
  const count = await cards.count();
  expect(count).toBeGreaterThan(0);
  await expect(page.locator('#products article.card .cd')).toHaveText(Array<string>(count).fill(name));
  // The designer sits above the card's name, and the spec's product id stays.
  const first = cards.first();
  const [designerBox, nameBox] = await Promise.all([first.locator('.cd').boundingBox(), first.locator('.card-name').boundingBox()]);
  expect(designerBox!.y + designerBox!.height).toBeLessThanOrEqual(nameBox!.y + 1);
  await expect(first.locator('.card-id')).toHaveText(/^Ref\. \d+$/);

  const productName = (await first.locator('.card-name').textContent())!.trim();
  await first.locator('.card-link').click();
  await expect(page).toHaveURL(/\/product\/\d+/);
  const line = page.locator('.product-info .pd');
  await expect(line).toHaveText(name);
  const title = page.getByRole('heading', { level: 1, name: productName });
  const [lineBox, titleBox] = await Promise.all([line.boundingBox(), title.boundingBox()]);
  expect(lineBox!.y + lineBox!.height).toBeLessThanOrEqual(titleBox!.y + 1);
});
