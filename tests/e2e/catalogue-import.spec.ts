import { expect, test, type Page } from '@playwright/test';
import { zipSync } from 'fflate';
import sharp from 'sharp';
import { csvLines } from '@/lib/server/infra/csv';
import { startServer, type RunningServer } from '../support/server';
import { driverOf, overflow } from './support';

/**
 * A season's file through the back office, at 360 px and at desktop width: the owner uploads a CSV
 * with twelve mistakes and sees all twelve at once, by row and column, with nothing changed; then
 * the corrected file, checked and applied, and its pieces are on the storefront. On a store of its
 * own: the owner's sign-in code is this server's alone, and the two widths take turns.
 */
const OWNER = { email: 'owner@maisonluxe.ng', password: 'LuxeOwner2026!' };
const HEADER = ['Handle', 'Title', 'Description', 'Category', 'Status', 'Option1 Colour', 'Option2 Size', 'SKU', 'Inventory', 'Price NG', 'Price ZA', 'Image Src'];

test.describe.configure({ mode: 'serial' });

let server: RunningServer;

test.beforeAll(async ({}, testInfo) => {
  const driver = driverOf(testInfo);
  test.setTimeout(180_000);
  server = await startServer(driver);
});

test.afterAll(async () => {
  await server?.stop();
});

/** A season file under handles of its own (one run per width), wrong in twelve places or right. */
function seasonFile(tag: string, wrong: boolean): string {
  const pumps = `import-pumps-${tag}`;
  const tote = `import-tote-${tag}`;
  const sku = (s: string) => `${tag.toUpperCase()}-${s}`;
  const right = [
    [pumps, `Adaeze Import Pumps ${tag}`, 'Patent pumps on a slim heel.', 'Shoes > Heels', 'active', 'Black', 'EU 37', sku('P37'), '3', '250000', '3200', 'pumps.png'],
    [pumps, '', '', '', '', 'Black', 'EU 38', sku('P38'), '2', '250000', '3200', ''],
    [tote, `Zuri Import Tote ${tag}`, 'A soft leather tote.', 'Bags > Totes', 'active', 'Tan', '', sku('T1'), '4', '90000', '1200', ''],
  ];
  if (!wrong) return csvLines([HEADER, ...right]);
  return csvLines([
    HEADER,
    right[0]!,
    // Title differs, colour written two ways, price not a number
    [pumps, 'Another Title', '', '', '', 'black', 'EU 38', sku('P38'), '2', 'ten', '3200', ''],
    // size not in the guide, SKU repeated, picture not in the ZIP
    [pumps, '', '', '', '', 'Black', 'EU 99', sku('P37'), '1', '250000', '3200', 'missing.png'],
    // no handle
    ['', 'No Handle', '', '', '', '', '', '', '', '', '', ''],
    // no title on a handle's first row, a picture on a private address
    [tote, '', '', 'Bags > Totes', '', 'Tan', '', sku('T1'), '4', '90000', '1200', 'https://localhost/secret.png'],
    // unknown category, unknown status, inventory not whole
    [`import-scarf-${tag}`, `Import Scarf ${tag}`, '', 'Scarves > Silk', 'sold', '', '', sku('S1'), 'many', '40000', '', ''],
  ]);
}

async function pictures(): Promise<Buffer> {
  const png = await sharp({ create: { width: 400, height: 500, channels: 3, background: '#1a1a1a' } }).png().toBuffer();
  return Buffer.from(zipSync({ 'pumps.png': new Uint8Array(png) }));
}

async function ownerSignIn(page: Page) {
  await page.goto(`${server.baseUrl}/admin/products/import`);
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((u) => u.pathname === '/login/verify-device');
  const mail = await (await page.request.get(`${server.baseUrl}/api/v1/dev/outbox?to=${encodeURIComponent(OWNER.email)}`)).json();
  await page.getByLabel('Code', { exact: true }).fill(/code is (\d{4})/.exec(mail[0].text)![1]!);
  await page.getByRole('button', { name: 'Confirm' }).click();
  // The guard remembers where the owner was going.
  await expect(page.getByRole('heading', { name: 'Import products' })).toBeVisible();
}

