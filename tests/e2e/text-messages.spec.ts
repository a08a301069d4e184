import { expect, test, type Locator, type Page } from '@playwright/test';
import { newShopper, SHOPPER_PASSWORD } from './support';

/** "Text me order updates" in /settings (issue 19, point 4), with and without scripts. */

const ON = 'We will text you when your orders are placed, dispatched and delivered.';
const OFF = 'We will no longer text you about your orders.';

/** Waits until the island around a control has hydrated (Astro drops the ssr attribute then). */
async function hydrated(page: Page, control: Locator): Promise<void> {
  await control.first().waitFor();
  await expect(page.locator('astro-island[ssr]', { has: control.first() })).toHaveCount(0);
}

async function signIn(page: Page, email: string) {
  await page.goto('/login?next=%2Fsettings');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(SHOPPER_PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  // (Without scripts the login's notice comes along: /settings?notice=logged-in.)
  await expect(page).toHaveURL(/\/settings(\?notice=logged-in)?$/);
}

async function fitsTheScreen(page: Page) {
  const width = page.viewportSize()!.width;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  const box = (await page.getByRole('button', { name: 'Save Text Messages' }).boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(width);
}

test('a shopper opts in to text messages and out again (with scripts)', async ({ page, request }) => {
  const email = await newShopper(request, false);
  await page.goto('/login?next=%2Fsettings');
  await hydrated(page, page.getByRole('button', { name: 'Login' }));
  await signIn(page, email);
  const box = page.getByRole('checkbox', { name: 'Text me order updates' });
  const save = page.getByRole('button', { name: 'Save Text Messages' });
  await hydrated(page, save);
  await expect(box).not.toBeChecked();
  await fitsTheScreen(page);
  await box.check();
  await save.click();
  await expect(page.getByText(ON, { exact: true }).first()).toBeVisible();
  // A toast, no page change.
  await expect(page).toHaveURL(/\/settings$/);
  await page.reload();
  await expect(box).toBeChecked();
  await hydrated(page, save);
  await box.uncheck();
  await save.click();
  await expect(page.getByText(OFF, { exact: true }).first()).toBeVisible();
  await page.reload();
  await expect(box).not.toBeChecked();
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the text messages form still saves the choice', async ({ page, request }) => {
    const email = await newShopper(request, false);
    await signIn(page, email);
    const box = page.getByRole('checkbox', { name: 'Text me order updates' });
    await expect(box).not.toBeChecked();
    await fitsTheScreen(page);
    await box.check();
    await page.getByRole('button', { name: 'Save Text Messages' }).click();
    await expect(page).toHaveURL(/\/settings\?notice=text-updates-on$/);
    await expect(page.getByRole('status').filter({ hasText: ON })).toBeVisible();
    await expect(box).toBeChecked();
    // An unticked box posts nothing: that is "off".
    await box.uncheck();
    await page.getByRole('button', { name: 'Save Text Messages' }).click();
    await expect(page).toHaveURL(/\/settings\?notice=text-updates-off$/);
    await expect(page.getByRole('status').filter({ hasText: OFF })).toBeVisible();
    await expect(box).not.toBeChecked();
  });
});
