import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { getJson, SHOPPER_PASSWORD, signIn } from './support';

/**
 * "Verify your phone" on /place-order, at 360 px, with and without scripts: a
 * shopper registered with a Nigerian mobile number opens checkout with pay on delivery chosen,
 * presses "Send code", reads the code from the dev outbox by the E.164 number, types it in "Code"
 * and presses "Verify".
 */
test.use({ viewport: { width: 360, height: 740 } });
/** A shopper (e-mail verified) with a Nigerian mobile number of their own and one item in the cart; returns the e-mail and E.164 number. */
async function shopperWithItem(request: APIRequestContext): Promise<{ email: string; phone: string }> {
  const rest = String(Math.floor(Math.random() * 100_000_000)).padStart(8, '0');
  const phone = `+23470${rest}`;
  const email = `e2e.phone.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@example.com`;
  const created = await request.post('/api/v1/user-auth/create', {
    data: { firstName: 'Kemi', lastName: 'Bello', email, password: SHOPPER_PASSWORD, phoneNumber: `070 ${rest.slice(0, 4)} ${rest.slice(4)}`, country: 'nigeria' },
  });
  expect(created.status()).toBe(201);
  expect((await created.json()).data.user.phoneNumber).toBe(phone);
  const mail = await getJson(request, `/api/v1/dev/outbox?to=${encodeURIComponent(email)}`);
  const otp = /code is (\d{4})/.exec(mail[0].text)![1];
  expect((await request.post('/api/v1/user-auth/verify-otp', { data: { email, otp } })).ok()).toBe(true);
  const token = (await (await request.post('/api/v1/user-auth/login', { data: { email, password: SHOPPER_PASSWORD } })).json()).data.token;
  const list = await getJson(request, '/api/v1/products?limit=100');
  for (const p of list.data.docs as { id: number }[]) {
    const v = (await getJson(request, `/api/v1/products/${p.id}`)).data.variants.find((x: { stock: number }) => x.stock >= 5);
    if (!v) continue;
    const added = await request.post('/api/v1/cart/add-to-cart', {
      headers: { authorization: `Bearer ${token}` },
      data: { productId: p.id, color: v.color, size: v.size, quantity: 1 },
    });
    expect(added.ok(), await added.text()).toBe(true);
    return { email, phone };
  }
  throw new Error('no variant in stock');
}

/** The newest code texted to the number (dev outbox). */
async function textedCode(request: APIRequestContext, phone: string): Promise<string> {
  let text = '';
  await expect
    .poll(async () => {
      const texts = await getJson(request, `/api/v1/dev/outbox?to=${encodeURIComponent(phone)}`);
      text = texts[0]?.text ?? '';
      return text;
    })
    .toMatch(/^Maison Luxe: your code is \d{4}\. It expires in 10 minutes\.$/);
  return /code is (\d{4})/.exec(text)![1]!;
}

async function fitsTheScreen(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
}

async function verifyOnCheckout(page: Page, request: APIRequestContext) {
  const { email, phone } = await shopperWithItem(request);
  await signIn(page, email);

  // Paying online (no choice made): the section stays out of the way.
  await page.goto('/place-order');
  await expect(page.getByRole('heading', { name: 'Verify your phone' })).toBeHidden();

  await page.goto('/place-order?payment=on_delivery');
  const section = page.locator('#verify-phone');
  await expect(section.getByRole('heading', { name: 'Verify your phone' })).toBeVisible();
  await expect(section).toContainText(phone);
  await fitsTheScreen(page);
  // Above the pay button: the phone is verified before the first tap on it.
  const box = (await section.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual((await page.getByRole('button', { name: 'PAY & PLACE ORDER' }).boundingBox())!.y);
  await section.getByRole('button', { name: 'Send code' }).click();

  // Back at the code field (its anchor), which has the focus.
  await expect(page).toHaveURL(/\/place-order\?payment=on_delivery&notice=phone-code-sent[^#]*#verify-phone-code$/);
  await expect(section.getByLabel('Code', { exact: true })).toBeFocused();
  await expect(page.getByRole('status').filter({ hasText: `We sent a code to ${phone}.` })).toBeVisible();
  const code = await textedCode(request, phone);

  // A wrong code first: the e-mail code's words, and the phone is still to verify.
  const wrong = String((Number(code) + 1) % 10_000).padStart(4, '0');
  await page.locator('#verify-phone').getByLabel('Code', { exact: true }).fill(wrong);
  await page.locator('#verify-phone').getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid OTP. Please check the code and try again. 4 tries left.' })).toBeVisible();

  const field = page.locator('#verify-phone').getByLabel('Code', { exact: true });
  await expect(field).toHaveAttribute('inputmode', 'numeric');
  await field.fill(code);
  await page.locator('#verify-phone').getByRole('button', { name: 'Verify', exact: true }).click();

  // Back where the step stood: at PAY & PLACE ORDER, not at the top of checkout.
  await expect(page).toHaveURL(/\/place-order\?payment=on_delivery&notice=phone-verified#place-order-pay$/);
  await expect(page.getByRole('status').filter({ hasText: 'Your phone is verified.' })).toBeVisible();
  await expect(page.getByRole('button', { name: /PLACE ORDER$/ })).toBeInViewport();
  await expect(page.getByRole('heading', { name: 'Verify your phone' })).toHaveCount(0);
  await fitsTheScreen(page);
}

test('a shopper verifies their phone on checkout with the texted code (with scripts)', async ({ page, request }) => {
  await verifyOnCheckout(page, request);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a shopper verifies their phone on checkout with the texted code', async ({ page, request }) => {
    await verifyOnCheckout(page, request);
  });
});
