import { expect, request as apiRequest, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { pdfText } from '../support/pdf-text';
import { getJson, newShopper, SHOPPER_PASSWORD, signIn } from './support';

/**
 * A gift order at 360 px, with and without JavaScript: "This is a gift" opens the recipient's
 * fields, wrapping adds the market's fee, the recipient is texted (the dev outbox) and the back
 * office's packing slip shows the message and no prices.
 */
test.use({ viewport: { width: 360, height: 740 } });
// One after the other: the owner has one step-up code at a time.
test.describe.configure({ mode: 'serial' });
const OWNER = { email: 'owner@maisonluxe.ng', password: 'LuxeOwner2026!' };

/** A shopper with a cart of one in-stock item, added through the API. */
async function shopperWithCart(request: APIRequestContext, baseURL: string, skip: number): Promise<string> {
  const email = await newShopper(request, true, 'gift');
  // A client without the session cookie newShopper's login left: the token alone.
  const fresh = await apiRequest.newContext({ baseURL });
  const token = (await (await fresh.post('/api/v1/user-auth/login', { data: { email, password: SHOPPER_PASSWORD } })).json()).data.token;
  const list = await getJson(request, '/api/v1/products?limit=100');
  let seen = 0;
  for (const p of list.data.docs as { id: number }[]) {
    const detail = (await getJson(request, `/api/v1/products/${p.id}`)).data;
    const v = detail.variants.find((x: { stock: number }) => x.stock >= 3);
    if (!v || seen++ < skip) continue;
    const added = await fresh.post('/api/v1/cart/add-to-cart', { headers: { authorization: `Bearer ${token}` }, data: { productId: p.id, color: v.color, size: v.size, quantity: 1 } });
    expect(added.ok()).toBe(true);
    await fresh.dispose();
    return email;
  }
  throw new Error('no variant in stock');
}

async function fillGift(page: Page, phone: string, text: string) {
  await page.getByLabel('This is a gift').check();
  await page.getByLabel("Recipient's name").fill('Ada Obi');
  await page.getByLabel("Recipient's phone").fill(phone);
  await page.getByLabel('Gift message (optional)').fill(text);
  await page.getByLabel(/Gift wrapping/).check();
  await page.getByLabel(/Hide prices/).check();
}

/** The packing slip as staff print it (the owner signs in with the e-mailed code in a browser of their own). */
async function packingSlip(browser: Browser, baseURL: string, request: APIRequestContext, orderId: string) {
  const context = await browser.newContext({ baseURL, viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  await page.goto(`/admin/orders/${orderId}`);
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((url) => url.pathname === '/login/verify-device');
  const mail = await getJson(request, `/api/v1/dev/outbox?to=${encodeURIComponent(OWNER.email)}`);
  await page.getByLabel('Code').fill(/code is (\d{4})/.exec(mail[0].text)![1]!);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.goto(`/admin/orders/${orderId}`);
  await expect(page.getByTestId('gift-details')).toContainText('Ada Obi');
  await expect(page.getByTestId('delivery-contact')).toContainText('the gift\'s recipient');
  // "Print packing slip" opens the slip's PDF: read it as staff's browser gets it, with their session.
  const href = await page.getByRole('link', { name: 'Print packing slip' }).getAttribute('href');
  expect(href).toBe(`/admin/orders/${orderId}/packing-slip`);
  const answer = await page.request.get(href!);
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toBe('application/pdf');
  const slip = await pdfText(await answer.body());
  return { page, context, slip };
}

/** The buyer's own order page and confirmation mail say it is a gift: for whom, the message, the wrapping, the prices hidden. */
async function buyerSeesGift(page: Page, request: APIRequestContext, email: string, phone: string, text: string) {
  const gift = page.getByTestId('order-gift');
  await expect(gift).toContainText(`A gift for Ada Obi, ${phone}`);
  await expect(page.getByTestId('order-gift-message')).toHaveText(text);
  await expect(gift).toContainText('Gift wrapped · Prices are hidden on the packing slip');
  const confirmationOf = async () =>
    ((await getJson(request, `/api/v1/dev/outbox?to=${encodeURIComponent(email)}`)) as { text: string; html: string }[]).find((m) => m.text.includes('Thank you for your order'));
  await expect.poll(async () => (await confirmationOf()) !== undefined).toBe(true);
  const confirmation = (await confirmationOf())!;
  expect(confirmation.text).toContain(`A gift for Ada Obi, ${phone}\nYour message: “${text}”\nGift wrapped. Prices are hidden on the packing slip.`);
  expect(confirmation.html).toContain(`A gift for Ada Obi, ${phone}`);
}

async function orderIdOf(page: Page): Promise<string> {
  await page.waitForURL(/\/order-details\/[^?]+/);
  return /\/order-details\/([^?/]+)/.exec(page.url())![1]!;
}

test('a gift order without JavaScript: the gift opens, wrapping is charged, the recipient is texted, the slip has no prices', async ({ browser, request, baseURL }) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false, viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  const email = await shopperWithCart(request, baseURL!, 20);
  await signIn(page, email);
  await page.goto('/place-order');
  await expect(page.getByLabel("Recipient's name")).toBeHidden();
  await fillGift(page, '0803 555 0202', 'With love, from Lagos.');
  await expect(page.getByLabel("Recipient's name")).toBeVisible();
  await page.getByRole('button', { name: 'PAY & PLACE ORDER' }).click();
  await expect(page).toHaveURL(/\/pay\/simulated\//);
  // The fee staff set (₦5,000 by default) is in what the provider charges.
  await page.getByRole('button', { name: /^Pay / }).click();
  const orderId = await orderIdOf(page);
  await buyerSeesGift(page, request, email, '+2348035550202', 'With love, from Lagos.');

  const texts = await getJson(request, `/api/v1/dev/outbox?to=${encodeURIComponent('+2348035550202')}`);
  expect(texts.map((t: { text: string }) => t.text).join(' ')).toMatch(/has sent you a gift/);

  const { slip, context: staff } = await packingSlip(browser, baseURL!, request, orderId);
  expect(slip).toContain('With love, from Lagos.');
  expect(slip).not.toContain('₦');
  await staff.close();
  await context.close();
});

test('a gift order with JavaScript: the wrapping line joins the total, the message is counted, the recipient is texted', async ({ page, request, browser, baseURL }) => {
  const email = await shopperWithCart(request, baseURL!, 24);
  await signIn(page, email);
  await page.goto('/place-order');
  await expect(page.locator('.po[data-hydrated], .po')).toBeVisible();
  const before = await page.getByTestId('order-total').textContent();
  await fillGift(page, '0803 555 0303', 'Happy birthday');
  await expect(page.getByText('14 of 250 characters')).toBeVisible();
  await expect(page.getByTestId('gift-wrap')).toBeVisible();
  await expect(page.getByTestId('order-total')).not.toHaveText(before!);
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.setViewportSize({ width: 360, height: 740 });
  await page.getByRole('button', { name: 'PAY & PLACE ORDER' }).click();
  await expect(page).toHaveURL(/\/pay\/simulated\//);
  await page.getByRole('button', { name: /^Pay / }).click();
  const orderId = await orderIdOf(page);
  await buyerSeesGift(page, request, email, '+2348035550303', 'Happy birthday');
  const texts = await getJson(request, `/api/v1/dev/outbox?to=${encodeURIComponent('+2348035550303')}`);
  expect(texts.map((t: { text: string }) => t.text).join(' ')).toMatch(/has sent you a gift/);

  const { slip, context } = await packingSlip(browser, baseURL!, request, orderId);
  expect(slip).toContain('Happy birthday');
  expect(slip).not.toContain('₦');
  await context.close();
});
