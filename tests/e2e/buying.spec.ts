import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { getJson, newShopper, purchaseReady, SHOPPER_PASSWORD } from './support';

/**
 * Buying in the browser: product page -> cart -> checkout -> simulated payment -> orders.
 * Each test, and each retry of it, uses a shopper of its own, so no run finds another's cart
 * lines or orders (a shared account's cart carried an earlier attempt's lines into a retry).
 */
const PASSWORD = SHOPPER_PASSWORD;

interface Pick {
  productId: number;
  size: string | null;
  color: string | null;
  price: number;
}

async function login(page: Page, email: string, password = PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText('Login successful!')).toBeVisible();
  await page.waitForURL((url) => url.pathname === '/');
}


/** In-stock variants from different products (sized or not), skipping some so parallel tests use different stock. */
async function pickVariants(request: APIRequestContext, opts: { sized: boolean; count: number; skip: number; minStock?: number }): Promise<Pick[]> {
  const list = await getJson(request, '/api/v1/products?limit=100');
  const out: Pick[] = [];
  let skipped = 0;
  for (const p of list.data.docs as { id: number; sizeNames: string[] }[]) {
    if (opts.sized !== p.sizeNames.length > 0) continue;
    const detail = (await getJson(request, `/api/v1/products/${p.id}`)).data;
    const v = detail.variants.find((x: { stock: number }) => x.stock >= (opts.minStock ?? 4));
    if (!v) continue;
    if (skipped++ < opts.skip) continue;
    out.push({ productId: p.id, size: v.size, color: v.color, price: v.price });
    if (out.length === opts.count) return out;
  }
  throw new Error('not enough stock');
}

async function addToCart(page: Page, v: Pick) {
  await page.goto(`/product/${v.productId}`);
  // the form also works before hydration (a plain post), but this suite checks the island's toasts
  await purchaseReady(page);
  // Colour first, then a size in it: a size sold out in the colour on show is named so.
  if (v.color) await page.getByRole('radio', { name: v.color, exact: true }).check();
  if (v.size) await page.getByRole('radio', { name: v.size, exact: true }).check();
  await page.getByRole('button', { name: 'ADD TO CART' }).click();
  await expect(page.getByText('Product added to cart successfully!')).toBeVisible();
}

const skipFor = (project: string, base: number) => base + (project === 'phone' ? 0 : 1);

