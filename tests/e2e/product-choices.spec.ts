import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { getJson, purchaseReady } from './support';

/**
 * The product page's size and colour choice at 360 px, with and without JavaScript: an option that
 * cannot be bought with the other choice is struck through, still focusable and named so, and
 * choosing it never changes the other choice (nor the pictures) behind the shopper's back.
 */
test.use({ viewport: { width: 360, height: 740 } });
type Variant = { size: string | null; color: string | null; stock: number };

/** A product with a size sold out in one colour (which has other sizes in stock) but in stock in another colour. */
async function soldOutCombination(request: APIRequestContext) {
  const list = await getJson(request, '/api/v1/products?limit=100');
  for (const p of list.data.docs as { id: number; colorNames: string[]; sizeNames: string[] }[]) {
    if (p.colorNames.length < 2 || p.sizeNames.length < 2) continue;
    const variants = (await getJson(request, `/api/v1/products/${p.id}`)).data.variants as Variant[];
    for (const gone of variants.filter((v) => v.stock === 0 && v.size && v.color)) {
      const elsewhere = variants.find((v) => v.size === gone.size && v.color !== gone.color && v.stock > 0);
      const otherSize = variants.find((v) => v.color === gone.color && v.size !== gone.size && v.stock > 0);
      if (elsewhere && otherSize) return { id: p.id, size: gone.size!, color: gone.color!, otherSize: otherSize.size! };
    }
  }
  throw new Error('no product with a size sold out in one colour only');
}


const colourGroup = (page: Page) => page.locator('.option-group').filter({ hasText: 'Colour' });
const sizeGroup = (page: Page) => page.locator('.option-group').filter({ hasText: 'Size' }).first();

test('a size sold out in the chosen colour says so and choosing it keeps the colour and its pictures', async ({ page }) => {
  const { id, size, color, otherSize } = await soldOutCombination(page.request);
  await page.goto(`/product/${id}`);
  await purchaseReady(page);
  await colourGroup(page).getByRole('radio', { name: color, exact: true }).check({ force: true });
  const picture = await page.locator('img[data-main-image]').getAttribute('data-hash');

  const soldOut = sizeGroup(page).getByRole('radio', { name: `${size}, sold out in ${color}`, exact: true });
  await expect(soldOut).toBeEnabled();
  await expect(soldOut.locator('+ .option-btn')).toHaveCSS('text-decoration-line', 'line-through');
  // Reached by keyboard like any other size.
  await sizeGroup(page).getByRole('radio', { name: otherSize, exact: true }).focus();
  await soldOut.focus();
  await expect(soldOut).toBeFocused();
  await soldOut.check({ force: true });

  // The colour stays chosen, and now says it is sold out in that size.
  await expect(colourGroup(page).getByRole('radio', { name: `${color}, sold out in ${size}`, exact: true })).toBeChecked();
  await expect(soldOut).toBeChecked();
  await expect(page.locator('img[data-main-image]')).toHaveAttribute('data-hash', picture!);
  await expect(page.locator('.stock-note')).toHaveText(`${size} is sold out in ${color}.`);
  await expect(page.getByRole('button', { name: 'ADD TO CART' })).toBeDisabled();

  // Another size in the colour can be bought again.
  await sizeGroup(page).getByRole('radio', { name: otherSize, exact: true }).check({ force: true });
  await expect(colourGroup(page).getByRole('radio', { name: color, exact: true })).toBeChecked();
  await expect(page.getByRole('button', { name: 'ADD TO CART' })).toBeEnabled();
});

test('choosing a colour puts it in the address, so a shared link opens that colour', async ({ page }) => {
  const { id, color } = await soldOutCombination(page.request);
  await page.goto(`/product/${id}`);
  await purchaseReady(page);
  const historyLength = await page.evaluate(() => history.length);
  await colourGroup(page).getByRole('radio', { name: color, exact: true }).check({ force: true });
  await expect(page).toHaveURL(new RegExp(`/product/${id}\\?color=${encodeURIComponent(color).replace(/%20/g, '\\+')}$`));
  // Replaced, not pushed: Back still leaves the page.
  expect(await page.evaluate(() => history.length)).toBe(historyLength);
  await page.reload();
  await expect(colourGroup(page).getByRole('radio', { name: color, exact: true })).toBeChecked();
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the colour page marks the sizes sold out in it, still choosable', async ({ page }) => {
    const { id, size, color } = await soldOutCombination(page.request);
    await page.goto(`/product/${id}?color=${encodeURIComponent(color)}`);
    await expect(colourGroup(page).getByRole('radio', { name: color, exact: true })).toBeChecked();
    const soldOut = sizeGroup(page).getByRole('radio', { name: `${size}, sold out in ${color}`, exact: true });
    await expect(soldOut).toBeEnabled();
    await expect(soldOut.locator('+ .option-btn')).toHaveCSS('text-decoration-line', 'line-through');
  });
});

