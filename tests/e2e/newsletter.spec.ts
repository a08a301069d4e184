import { expect, request as apiRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { formatMoney } from '@/lib/domain/money';
import { getJson, newShopper, SHOPPER_PASSWORD, signIn } from './support';

/**
 * The newsletter's 20% off, as an outside tester tries it at 360 px, with and without JavaScript:
 * subscribe on the home page -> follow the confirmation link from the dev outbox -> read the code
 * from the welcome mail -> register with that e-mail -> apply the code in the cart -> pay on the
 * simulated page 80% of the subtotal plus delivery -> the order shows the discount. The code then
 * works for nobody else, and not a second time.
 */
test.use({ viewport: { width: 360, height: 740 } });
const uniqueEmail = (tag: string) => `${tag}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@example.com`;

async function mails(request: APIRequestContext, to: string): Promise<{ subject: string; text: string }[]> {
  return getJson(request, `/api/v1/dev/outbox?to=${encodeURIComponent(to)}`);
}

/** The newest mail to `to` whose text matches, waiting for it a little. */
async function mailMatching(request: APIRequestContext, to: string, re: RegExp): Promise<RegExpExecArray> {
  let found: RegExpExecArray | null = null;
  await expect
    .poll(async () => {
      for (const m of await mails(request, to)) if ((found = re.exec(m.text))) return true;
      return false;
    })
    .toBe(true);
  return found!;
}

/**
 * Registers (code from the dev outbox), verifies and adds a default Lagos address; returns the API
 * session. A client of its own: the sign-in's cookie must not ride along on the next sign-up.
 */
async function register(baseURL: string, email: string): Promise<{ token: string; id: string }> {
  const request = await apiRequest.newContext({ baseURL });
  try {
    return await registerWith(request, email);
  } finally {
    await request.dispose();
  }
}

async function registerWith(request: APIRequestContext, email: string): Promise<{ token: string; id: string }> {
  const created = await request.post('/api/v1/user-auth/create', {
    data: { firstName: 'Kemi', lastName: 'Bello', email, password: SHOPPER_PASSWORD, phoneNumber: '+2348031234567', country: 'nigeria' },
  });
  expect(created.status()).toBe(201);
  const otp = (await mailMatching(request, email, /code is (\d{4})/))[1]!;
  expect((await request.post('/api/v1/user-auth/verify-otp', { data: { email, otp } })).ok()).toBe(true);
  const login = await request.post('/api/v1/user-auth/login', { data: { email, password: SHOPPER_PASSWORD } });
  const { token, user } = (await login.json()).data;
  const address = await request.post('/api/v1/address/create', {
    headers: { authorization: `Bearer ${token}` },
    data: { name: 'Kemi Bello', country: 'nigeria', state: 'Lagos', city: 'Lekki', address: '5 Admiralty Way', zipCode: '105102', active: true },
  });
  expect(address.status()).toBe(201);
  return { token, id: user.id };
}

/** Puts an in-stock variant (the n-th found) in the shopper's cart through the API. */
async function fillCart(request: APIRequestContext, session: { token: string; id: string }, skip: number) {
  const list = await getJson(request, '/api/v1/products?limit=100');
  let seen = 0;
  for (const p of list.data.docs as { id: number }[]) {
    const detail = (await getJson(request, `/api/v1/products/${p.id}`)).data;
    const v = detail.variants.find((x: { stock: number }) => x.stock >= 4);
    if (!v || seen++ < skip) continue;
    const added = await request.post('/api/v1/cart/add-to-cart', {
      headers: { authorization: `Bearer ${session.token}` },
      data: { productId: p.id, size: v.size ?? undefined, color: v.color ?? undefined, quantity: 2, userId: session.id },
    });
    expect(added.ok()).toBe(true);
    return;
  }
  throw new Error('no variant in stock');
}

async function cartOf(request: APIRequestContext, session: { token: string; id: string }) {
  const res = await request.get(`/api/v1/cart/${session.id}`, { headers: { authorization: `Bearer ${session.token}` } });
  return (await res.json()).data as { subtotal: number; discount: number; discountCode: string | null; deliveryFee: number; total: number; currency: 'NGN' };
}

const minor = (major: number) => Math.round(major * 100);
/** What the page says: a toast with scripts, the inline notice without. */
const said = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

for (const js of [true, false]) {
  test.describe(js ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled: js });

    test('subscribe -> confirm from the mail -> welcome code -> register -> 20% off the subtotal in the cart -> pay -> the order shows it; nobody else can use it', async ({ page, request, baseURL }) => {
      const email = uniqueEmail(js ? 'news-js' : 'news-nojs');

      // 1. The home page's box.
      await page.goto('/');
      const box = page.locator('#newsletter');
      await box.scrollIntoViewIfNeeded();
      if (js) await expect(box.locator('form')).toHaveAttribute('data-enhanced', '', { timeout: 15_000 });
      await box.getByLabel('Email address').fill(email);
      await box.getByRole('button', { name: 'SUBSCRIBE' }).click();
      await expect(said(page, 'Thank you for subscribing. Our e-mail has the next step.')).toBeVisible();
      // 2. The confirmation link from the dev outbox, followed in the browser (no login).
      const link = (await mailMatching(request, email, /(https?:\/\/\S+\/newsletter\/confirm\?token=[\w.-]+)/))[1]!;
      await page.goto(link);
      await expect(page.getByRole('heading', { level: 1, name: 'Subscription confirmed' })).toBeVisible();
      await expect(page.getByText('Your subscription is confirmed. Your 20% off code is on its way to your inbox.')).toBeVisible();
      // 3. The code from the welcome mail.
      const code = (await mailMatching(request, email, /\b(WELCOME-[A-Z0-9]{8})\b/))[1]!;
      const welcome = (await mails(request, email)).find((m) => m.text.includes(code))!;
      expect(welcome.text).toContain('20% off your order subtotal (not delivery), for one order, valid 30 days');
      // Following the link again issues nothing more.
      await page.goto(link);
      await expect(page.getByRole('heading', { level: 1, name: 'Subscription confirmed' })).toBeVisible();
      expect((await mails(request, email)).filter((m) => /WELCOME-/.test(m.text))).toHaveLength(1);

      // 4. Register with that e-mail, fill the cart, apply the code in the cart.
      const session = await register(baseURL!, email);
      await fillCart(request, session, js ? 2 : 3);
      await signIn(page, email);
      await page.goto('/cart');
      if (js) await expect(page.locator('astro-island[component-url*="/CartView."]')).not.toHaveAttribute('ssr', /.*/, { timeout: 15_000 });
      await page.getByLabel('Discount code').fill(code.toLowerCase());
      await page.getByRole('button', { name: 'Apply', exact: true }).click();
      await expect(said(page, 'Discount applied!')).toBeVisible();
      await expect(page.locator('.buy-discount-line')).toContainText(code);
      const cart = await cartOf(request, session);
      expect(cart.discountCode).toBe(code);
      // 20% of the subtotal, rounded down to the kobo; delivery is not discounted.
      expect(minor(cart.discount)).toBe(Math.floor((minor(cart.subtotal) * 20) / 100));
      expect(minor(cart.total)).toBe(minor(cart.subtotal) - minor(cart.discount) + minor(cart.deliveryFee));
      expect(cart.deliveryFee).toBeGreaterThan(0);
      await expect(page.getByTestId('discount')).toHaveText(`-${formatMoney(cart.discount, 'NGN')}`);
      // 5. Pay on the simulated page: the charged amount is the discounted total.
      await page.getByRole('link', { name: 'PROCEED TO CHECKOUT' }).click();
      await expect(page).toHaveURL(/\/place-order/);
      await expect(page.getByRole('radio', { name: 'Delivery', exact: true })).toBeChecked();
      await page.getByRole('button', { name: 'PAY & PLACE ORDER' }).click();
      await expect(page).toHaveURL(/\/pay\/simulated\//);
      await expect(page.getByLabel('Amount')).toContainText(formatMoney(cart.total, 'NGN'));
      await page.getByRole('button', { name: `Pay ${formatMoney(cart.total, 'NGN')}` }).click();
      await expect(said(page, 'Order placed successfully!')).toBeVisible();

      // 6. The order shows the code and the discount.
      await page.goto('/order-history');
      await page.getByRole('link', { name: /DETAILS/ }).first().click();
      await expect(page).toHaveURL(/\/order-details\//);
      await expect(page.getByTestId('order-discount')).toHaveText(`-${formatMoney(cart.discount, 'NGN')}`);
      await expect(page.locator('.buy-discount-line')).toContainText(code);
      // 7. Not a second time, and not from another account.
      await fillCart(request, session, js ? 2 : 3);
      await page.goto('/cart');
      if (js) await expect(page.locator('astro-island[component-url*="/CartView."]')).not.toHaveAttribute('ssr', /.*/, { timeout: 15_000 });
      await page.getByLabel('Discount code').fill(code);
      await page.getByRole('button', { name: 'Apply', exact: true }).click();
      await expect(said(page, 'This code has already been used.')).toBeVisible();

      const other = uniqueEmail(js ? 'other-js' : 'other-nojs');
      const otherSession = await register(baseURL!, other);
      await fillCart(request, otherSession, js ? 4 : 5);
      await page.context().clearCookies();
      await signIn(page, other);
      await page.goto('/cart');
      if (js) await expect(page.locator('astro-island[component-url*="/CartView."]')).not.toHaveAttribute('ssr', /.*/, { timeout: 15_000 });
      await page.getByLabel('Discount code').fill(code);
      await page.getByRole('button', { name: 'Apply', exact: true }).click();
      await expect(said(page, 'This code is not valid.')).toBeVisible();
      expect((await cartOf(request, otherSession)).discount).toBe(0);
    });

    test('the Newsletter choice on /settings: tick and save (double opt-in: a confirm mail), untick and save', async ({ page, request }) => {
      const email = await newShopper(request, false);
      await signIn(page, email);
      await page.goto('/settings');
      const choice = page.getByRole('checkbox', { name: 'Newsletter' });
      await expect(choice).not.toBeChecked();
      await expect(page.getByText(/You are not subscribed\./)).toBeVisible();
      const save = page.getByRole('button', { name: 'Save Newsletter Choice' });
      await save.scrollIntoViewIfNeeded();
      if (js) await expect(page.locator('astro-island[component-url*="/NewsletterPreference."]')).not.toHaveAttribute('ssr', /.*/, { timeout: 15_000 });
      await choice.check();
      await save.click();
      await expect(said(page, 'Almost done: we e-mailed you a link to confirm your subscription.')).toBeVisible();
      await expect(page.getByText(/Waiting for your confirmation/)).toBeVisible();
      const link = (await mailMatching(request, email, /(https?:\/\/\S+\/newsletter\/confirm\?token=[\w.-]+)/))[1]!;
      await page.goto(link);
      await expect(page.getByRole('heading', { level: 1, name: 'Subscription confirmed' })).toBeVisible();
      await mailMatching(request, email, /\b(WELCOME-[A-Z0-9]{8})\b/);

      await page.goto('/settings');
      await expect(choice).toBeChecked();
      await expect(page.getByText(/You are subscribed\./)).toBeVisible();
      await save.scrollIntoViewIfNeeded();
      if (js) await expect(page.locator('astro-island[component-url*="/NewsletterPreference."]')).not.toHaveAttribute('ssr', /.*/, { timeout: 15_000 });
      await choice.uncheck();
      await save.click();
      await expect(said(page, 'You have been unsubscribed from our newsletter.')).toBeVisible();
      await expect(page.getByText(/You are not subscribed\./)).toBeVisible();
      await expect(choice).not.toBeChecked();
    });
  });
}

