import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { getJson, newShopper, SHOPPER_PASSWORD, signIn } from './support';

/**
 * "Download my data" and "Delete my account" on /settings at 360 px, with and without scripts: the
 * download is one JSON file with a summary; deleting asks "Are you sure you want to delete your
 * account?", takes the e-mailed code, signs the shopper out, and the e-mail no longer signs in.
 */
test.use({ viewport: { width: 360, height: 740 } });
async function fitsTheScreen(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
}

/** The newest confirmation code mailed to `email` (dev outbox). */
async function mailedCode(request: APIRequestContext, email: string): Promise<string> {
  let text = '';
  await expect
    .poll(async () => {
      const mails = await getJson(request, `/api/v1/dev/outbox?to=${encodeURIComponent(email)}`);
      text = mails[0]?.text ?? '';
      return text;
    })
    .toMatch(/confirmation code is \d{4}/);
  return /code is (\d{4})/.exec(text)![1]!;
}

async function downloadAndDelete(page: Page, request: APIRequestContext, tag: string) {
  const email = await newShopper(request, true, `e2e.privacy.${tag}`);
  await signIn(page, email);
  await page.goto('/settings');
  const data = page.locator('#your-data');
  await expect(data.getByRole('heading', { name: 'Your data' })).toBeVisible();
  await fitsTheScreen(page);

  // Signed in just now: no code is asked; the file comes at once.
  await expect(data.getByLabel('Code from your e-mail')).toHaveCount(0);
  const [download] = await Promise.all([page.waitForEvent('download'), data.getByRole('button', { name: 'Download my data' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^maison-luxe-my-data-\d{4}-\d{2}-\d{2}\.json$/);
  const file = JSON.parse(readFileSync((await download.path())!, 'utf8'));
  expect(file.summary.title).toBe('Your data at Maison Luxe');
  expect(file.profile.email).toBe(email);
  expect(file.addresses).toHaveLength(1);

  // "Delete my account": the spec's confirmation, the code, then gone.
  const section = page.locator('#delete-account');
  await section.getByRole('link', { name: 'Delete my account' }).click();
  await expect(page.getByText('Are you sure you want to delete your account?')).toBeVisible();
  await fitsTheScreen(page);
  await section.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByRole('status').filter({ hasText: `We e-mailed a 4-digit code to ${email}. Enter it to continue.` })).toBeVisible();
  await expect(page.getByText('Are you sure you want to delete your account?')).toBeVisible();
  const code = await mailedCode(request, email);
  await page.locator('#delete-account').getByLabel('Code', { exact: true }).fill(code);
  await page.locator('#delete-account').getByRole('button', { name: 'Yes, delete my account' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.getByRole('status').filter({ hasText: 'Your account has been deleted.' })).toBeVisible();

  // Signed out, and the e-mail no longer signs in.
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/login\?next=%2Fsettings/);
  const login = await request.post('/api/v1/user-auth/login', { data: { email, password: SHOPPER_PASSWORD } });
  expect(login.status()).toBe(401);
}

test('a shopper downloads their data and deletes their account (with scripts)', async ({ page, request }) => {
  await downloadAndDelete(page, request, 'js');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a shopper downloads their data and deletes their account', async ({ page, request }) => {
    await downloadAndDelete(page, request, 'nojs');
  });
});

test('/settings at 360 and 1366 px: fits the screen, the delete confirmation passes axe', async ({ page, request }) => {
  const email = await newShopper(request, true, 'e2e.privacy.shot');
  await signIn(page, email);
  for (const [width, height] of [
    [360, 740],
    [1366, 900],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto('/settings');
    await fitsTheScreen(page);
    await page.goto('/settings?delete=account#delete-account');
  }
  // The new sections, the confirmation open, pass axe's checks.
  const results = await new AxeBuilder({ page }).include('#your-data').include('#delete-account').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});

test('the Privacy page says what the store does and links to Settings', async ({ page }) => {
  await page.goto('/privacy');
  // The spec's facts stay on the page.
  await expect(page.getByText('We do not store your payment details')).toBeVisible();
  await expect(page.getByText('We do not share your data with third parties for marketing.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your choices' })).toBeVisible();
  for (const words of ['download your data', 'delete your account', 'unsubscribe', 'choose text messages']) await expect(page.getByText(words, { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings');
  await fitsTheScreen(page);
});
