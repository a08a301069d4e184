import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { getJson, hydrated, newShopper, SHOPPER_PASSWORD } from './support';

/** "Order updates" by text, WhatsApp or neither, on /settings and at checkout, with and without scripts. */

const PHONE = '+2348031234567';
const WHATSAPP_ON = 'We will send your order updates on WhatsApp from Maison Luxe. Reply STOP there to end them.';
const OFF = 'We will no longer text you about your orders.';

async function signIn(page: Page, email: string, scripts: boolean) {
  await page.goto('/login?next=%2Fsettings');
  if (scripts) await hydrated(page, page.getByRole('button', { name: 'Login' }));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(SHOPPER_PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/settings(\?notice=logged-in)?$/);
}

async function fitsTheScreen(page: Page) {
  const width = page.viewportSize()!.width;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

/** One unit of an in-stock product in the shopper's cart (through the API, as their session). */
async function cartOneItem(request: APIRequestContext, email: string, signedIn?: string): Promise<string> {
  const token = signedIn ?? ((await (await request.post('/api/v1/user-auth/login', { data: { email, password: SHOPPER_PASSWORD } })).json()).data.token as string);
  const list = await getJson(request, '/api/v1/products?limit=50');
  for (const p of list.data.docs as { id: number }[]) {
    const detail = (await getJson(request, `/api/v1/products/${p.id}`)).data;
    const v = (detail.variants as { color: string | null; size: string | null; stock: number }[]).find((x) => x.stock >= 3);
    if (!v) continue;
    const added = await request.post('/api/v1/cart/add-to-cart', { headers: { authorization: `Bearer ${token}` }, data: { productId: p.id, color: v.color, size: v.size, quantity: 1 } });
    expect(added.ok(), await added.text()).toBe(true);
    return token;
  }
  throw new Error('no product in stock');
}

/** Places the order in the cart (Pickup, paid on the simulated page) and answers its tracking number. */
async function placeOrder(page: Page, request: APIRequestContext, token: string, onCheckout?: () => Promise<void>): Promise<string> {
  await page.goto('/place-order');
  await onCheckout?.();
  await page.getByRole('button', { name: 'PAY & PLACE ORDER' }).click();
  await expect(page).toHaveURL(/\/pay\/simulated\//);
  await page.getByRole('button', { name: /^Pay / }).click();
  await page.waitForURL(/\/order-details\/[^?]+\?placed=1/);
  const id = /\/order-details\/([^?]+)/.exec(page.url())![1]!;
  const order = await (await request.get(`/api/v1/orders/get-orders?id=${id}`, { headers: { authorization: `Bearer ${token}` } })).json();
  return order.data.data.trackingNumber as string;
}

/** The WhatsApp message the dev outbox kept for an order's confirmation. */
async function whatsappFor(request: APIRequestContext, trackingNumber: string) {
  const outbox = (await getJson(request, `/api/v1/dev/outbox?to=${encodeURIComponent(PHONE)}`)) as { channel?: string; template?: string; params?: string[]; text: string }[];
  return outbox.filter((m) => m.channel === 'whatsapp' && m.params?.[0] === trackingNumber);
}

test('a shopper chooses WhatsApp on /settings, places an order and the confirmation is a WhatsApp message (with scripts)', async ({ page, request }) => {
  const email = await newShopper(request, false);
  await signIn(page, email, true);
  const save = page.getByRole('button', { name: 'Save Order Updates' });
  await hydrated(page, save);
  const whatsapp = page.getByRole('radio', { name: 'WhatsApp' });
  await expect(page.getByRole('radio', { name: 'Neither' })).toBeChecked();
  await expect(page.getByText('I agree that Maison Luxe may send me order updates on WhatsApp')).toBeVisible();
  await fitsTheScreen(page);
  await whatsapp.check();
  await save.click();
  await expect(page.getByText(WHATSAPP_ON, { exact: true }).first()).toBeVisible();
  await expect(page).toHaveURL(/\/settings$/);
  await page.reload();
  await expect(whatsapp).toBeChecked();
  const phone = page.viewportSize()!;
  await page.setViewportSize({ width: 1366, height: 900 });
  await fitsTheScreen(page);
  await page.setViewportSize(phone);

  const token = await cartOneItem(request, email);
  // Checkout shows the same choice, already WhatsApp.
  const tracking = await placeOrder(page, request, token, async () => {
    await hydrated(page, page.getByRole('button', { name: 'PAY & PLACE ORDER' }));
    await expect(page.getByRole('group', { name: 'Order updates' }).getByRole('radio', { name: 'WhatsApp' })).toBeChecked();
    await fitsTheScreen(page);
  });
  const messages = await whatsappFor(request, tracking);
  expect(messages).toEqual([expect.objectContaining({ template: 'order_confirmed', text: `Maison Luxe: your order ${tracking} has been placed.` })]);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the choice saves on /settings and at checkout, and the order confirmation follows it', async ({ page, request }) => {
    const email = await newShopper(request, false);
    await signIn(page, email, false);
    await fitsTheScreen(page);
    await page.getByRole('radio', { name: 'WhatsApp' }).check();
    await page.getByRole('button', { name: 'Save Order Updates' }).click();
    await expect(page).toHaveURL(/\/settings\?notice=whatsapp-updates-on$/);
    await expect(page.getByRole('status').filter({ hasText: WHATSAPP_ON })).toBeVisible();
    await expect(page.getByRole('radio', { name: 'WhatsApp' })).toBeChecked();

    const token = await cartOneItem(request, email);
    const first = await placeOrder(page, request, token);
    expect(await whatsappFor(request, first)).toHaveLength(1);

    // At checkout: "Neither" goes with the order, and no message follows.
    await cartOneItem(request, email, token);
    const second = await placeOrder(page, request, token, () => page.getByRole('group', { name: 'Order updates' }).getByRole('radio', { name: 'Neither' }).check());
    expect(await whatsappFor(request, second)).toEqual([]);
    await page.goto('/settings');
    await expect(page.getByRole('radio', { name: 'Neither' })).toBeChecked();
    await page.getByRole('button', { name: 'Save Order Updates' }).click();
    await expect(page.getByRole('status').filter({ hasText: OFF })).toBeVisible();
  });
});