test('a tampered confirmation link shows a clear page, not an error', async ({ page }) => {
  const res = await page.goto('/newsletter/confirm?token=bm9ib2R5QGV4YW1wbGUuY29t.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
  expect(res?.status()).toBe(400);
  await expect(page.getByRole('heading', { level: 1, name: 'This link is not valid' })).toBeVisible();
  await expect(page.getByText('This link is not valid. Please subscribe again from the home page.')).toBeVisible();
});

test('an address typed before the box has loaded its script is the one sent', async ({ page }) => {
  // The box's script is held back until the shopper has typed, as on a slow phone network.
  let release!: () => void;
  const typed = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/NewsletterForm.*.js', async (route) => {
    await typed;
    await route.continue();
  });
  // The page is shown while its module scripts still load (they hold back DOMContentLoaded and load).
  await page.goto('/', { waitUntil: 'commit' });
  const box = page.locator('#newsletter');
  await box.scrollIntoViewIfNeeded();
  const email = uniqueEmail('news-early');
  await box.getByLabel('Email address').fill(email);
  release();
  await expect(box.locator('form')).toHaveAttribute('data-enhanced', '', { timeout: 15_000 });
  // The script kept what was typed, and sends the form's own value.
  await expect(box.getByLabel('Email address')).toHaveValue(email);
  await box.getByRole('button', { name: 'SUBSCRIBE' }).click();
  await expect(said(page, 'Thank you for subscribing. Our e-mail has the next step.')).toBeVisible();
  await expect(page.getByText('Please enter your email address')).toHaveCount(0);
});