async function upload(page: Page, tag: string, wrong: boolean, zip: Buffer) {
  await page.goto(`${server.baseUrl}/admin/products/import`);
  await page.getByLabel('CSV file').setInputFiles({ name: `season-${tag}.csv`, mimeType: 'text/csv', buffer: Buffer.from(seasonFile(tag, wrong)) });
  await page.getByLabel('Pictures (optional ZIP)').setInputFiles({ name: 'pictures.zip', mimeType: 'application/zip', buffer: zip });
  await page.getByRole('button', { name: 'Check the file' }).click();
  await expect(page.getByRole('heading', { name: `season-${tag}.csv` })).toBeVisible();
  // The page refreshes itself while the shared worker checks the file.
  await expect(page.locator('[data-import-status]')).not.toHaveAttribute('data-import-status', /checking|applying/, { timeout: 60_000 });
}

// The phone without scripts (plain forms, a page that refreshes itself), the desktop with them.
for (const [width, viewport, javaScriptEnabled] of [
  ['360 px', { width: 360, height: 740 }, false],
  ['desktop', { width: 1366, height: 850 }, true],
] as const) {
  test.describe(`at ${width}, ${javaScriptEnabled ? 'with' : 'without'} JavaScript`, () => {
    test.use({ viewport, javaScriptEnabled });

    test('a file with twelve mistakes shows all twelve at once and changes nothing; the corrected file applies and its pieces are on the storefront', async ({ page }) => {
      test.setTimeout(180_000);
      const tag = width === 'desktop' ? 'dsk' : 'ph';
      const zip = await pictures();
      await ownerSignIn(page);

      await upload(page, tag, true, zip);
      await expect(page.getByText('Problems found: nothing was changed')).toBeVisible();
      await expect(page.getByRole('heading', { name: '12 problems' })).toBeVisible();
      const rows = page.locator('[data-import-errors] tbody tr');
      const found = (await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 2).map((td) => td.textContent!.trim()).join(':')))).sort();
      expect(found).toEqual(
        ['3:Title', '3:Option1 Colour', '3:Price NG', '4:Option2 Size', '4:SKU', '4:Image Src', '5:Handle', '6:Title', '6:Image Src', '7:Category', '7:Status', '7:Inventory'].sort(),
      );
      await expect(rows.filter({ hasText: 'There is no size "EU 99" in the catalogue.' })).toHaveCount(1);
      await expect(rows.filter({ hasText: 'The colour "black" is written "Black" on row 2. Write a colour one way.' })).toHaveCount(1);
      await expect(page.getByRole('button', { name: 'Apply the file' })).toHaveCount(0);
      expect((await overflow(page)).extra, 'the problem list fits the screen').toBeLessThanOrEqual(0);
      const before = await (await page.request.get(`${server.baseUrl}/api/v1/products?q=${encodeURIComponent(`Import Pumps ${tag}`)}`)).json();
      expect(JSON.stringify(before)).not.toContain(`Adaeze Import Pumps ${tag}`);

      await upload(page, tag, false, zip);
      await expect(page.getByText('Checked: ready to apply')).toBeVisible();
      const summary = page.locator('[data-import-summary]');
      await expect(summary).toContainText('Products: 2 created, 0 updated');
      await expect(summary).toContainText('Variants: 3 created');
      await expect(summary).toContainText('Pictures added: 1');
      await page.getByRole('button', { name: 'Apply the file' }).click();
      await expect(page.locator('[data-import-status]')).toHaveAttribute('data-import-status', 'applied', { timeout: 60_000 });
      await expect(page.getByRole('heading', { name: 'What changed' })).toBeVisible();

      // On the storefront: found by search, its page priced and buyable in its sizes.
      await page.goto(`${server.baseUrl}/collection?q=${encodeURIComponent(`Adaeze Import Pumps ${tag}`)}`);
      const card = page.getByRole('link', { name: new RegExp(`Adaeze Import Pumps ${tag}`) }).first();
      await expect(card).toBeVisible();
      await card.click();
      await expect(page.getByRole('heading', { level: 1, name: `Adaeze Import Pumps ${tag}` })).toBeVisible();
      await expect(page.getByText('₦250,000').first()).toBeVisible();
      await expect(page.getByRole('radio', { name: 'EU 37' })).toBeVisible();
      await expect(page.getByRole('radio', { name: 'EU 38' })).toBeVisible();
    });
  });
}
