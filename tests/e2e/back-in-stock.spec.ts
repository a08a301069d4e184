import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { getJson, newShopper, purchaseReady, signIn } from './support';

/**
 * "Email me when it is back" on the product page at 360 px, signed in with JavaScript and signed
 * out without it: the e-mail is taken, a confirm link is mailed (the newsletter's double opt-in),
 * and following it confirms the request. A bag's page states its size in cm under "Size & fit".
 * (The restock's one mail is tested in tests/service/back-in-stock.test.ts.)
 */
test.use({ viewport: { width: 360, height: 740 } });
type Variant = { id: number; size: string | null; color: string | null; stock: number };

/** Sold-out variants (of products with something else in stock), `skip` of them passed over. */
async function soldOutVariant(request: APIRequestContext, skip: number) {
  const list = await getJson(request, '/api/v1/products?limit=100');
  let seen = 0;
  for (const p of list.data.docs as { id: number }[]) {
    const variants = (await getJson(request, `/api/v1/products/${p.id}`)).data.variants as Variant[];
    const gone = variants.find((v) => v.stock === 0);
    if (!gone || !variants.some((v) => v.stock > 0)) continue;
    if (seen++ < skip) continue;
    return { productId: p.id, ...gone, name: [gone.size, gone.color].filter(Boolean).join(' in ') };
  }
  throw new Error('no sold-out variant');
}

async function confirmLink(request: APIRequestContext, email: string): Promise<string> {
  await expect.poll(async () => (await getJson(request, `/api/v1/dev/outbox?to=${encodeURIComponent(email)}`)).length).toBeGreaterThan(0);
  const [mail] = await getJson(request, `/api/v1/dev/outbox?to=${encodeURIComponent(email)}`);
  expect(mail.subject).toMatch(/^Confirm: e-mail me when .+ is back$/);
  const url = new URL(/https?:\/\/\S+\/back-in-stock\/confirm\?token=\S+/.exec(mail.text)![0]);
  return url.pathname + url.search;
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}

test('signed in, with JavaScript: the sold-out choice opens the form with the account e-mail', async ({ page }) => {
  const email = await newShopper(page.request, false, 'bis');
  await signIn(page, email);
  const v = await soldOutVariant(page.request, 0);
  const query = new URLSearchParams({ ...(v.color ? { color: v.color } : {}), ...(v.size ? { size: v.size } : {}) });
  await page.goto(`/product/${v.productId}?${query}`);
  await purchaseReady(page);

  const form = page.locator('details.back-in-stock');
  await expect(form).toHaveAttribute('open', '');
  await expect(page.getByRole('button', { name: 'ADD TO CART' })).toBeDisabled();
  await expect(form.getByLabel('Which one')).toHaveValue(String(v.id));
  await expect(form.getByLabel('Email')).toHaveValue(email);
  await form.scrollIntoViewIfNeeded();
  await noSidewaysScroll(page);
  await form.getByRole('button', { name: 'EMAIL ME WHEN IT IS BACK' }).click();
  await expect(page.getByText('Almost done: we e-mailed you a link to confirm.')).toBeVisible();

  await page.goto(await confirmLink(page.request, email));
  await expect(page.getByRole('heading', { name: 'Request confirmed' })).toBeVisible();
  await expect(page.getByText('Confirmed: we will e-mail you once when it is back in stock.')).toBeVisible();
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('signed out: the sold-out list takes an e-mail, and the mailed link confirms', async ({ page }) => {
    const v = await soldOutVariant(page.request, 1);
    const email = `bis.nojs.${Date.now().toString(36)}@example.com`;
    await page.goto(`/product/${v.productId}`);
    const form = page.locator('details.back-in-stock');
    await form.locator('summary').click();
    await form.getByLabel('Which one').selectOption(String(v.id));
    await form.getByLabel('Email').fill(email);
    await form.getByRole('button', { name: 'EMAIL ME WHEN IT IS BACK' }).click();
    await expect(page).toHaveURL(new RegExp(`/product/${v.productId}\\?notice=`));
    await expect(page.getByText('Almost done: we e-mailed you a link to confirm.')).toBeVisible();
    await noSidewaysScroll(page);

    await page.goto(await confirmLink(page.request, email));
    await expect(page.getByRole('heading', { name: 'Request confirmed' })).toBeVisible();
  });

  test('an address that is not one is refused on the page', async ({ page }) => {
    const v = await soldOutVariant(page.request, 2);
    await page.goto(`/product/${v.productId}`);
    const form = page.locator('details.back-in-stock');
    await form.locator('summary').click();
    // The browser's own check aside (a plain post as an old browser would send it).
    await form.getByLabel('Email').evaluate((el: HTMLInputElement) => (el.type = 'text'));
    await form.getByLabel('Email').fill('not-an-address');
    await form.getByRole('button', { name: 'EMAIL ME WHEN IT IS BACK' }).click();
    await expect(page).toHaveURL(/\?error=/);
    await expect(page.getByText('Please enter a valid email')).toBeVisible();
  });
});

test('a bag states its size in cm under "Size & fit"', async ({ page }) => {
  const list = await getJson(page.request, '/api/v1/products?limit=100&q=Tote');
  const id = (list.data.docs as { id: number }[])[0]!.id;
  const detail = (await getJson(page.request, `/api/v1/products/${id}`)).data;
  expect(detail.dimensionsCm).toMatch(/^\d+(\.\d)? × \d+(\.\d)? × \d+(\.\d)?$/);
  await page.goto(`/product/${id}`);
  const [w, h, d] = (detail.dimensionsCm as string).split(' × ');
  await expect(page.getByRole('heading', { name: 'Size & fit' })).toBeVisible();
  await expect(page.locator('[data-dimensions]')).toHaveText(`Width ${w} cm × height ${h} cm × depth ${d} cm`);
  await page.locator('.size-fit').scrollIntoViewIfNeeded();
});

test.describe('at 1366 px', () => {
  test.use({ viewport: { width: 1366, height: 900 } });

  test('the sold-out choice opens the form under ADD TO CART, and a bag states its size', async ({ page }) => {
    const v = await soldOutVariant(page.request, 3);
    const query = new URLSearchParams({ ...(v.color ? { color: v.color } : {}), ...(v.size ? { size: v.size } : {}) });
    await page.goto(`/product/${v.productId}?${query}`);
    await purchaseReady(page);
    const form = page.locator('details.back-in-stock');
    await expect(form).toHaveAttribute('open', '');
    const button = (await page.getByRole('button', { name: 'ADD TO CART' }).boundingBox())!;
    expect((await form.boundingBox())!.y).toBeGreaterThan(button.y);
    await form.scrollIntoViewIfNeeded();
    const tote = (await getJson(page.request, '/api/v1/products?limit=1&q=Tote')).data.docs[0].id as number;
    await page.goto(`/product/${tote}`);
    await expect(page.getByRole('heading', { name: 'Size & fit' })).toBeVisible();
  });
});
