import { expect, test, type Page } from '@playwright/test';
import { hashPassword } from '@/lib/server/accounts/passwords';
import { users } from '@/lib/server/accounts/tables';
import { startServer, type RunningServer } from '../support/server';
import { prepareStore, type PreparedStore } from '../support/pod-orders';
import { fitsTheScreen } from './support';

/**
 * An editor changes the About page at 360 px, with and without JavaScript: signs in with the new
 * browser's code, previews the change, publishes it, sees it at once on a second app server that
 * shares the database (PostgreSQL, the cache bus between them), then restores the earlier version.
 */
const PASSWORD = 'Editor-2026!';
const EDITORS = { js: 'editor.js@example.com', nojs: 'editor.nojs@example.com' };

test.use({ viewport: { width: 360, height: 740 } });
test.describe.configure({ mode: 'serial' });

let store: PreparedStore;
let first: RunningServer;
let second: RunningServer;

test.beforeAll(async ({}, info) => {
  test.skip(info.project.name !== 'phone', 'one run: two app servers of its own, at phone width');
  test.setTimeout(240_000);
  const prepared = await prepareStore('pg', async (services) => {
    const passwordHash = await hashPassword(PASSWORD);
    for (const email of Object.values(EDITORS)) {
      await services.db.insert(users).values({ firstName: 'Ada', lastName: 'Obi', email, passwordHash, phoneNumber: '+2348031234567', country: 'nigeria', verifiedAt: new Date(), role: 'editor' });
    }
  });
  store = prepared.store;
  first = await startServer('pg', {}, { databaseUrl: store.databaseUrl! });
  second = await startServer('pg', {}, { databaseUrl: store.databaseUrl! });
});

test.afterAll(async () => {
  await second?.stop();
  await first?.stop();
  await store?.drop();
});

async function signIn(page: Page, email: string) {
  await page.goto(`${first.baseUrl}/admin`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((u) => u.pathname === '/login/verify-device');
  const mail = await (await page.request.get(`${first.baseUrl}/api/v1/dev/outbox?to=${encodeURIComponent(email)}`)).json();
  await page.getByLabel('Code', { exact: true }).fill(/code is (\d{4})/.exec(mail[0].text)![1]!);
  await page.getByRole('button', { name: 'Confirm' }).click();
  // the back office's door takes an editor to the pages, the only tab they see
  await expect(page.getByRole('heading', { name: 'Pages', level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Back office' }).getByRole('link')).toHaveText(['Pages']);
}

/** The About page as an anonymous visitor of the second server sees it (its route cache included). */
const aboutOnSecond = async (page: Page) => (await page.request.get(`${second.baseUrl}/about`, { headers: { cookie: '' } })).text();

for (const js of [true, false]) {
  test(`an editor previews, publishes and restores the About page ${js ? 'with' : 'without'} JavaScript`, async ({ browser }) => {
    test.setTimeout(180_000);
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, javaScriptEnabled: js });
    const page = await context.newPage();
    const sentence = `Our atelier in Abuja opens this spring (${js ? 'with' : 'without'} script).`;
    await signIn(page, js ? EDITORS.js : EDITORS.nojs);
    // the second server has the page cached before the change
    expect(await aboutOnSecond(page)).not.toContain(sentence);
    expect(await aboutOnSecond(page)).not.toContain(sentence);

    await page.getByRole('link', { name: 'Edit About' }).click();
    await fitsTheScreen(page, page.url());
    const text = page.getByLabel('Text (markdown)');
    await text.fill(`${await text.inputValue()}\n${sentence}\n`);
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.locator('[data-preview]');
    await expect(preview.getByText(sentence)).toBeVisible();
    await expect(preview.getByRole('heading', { name: 'About Us', level: 1 })).toBeVisible();
    // the text stays in the form after the preview
    await expect(page.getByLabel('Text (markdown)')).toHaveValue(new RegExp(sentence.replace(/[()]/g, '\\$&')));
    expect(await aboutOnSecond(page)).not.toContain(sentence);

    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByText('Page published')).toBeVisible();
    // live on the other app server within a second: its cached copy dropped through NOTIFY
    await expect.poll(() => aboutOnSecond(page), { timeout: 1_500, intervals: [100] }).toContain(sentence);

    // the history: the version before this publish comes back as a draft, then goes live
    const rows = page.locator('table.adm-table tbody tr');
    const earlier = rows.filter({ hasText: 'Published' }).nth(1);
    const before = (await earlier.count()) ? earlier : rows.filter({ hasText: 'First version' });
    await before.getByRole('button', { name: /Restore/ }).click();
    await expect(page.getByText('The revision is restored as a draft')).toBeVisible();
    await expect(page.getByLabel('Text (markdown)')).not.toHaveValue(new RegExp(sentence.replace(/[()]/g, '\\$&')));
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByText('Page published')).toBeVisible();
    await expect.poll(() => aboutOnSecond(page), { timeout: 1_500, intervals: [100] }).not.toContain(sentence);
    await context.close();
  });
}