test('buy two variants with delivery, pay, and follow the order', { tag: '@desktop' }, async ({ page, request }, info) => {
  // The whole journey, to the order's page: past a minute on a loaded two-core CI machine.
  test.setTimeout(120_000);
  const email = await newShopper(request, true);
  await login(page, email);

  // browse: a collection, then two products in different variants
  await page.goto('/collection');
  await expect(page.locator('.card').first()).toBeVisible();
  const [sized] = await pickVariants(request, { sized: true, count: 1, skip: skipFor(info.project.name, 0) });
  const [plain] = await pickVariants(request, { sized: false, count: 1, skip: skipFor(info.project.name, 0) });
  await addToCart(page, sized!);
  await expect(page.locator('[data-cart-count]')).toHaveText('1');
  await addToCart(page, plain!);
  await expect(page.locator('[data-cart-count]')).toHaveText('2');

  await page.goto('/cart');
  const lines = page.locator('.cart-line');
  await expect(lines).toHaveCount(2);
  const first = lines.nth(0);
  await expect(first.getByRole('button', { name: 'Decrease quantity' })).toBeDisabled();
  await first.getByRole('button', { name: 'Increase quantity' }).click();
  await expect(first.getByLabel('Quantity', { exact: true })).toHaveText('2');
  await first.getByRole('button', { name: 'Increase quantity' }).click();
  await expect(first.getByLabel('Quantity', { exact: true })).toHaveText('3');
  await first.getByRole('button', { name: 'Decrease quantity' }).click();
  await expect(first.getByLabel('Quantity', { exact: true })).toHaveText('2');
  await expect(first.getByRole('button', { name: 'Decrease quantity' })).toBeEnabled();
  await expect(first.getByLabel('Line total')).toContainText(new Intl.NumberFormat('en-NG').format(sized!.price * 2));
  await page.getByRole('link', { name: 'PROCEED TO CHECKOUT' }).click();
  await expect(page).toHaveURL(/\/place-order$/);
  await expect(page.getByRole('radio', { name: 'Delivery', exact: true })).toBeChecked();
  await expect(page.getByRole('group', { name: 'Delivery address' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Change delivery address' })).toBeVisible();
  await expect(page.locator('.po-items img')).toHaveCount(2);
  // The advertised speeds are real choices: Standard until another is chosen, Express re-prices the total
  // (free from the market's ₦2,500,000).
  const speeds = page.getByRole('group', { name: 'Delivery speed' });
  await expect(speeds.getByRole('radio', { name: /Standard/ })).toBeChecked();
  const total = sized!.price * 2 + plain!.price;
  await expect(page.getByTestId('order-total')).toContainText(new Intl.NumberFormat('en-NG').format(total + 10000));
  await speeds.getByRole('radio', { name: /Express/ }).check();
  await expect(page.getByTestId('order-total')).toContainText(new Intl.NumberFormat('en-NG').format(total + (total >= 2_500_000 ? 0 : 15000)));
  await page.getByRole('button', { name: 'PAY & PLACE ORDER' }).click();

  await expect(page).toHaveURL(/\/pay\/simulated\//);
  await expect(page.getByRole('button', { name: 'Decline' })).toBeVisible();
  await page.getByRole('button', { name: /^Pay / }).click();

  await expect(page.getByText('Order placed successfully!')).toBeVisible();
  // The order's own page: "Thank you", its tracking number, and the payment's state beside the status.
  await page.waitForURL(/\/order-details\/[^?]+\?placed=1$/);
  await expect(page.getByRole('heading', { name: 'Thank you' })).toBeVisible();
  await expect(page.locator('[data-payment-state]')).toHaveText('Paid');
  // One word for the order's status and one for its payment, each under its own label.
  const fact = (term: string) => page.locator(`.order-facts > div:has(> dt:text-is("${term}")) > dd`);
  await expect(fact('Status')).toHaveText('pending');
  await expect(fact('Payment')).toHaveText('Paid');
  await page.goto('/order-history');
  await expect(page.getByRole('heading', { name: 'Orders', exact: true })).toBeVisible();
  const card = page.locator('.order-card').first();
  await expect(card.locator('[data-status]')).toHaveText('pending');
  await expect(card).toContainText('3 items');
  await expect(page.locator('[data-cart-count]')).toBeHidden();
  await page.getByRole('link', { name: 'Pending' }).click();
  await expect(page.locator('.order-card')).toHaveCount(1);
  await page.getByRole('link', { name: 'Delivered' }).click();
  await expect(page.getByText('No orders found with this status')).toBeVisible();
  await page.getByRole('link', { name: 'All Orders' }).click();

  const tracking = (await page.locator('.order-tracking').first().textContent())!.trim();
  await page.getByRole('link', { name: /DETAILS/ }).first().click();
  await expect(page).toHaveURL(/\/order-details\//);
  await expect(page.getByRole('heading', { name: `Order ${tracking}` })).toBeVisible();
  await expect(page.locator('.od-item')).toHaveCount(2);
  await expect(page.getByText(/Quantity: 2/)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Shipping address' })).toBeVisible();
  await expect(page.locator('[data-delivery-speed]')).toHaveText('Express delivery · 1-2 business days');
  await page.goto('/orders');
  await expect(page.getByRole('heading', { name: 'MY ORDERS' })).toBeVisible();
  await page.getByRole('link', { name: /Track Order/ }).first().click();
  await expect(page).toHaveURL(/\/order-details\//);
});

test('pickup: free shipping and the store address', async ({ page, request }, info) => {
  const email = await newShopper(request, true);
  await login(page, email);
  const [v] = await pickVariants(request, { sized: false, count: 1, skip: skipFor(info.project.name, 4) });
  await addToCart(page, v!);
  await page.goto('/place-order');
  // The page shows the choice at once; the server has it once the spec's delivery-option call is answered.
  const saved = page.waitForResponse((r) => r.url().includes('/api/v1/cart/delivery-option/') && r.request().method() === 'PUT');
  await page.getByText('Pickup', { exact: true }).click();
  await expect(page.getByRole('radio', { name: 'Pickup' })).toBeChecked();
  await expect(page.getByText('Free shipping')).toBeVisible();
  await expect(page.getByRole('group', { name: 'Pickup address' })).toContainText('Maison Luxe Ikoyi');
  expect((await saved).ok()).toBe(true);
  // the choice is kept by the server
  await page.reload();
  await expect(page.getByRole('radio', { name: 'Pickup' })).toBeChecked();
  await page.getByRole('button', { name: 'PAY & PLACE ORDER' }).click();
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page.getByText('Order placed successfully!')).toBeVisible();
  await page.waitForURL(/\/order-details\/[^?]+\?placed=1$/);
  await expect(page.getByRole('heading', { name: 'Pickup address' })).toBeVisible();
  await expect(page.getByText('Free shipping')).toBeVisible();
});

test('a delivery choice made before the checkout has loaded its script is kept', async ({ page, request }, info) => {
  const email = await newShopper(request, true);
  await login(page, email);
  const [v] = await pickVariants(request, { sized: false, count: 1, skip: skipFor(info.project.name, 4) });
  await addToCart(page, v!);
  // A slow phone: the checkout island's script arrives only after the shopper has chosen Pickup.
  let arrive!: () => void;
  const late = new Promise<void>((resolve) => (arrive = resolve));
  await page.route(/\/_astro\/PlaceOrder\.[^/]*\.js$/, async (route) => {
    await late;
    await route.continue();
  });
  await page.goto('/place-order', { waitUntil: 'domcontentloaded' });
  await page.getByText('Pickup', { exact: true }).click();
  arrive();
  const island = page.locator('astro-island[component-url*="/PlaceOrder."]');
  await expect(island).not.toHaveAttribute('ssr', /.*/, { timeout: 15_000 });
  await expect(page.getByRole('radio', { name: 'Pickup' })).toBeChecked();
  await expect(page.getByRole('group', { name: 'Pickup address' })).toContainText('Maison Luxe Ikoyi');
  await expect(page.getByText('Free shipping')).toBeVisible();
  // the island told the server, which keeps the choice
  await page.unroute(/\/_astro\/PlaceOrder\.[^/]*\.js$/);
  await page.reload();
  await expect(page.getByRole('radio', { name: 'Pickup' })).toBeChecked();
});

test('a declined payment places no order and can be retried', async ({ page, request }, info) => {
  const email = await newShopper(request, false);
  await login(page, email);
  const [v] = await pickVariants(request, { sized: true, count: 1, skip: skipFor(info.project.name, 4) });
  await addToCart(page, v!);
  await page.goto('/place-order');
  // without an address only pickup is possible
  await expect(page.getByRole('radio', { name: 'Pickup' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'Delivery', exact: true })).toBeDisabled();
  await page.getByRole('button', { name: 'PAY & PLACE ORDER' }).click();
  await page.getByRole('button', { name: 'Decline' }).click();
  await expect(page.getByText('Error placing order.')).toBeVisible();
  await expect(page).toHaveURL(/\/place-order$/);
  await expect(page.getByRole('button', { name: 'PAY & PLACE ORDER' })).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('ml:paymentReference'))).toBeNull();
  await page.goto('/order-history');
  await expect(page.getByText('You have no orders yet')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Start shopping' })).toHaveAttribute('href', '/collection');
  // the cart is still there to try again
  await page.goto('/cart');
  await expect(page.locator('.cart-line')).toHaveCount(1);
  await page.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('Item removed')).toBeVisible();
  await expect(page.getByText('Your cart is empty')).toBeVisible();
});

test('the return from the payment page places the order once: on the server, the island only shows it', async ({ page, request }, info) => {
  const email = await newShopper(request, false);
  await login(page, email);
  const [v] = await pickVariants(request, { sized: false, count: 1, skip: skipFor(info.project.name, 6) });
  await addToCart(page, v!);
  await page.goto('/place-order');
  await page.getByRole('button', { name: 'PAY & PLACE ORDER' }).click();
  await expect(page).toHaveURL(/\/pay\/simulated\//);
  const placeOrderCalls: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/v1/orders/place-order') placeOrderCalls.push(r.method());
  });
  const returned = page.waitForResponse((r) => new URL(r.url()).pathname === '/place-order' && new URL(r.url()).searchParams.has('reference'));
  await page.getByRole('button', { name: /^Pay / }).click();
  expect((await returned).status()).toBe(200);
  await expect(page.getByText('Order placed successfully!')).toBeVisible();
  await page.waitForURL(/\/order-details\/[^?]+\?placed=1$/);
  await page.goto('/order-history');
  await expect(page.locator('.order-card')).toHaveCount(1);
  expect(placeOrderCalls).toEqual([]);
  expect(await page.evaluate(() => sessionStorage.getItem('ml:paymentReference'))).toBeNull();
});

test('ADD TO CART without a size, then with one: the success replaces the error toast', async ({ page, request }, info) => {
  const email = await newShopper(request, false);
  await login(page, email);
  const [v] = await pickVariants(request, { sized: true, count: 1, skip: skipFor(info.project.name, 10), minStock: 1 });
  await page.goto(`/product/${v!.productId}`);
  await purchaseReady(page);
  const sizeToast = page.getByRole('status').filter({ hasText: 'Please select a size' });

  await page.getByRole('button', { name: 'ADD TO CART' }).click();
  await expect(sizeToast).toHaveCount(1);

  await page.getByRole('radio', { name: v!.size!, exact: true }).check();
  if (v!.color) await page.getByRole('radio', { name: v!.color, exact: true }).check();
  await page.getByRole('button', { name: 'ADD TO CART' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Product added to cart successfully!' })).toBeVisible();
  // At once, not after the error's 5 s: the success took the error's place.
  expect(await sizeToast.count()).toBe(0);
  expect(await page.getByRole('status').filter({ hasText: /Please select a size|Product added/ }).count()).toBe(1);
});

test('favourites: heart on a card, listed per shopper, removed again', async ({ page, request }) => {
  await page.goto('/collection');
  // logged out, the heart leads to login
  await page.locator('.card').first().getByRole('button', { name: 'Add to favourites' }).click();
  await page.waitForURL(/\/login/);
  const email = await newShopper(request, false);
  // Signing in from there comes back to the collection with that heart added, once.
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((url) => url.pathname === '/collection');
  const card = page.locator('.card').first();
  const name = (await card.locator('.card-name').textContent())!.trim();
  await expect(card.getByRole('button', { name: 'Remove from favourites' })).toHaveAttribute('aria-pressed', 'true');
  // Pressed, the heart now submits the page's remove form (should scripts stop, the form still does the right thing).
  await expect(card.getByRole('button', { name: 'Remove from favourites' })).toHaveAttribute('form', 'ml-fav-remove');
  await expect(page.locator('form#ml-fav-remove')).toHaveAttribute('action', /^\/api\/v1\/favourites\/remove\?back=/);
  await page.reload();
  await expect(page.locator('.card').first().getByRole('button', { name: 'Remove from favourites' })).toBeVisible();
  await page.goto('/favourites');
  await expect(page.getByRole('heading', { name: 'My Favorites' })).toBeVisible();
  await expect(page.getByRole('heading', { name })).toBeVisible();
  await page.getByRole('button', { name: 'Remove from favourites' }).click();
  await expect(page.getByText('You have no favourites yet')).toBeVisible();
});

test('delivery options link to working pages', async ({ page }) => {
  await page.goto('/delivery-options');
  for (const [name, days] of [
    ['Express', '1-2 business days'],
    ['Standard', '3-5 days'],
    ['Economy', '5-7 days'],
  ] as const) {
    await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
    await expect(page.getByText(days, { exact: true }).first()).toBeVisible();
  }
  await page.getByRole('link', { name: /Standard/ }).click();
  await expect(page).toHaveURL(/\/delivery\/standard$/);
  await expect(page.getByRole('heading', { name: 'Standard delivery' })).toBeVisible();
  await expect(page.getByText('₦10,000')).toBeVisible();
  const missing = await page.goto('/delivery/teleport');
  expect(missing!.status()).toBe(404);
});

test('buying pages need a session', async ({ page }) => {
  for (const path of ['/cart', '/place-order', '/order-history', '/orders', '/favourites']) {
    await page.goto(path);
    await expect(page, path).toHaveURL(`/login?next=${encodeURIComponent(path)}`);
  }
});

test('buying pages have no serious accessibility problems', { tag: '@desktop' }, async ({ page, request }, info) => {
  // Seven axe runs: ~40 s alone, past a minute on a busy two-core machine.
  test.setTimeout(120_000);
  const email = await newShopper(request, true);
  await login(page, email);
  const [v] = await pickVariants(request, { sized: false, count: 1, skip: skipFor(info.project.name, 8), minStock: 1 });
  await addToCart(page, v!);
  await page.locator('.card-actions, .fav-btn').first().waitFor();
  for (const path of ['/cart', '/place-order', '/order-history', '/orders', '/favourites', '/delivery-options', '/delivery/express']) {
    await page.goto(path);
    const results = await new AxeBuilder({ page }).include('#main').analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${path}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }
});
