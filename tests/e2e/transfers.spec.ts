import { expect, test, type APIRequestContext } from '@playwright/test';
import { getJson, newShopper, SHOPPER_PASSWORD, signIn } from './support';

/**
 * A bank transfer confirmed late, at 360 px, with and without JavaScript. The shopper
 * chooses "Bank transfer" on the simulated payment page, sees the account number and the exact
 * amount, presses "I have sent the money", and comes back to "Waiting for your transfer" (no error,
 * the cart kept). The simulated provider confirms the transfer a few seconds later, as Paystack's
 * webhook would: only then does the order appear in the order history, and its mail in the outbox.
 */
test.use({ viewport: { width: 360, height: 740 } });
/** Puts one unit of an in-stock unsized product in the shopper's cart, through the API. */
async function fillCart(request: APIRequestContext, email: string, skip: number): Promise<{ token: string; id: string }> {
  const res = await (await request.post('/api/v1/user-auth/login', { data: { email, password: SHOPPER_PASSWORD } })).json();
  if (!res.data) throw new Error(JSON.stringify(res));
  const { token, user } = res.data;
  const list = await getJson(request, '/api/v1/products?limit=100');
  let seen = 0;
  for (const p of list.data.docs as { id: number; sizeNames: string[] }[]) {
    if (p.sizeNames.length > 0) continue;
    const detail = (await getJson(request, `/api/v1/products/${p.id}`)).data;
    const v = detail.variants.find((x: { stock: number }) => x.stock >= 3);
    if (!v || seen++ < skip) continue;
    const added = await request.post('/api/v1/cart/add-to-cart', {
      headers: { authorization: `Bearer ${token}` },
      data: { productId: p.id, color: v.color, size: null, quantity: 1 },
    });
    expect(added.status()).toBe(200);
    return { token, id: user.id };
  }
  throw new Error('no unsized product in stock');
}

async function cartCount(request: APIRequestContext, { token, id }: { token: string; id: string }): Promise<number> {
  const cart = await (await request.get(`/api/v1/cart/${id}`, { headers: { authorization: `Bearer ${token}` } })).json();
  return cart.data.items.length;
}

for (const js of [true, false]) {
  test.describe(js ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled: js });

    test('pay by bank transfer: waiting for the transfer, then the order and its mail once the bank confirms', async ({ page, request: browserless, playwright }, info) => {
      const email = await newShopper(browserless, true);
      // A context without the sign-up's session cookie: the API calls below go by bearer token alone.
      const request = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
      const shopper = await fillCart(request, email, js ? 6 : 7);
      await signIn(page, email);
      await page.goto('/place-order');
      await page.getByRole('button', { name: 'PAY & PLACE ORDER' }).click();
      await expect(page).toHaveURL(/\/pay\/simulated\//);
      const amount = (await page.getByLabel('Amount').innerText()).replace(/\s*NGN$/, '').trim();

      // The market's channels are offered; Bank transfer shows where to send exactly how much.
      const channels = page.getByRole('navigation', { name: 'Pay with' });
      for (const name of ['Card', 'Bank transfer', 'USSD', 'Bank']) await expect(channels.getByRole('link', { name, exact: true })).toBeVisible();
      await channels.getByRole('link', { name: 'Bank transfer' }).click();
      const transfer = page.getByRole('form', { name: 'Bank transfer' });
      await expect(transfer.locator('[data-account-number]')).toHaveText(/^\d{10}$/);
      await expect(transfer.locator('[data-transfer-amount]')).toHaveText(amount);
      await transfer.getByRole('button', { name: 'I have sent the money' }).click();

      // Back at the store: waiting, not an error; the cart is kept.
      await expect(page).toHaveURL(/\/place-order/);
      await expect(page.getByRole('heading', { name: 'Waiting for your transfer' })).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: 'Waiting for your transfer' })).toContainText(amount);
      await expect(page.getByRole('status').filter({ hasText: 'Waiting for your transfer' })).toContainText('once the bank confirms');
      await expect(page.getByRole('alert')).toHaveCount(0);
      await expect(page.getByText(/Error placing order/)).toHaveCount(0);
      expect(await cartCount(request, shopper)).toBe(1);

      // A reload of checkout while the transfer is on its way shows that payment, never an empty checkout.
      await page.goto('/place-order');
      await expect(page.getByRole('heading', { name: 'Waiting for your transfer' })).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: 'Waiting for your transfer' })).toContainText(amount);
      await expect(page.getByRole('button', { name: 'Check again' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'PAY & PLACE ORDER' })).toHaveCount(0);
      if (!js) {
        // Without scripts, "Check again" is a plain request of the same view.
        await page.getByRole('button', { name: 'Check again' }).click();
        await expect(page).toHaveURL(/\/place-order\?waiting=|\/order-details\//);
      }

      // The confirmation arrives a little later: the waiting page moves on to the order's thank-you page
      // by itself (asking every few seconds with scripts, refreshing without), and the order is mailed.
      await expect(page).toHaveURL(/\/order-details\/[^/?]+\?placed=1/, { timeout: 30_000 });
      await expect(page.getByRole('heading', { name: 'Thank you' })).toBeVisible();
      await page.goto('/order-history');
      await expect(async () => {
        await page.reload();
        await expect(page.locator('.order-card')).toHaveCount(1, { timeout: 1_000 });
      }).toPass({ timeout: 30_000 });
      const outbox = await getJson(request, `/api/v1/dev/outbox?to=${encodeURIComponent(email)}`);
      expect(outbox.filter((m: { subject: string }) => m.subject.startsWith('Your Maison Luxe order'))).toHaveLength(1);
      expect(await cartCount(request, shopper)).toBe(0);
    });
  });
}