test('tapping the main picture opens the pictures full screen with zoom, loaded only then; swiping moves between them', async ({ page }) => {
  const { id } = await soldOutCombination(page.request);
  const zoomAssets: string[] = [];
  page.on('request', (r) => {
    if (/picture-zoom|swiper/i.test(r.url())) zoomAssets.push(r.url());
  });
  await page.goto(`/product/${id}`);
  await purchaseReady(page);
  expect(zoomAssets, 'the zoom is not loaded before a tap').toEqual([]);
  const thumbs = await page.locator('.gallery-thumbs button').count();
  await page.locator('[data-zoom]').click();
  const zoom = page.getByRole('dialog', { name: 'Pictures, full screen' });
  await expect(zoom).toBeVisible();
  expect(zoomAssets.length).toBeGreaterThan(0);
  await expect(zoom.locator('.swiper-slide-active img')).toBeVisible();
  const box = await zoom.boundingBox();
  expect(box!.width).toBe(360);
  if (thumbs > 1) {
    const first = await zoom.locator('.swiper-slide-active img').getAttribute('src');
    await page.keyboard.press('ArrowRight');
    await expect(zoom.locator('.swiper-slide-active img')).not.toHaveAttribute('src', first!);
  }
  await zoom.getByRole('button', { name: 'Close' }).click();
  await expect(zoom).toBeHidden();
  // The page shows the picture the shopper closed on.
  if (thumbs > 1) await expect(page.locator('.gallery-thumbs button').nth(1)).toHaveAttribute('aria-pressed', 'true');
});

test('React waits until the shopper reaches for the piece; a first tap on a thumbnail before then still shows its picture', async ({ page }) => {
  const id = (await getJson(page.request, '/api/v1/products?limit=1')).data.docs[0].id as number;
  const islandScripts: string[] = [];
  page.on('request', (r) => {
    if (/\/_astro\/(react|client|ProductPurchase)\./.test(r.url())) islandScripts.push(r.url());
  });
  await page.goto(`/product/${id}`);
  await page.waitForLoadState('networkidle');
  // The first screen is the pictures: the purchase form below it, and no island code fetched yet.
  await expect(page.locator('astro-island[component-url*="/ProductPurchase."]')).toHaveAttribute('ssr', '');
  expect(islandScripts).toEqual([]);

  const main = page.locator('img[data-main-image]');
  const second = page.locator('.gallery-thumbs button').nth(1);
  const secondHash = await second.getAttribute('data-hash');
  expect(secondHash).not.toBe(await main.getAttribute('data-hash'));
  await second.click();
  await expect(main).toHaveAttribute('data-hash', secondHash!);
  await expect(second).toHaveAttribute('aria-pressed', 'true');
  expect(islandScripts.length).toBeGreaterThan(0);
});

test('ADD TO CART tapped before React arrives is answered by the island, on the page', async ({ page }) => {
  const id = (await getJson(page.request, '/api/v1/products?limit=1')).data.docs[0].id as number;
  // A slow network: the island's code arrives a second after it is asked for.
  await page.route(/\/_astro\/(react|client|ProductPurchase)\..*\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await route.continue();
  });
  await page.goto(`/product/${id}`);
  await expect(page.locator('astro-island[component-url*="/ProductPurchase."]')).toHaveAttribute('ssr', '');
  // Marks this document: a form posted without the island would load another.
  await page.evaluate(() => document.documentElement.setAttribute('data-before-tap', ''));
  await page.getByRole('button', { name: 'ADD TO CART' }).click();
  await expect(page.getByText('Please create an account or login')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-before-tap', '');
  expect(new URL(page.url()).pathname).toBe(`/product/${id}`);
});

test.describe('the main picture without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('links to its large image', async ({ page }) => {
    const { id } = await soldOutCombination(page.request);
    await page.goto(`/product/${id}`);
    const href = await page.locator('[data-zoom]').getAttribute('href');
    expect(href).toMatch(/^\/media\/[a-f0-9]+\/1600\.webp$/);
    const image = await page.request.get(href!);
    expect(image.status()).toBe(200);
    expect(image.headers()['content-type']).toBe('image/webp');
  });
});
