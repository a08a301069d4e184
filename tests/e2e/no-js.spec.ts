import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { getJson, newShopper, SHOPPER_PASSWORD, signIn, southAfricanShopper, twoColourProduct } from './support';

/**
 * Buying and the address book with JavaScript off, at 360 px, as on a proxy browser: every step
 * is a plain HTML form or link, and messages arrive inline through the redirect (?notice= / ?error=).
 * The page also sends no Origin (some proxy browsers do not), so each cookie-authenticated form
 * post is let through by its CSRF token alone.
 */
test.use({ javaScriptEnabled: false, viewport: { width: 360, height: 740 } });
/**
 * Sends the browser's form posts without Origin and Sec-Fetch-Site, like a proxy browser. Chromium
 * puts those headers back on a continued request, so the post is made by Playwright's own client
 * (same cookies) and its answer, redirects included, handed back to the page.
 */
async function likeAProxyBrowser(page: Page, edit: (body: string) => string = (b) => b) {
  await page.route('**/*', async (route) => {
    const request = route.request();
    if (request.method() === 'GET') return route.continue();
    const headers = { ...request.headers() };
    for (const h of Object.keys(headers)) if (h === 'origin' || h.startsWith('sec-fetch-')) delete headers[h];
    const isText = (headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
    const response = await route.fetch({ headers, maxRedirects: 0, ...(isText ? { postData: edit(request.postData() ?? '') } : {}) });
    await route.fulfill({ response });
  });
}

async function login(page: Page, email: string) {
  await signIn(page, email);
  await expect(page.getByRole('status').filter({ hasText: 'Login successful!' })).toBeVisible();
}

/** An in-stock sized variant (stock >= 4), skipping a few so other suites keep theirs. */
async function sizedVariant(request: APIRequestContext, skip: number) {
  const list = await getJson(request, '/api/v1/products?limit=100');
  let seen = 0;
  for (const p of list.data.docs as { id: number; sizeNames: string[] }[]) {
    if (p.sizeNames.length === 0) continue;
    const detail = (await getJson(request, `/api/v1/products/${p.id}`)).data;
    const v = detail.variants.find((x: { stock: number }) => x.stock >= 4);
    if (!v || seen++ < skip) continue;
    return { productId: p.id as number, name: detail.name as string, size: v.size as string, color: v.color as string | null };
  }
  throw new Error('no sized variant in stock');
}

const notice = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

test('buy end to end without JavaScript: add a variant, raise the quantity, pickup, pay, find the order', async ({ page, request }) => {
  await likeAProxyBrowser(page);
  const email = await newShopper(request, true);
  await login(page, email);

  const v = await sizedVariant(request, 10);
  await page.goto(`/product/${v.productId}`);
  // Colour first, then a size in it: a size sold out in the colour on show is named so.
  if (v.color) await page.getByRole('radio', { name: v.color, exact: true }).check();
  await page.getByRole('radio', { name: v.size, exact: true }).check();
  await page.getByRole('button', { name: 'ADD TO CART' }).click();

  await expect(page).toHaveURL(/\/cart\?notice=/);
  await expect(notice(page, 'Product added to cart successfully!')).toBeVisible();
  const line = page.locator('.cart-line');
  await expect(line).toHaveCount(1);
  await expect(line).toContainText(`Size: ${v.size}`);
  if (v.color) await expect(line).toContainText(`Colour: ${v.color}`);
  await expect(line.getByRole('button', { name: 'Decrease quantity' })).toBeDisabled();
  await line.getByRole('button', { name: 'Increase quantity' }).click();
  await expect(notice(page, 'Quantity updated')).toBeVisible();
  await expect(page.locator('.cart-line').getByLabel('Quantity', { exact: true })).toHaveText('2');
  await page.getByRole('link', { name: 'PROCEED TO CHECKOUT' }).click();
  await expect(page).toHaveURL(/\/place-order$/);
  await expect(page.getByRole('radio', { name: 'Delivery', exact: true })).toBeChecked();
  // Each item with its picture; the delivery speeds as real choices, applied by Update total.
  await expect(page.locator('.po-items img')).toHaveCount(1);
  await expect(page.getByRole('link', { name: 'Change delivery address' })).toHaveAttribute('href', '/place-order/address');
  await page.getByRole('group', { name: 'Delivery speed' }).getByRole('radio', { name: /Standard/ }).check();
  await page.getByRole('button', { name: 'Update total' }).click();
  await expect(notice(page, 'Delivery option updated')).toBeVisible();
  await expect(page.getByRole('radio', { name: /Standard/ })).toBeChecked();
  await expect(page.locator('.buy-summary')).toContainText('₦10,000');
  await page.getByRole('radio', { name: 'Pickup' }).check();
  await page.getByRole('button', { name: 'Update total' }).click();
  await expect(notice(page, 'Delivery option updated')).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Pickup' })).toBeChecked();
  await expect(page.getByText('Free shipping')).toBeVisible();
  await expect(page.getByRole('group', { name: 'Pickup address' })).toContainText('Maison Luxe Ikoyi');
  await expect(page.getByRole('group', { name: 'Pickup address' })).toContainText('Bring your ID and the order number.');
  await expect(page.getByRole('group', { name: 'Delivery speed' })).toBeHidden();
  await page.getByRole('button', { name: 'PAY & PLACE ORDER' }).click();
  await expect(page).toHaveURL(/\/pay\/simulated\//);
  await page.getByRole('button', { name: /^Pay / }).click();

  await expect(page).toHaveURL(/\/place-order\?paid=true/);
  const returned = page.url();
  await expect(page.getByRole('status').filter({ hasText: 'Order placed successfully!' })).toBeVisible();
  // Then on to the order's own page, without scripts too.
  await page.waitForURL(/\/order-details\/[^?]+\?placed=1/);
  await expect(page.getByRole('heading', { name: 'Thank you' })).toBeVisible();
  await expect(page.getByText('Order placed successfully!')).toBeVisible();
  // Coming back to the provider's return runs the same fulfil(reference) again: still one order.
  await page.goto(returned);
  await expect(page.getByText('Order placed successfully!')).toBeVisible();
  await page.goto('/order-history');
  const cards = page.locator('.order-card');
  await expect(cards).toHaveCount(1);
  await expect(cards.first().locator('[data-status]')).toHaveText('pending');
  await expect(cards.first()).toContainText('2 items');
  await page.goto('/cart');
  await expect(page.getByText('Your cart is empty')).toBeVisible();
});

test('the address book without JavaScript: add, make default, delete after confirming', async ({ page, request }) => {
  await likeAProxyBrowser(page);
  const email = await newShopper(request, true);
  await login(page, email);

  await page.goto('/address-history');
  await page.getByRole('link', { name: 'Add New Address' }).click();
  await page.getByLabel('Full Name').fill('Kemi Bello');
  await page.getByLabel('Country').selectOption('south_africa');
  await page.getByLabel('State or Province').selectOption('Western Cape');
  await page.getByLabel('City').fill('Cape Town');
  await page.getByLabel('Postcode').fill('8001');
  await page.getByLabel('Address', { exact: true }).fill('21 Bree Street');
  await page.getByRole('button', { name: 'Save Address' }).click();
  await expect(page).toHaveURL(/\/address-history\?notice=/);
  await expect(notice(page, 'Address saved successfully!')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: /21 Bree Street/ })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: /5 Admiralty Way/ })).toBeChecked();

  await page.getByRole('button', { name: 'Make default: 21 Bree Street' }).click();
  await expect(notice(page, 'Default address updated!')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: /21 Bree Street/ })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /5 Admiralty Way/ })).not.toBeChecked();

  await page.getByRole('button', { name: 'Delete address: 5 Admiralty Way' }).click();
  await expect(page.getByText('Are you sure you want to delete this address?')).toBeVisible();
  // Cancel keeps it
  await page.getByRole('link', { name: 'Cancel' }).click();
  await expect(page.getByText('5 Admiralty Way')).toBeVisible();
  await page.getByRole('button', { name: 'Delete address: 5 Admiralty Way' }).click();
  await page.getByRole('button', { name: 'Yes, delete' }).click();
  await expect(notice(page, 'Address deleted successfully!')).toBeVisible();
  await expect(page.getByText('5 Admiralty Way')).toHaveCount(0);
  await expect(page.getByRole('checkbox', { name: /21 Bree Street/ })).toBeChecked();
});

test('signed out, the heart without JavaScript says why it asks to sign in, and comes back to the piece', async ({ page, request }) => {
  const email = await newShopper(request, false);
  const v = await sizedVariant(request, 13);
  await page.goto(`/product/${v.productId}`);
  await page.locator('.product-title-row').getByRole('button', { name: 'Add to favourites' }).click();
  await expect(page).toHaveURL(/\/login\?/);
  await expect(notice(page, 'Sign in to keep your favourites.')).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(SHOPPER_PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(new RegExp(`/product/${v.productId}`));
});

test('without JavaScript, a colour link shows that colour\'s pictures and the cart line shows its picture', async ({ page, request }) => {
  await likeAProxyBrowser(page);
  const product = await twoColourProduct(request, 1);
  const email = await newShopper(request, false);
  await login(page, email);
  await page.goto(`/product/${product.id}`);
  await page.getByRole('link', { name: product.second, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/product/${product.id}\\?color=`));
  expect(product.hashesOf(product.second)).toContain(await page.locator('img[data-main-image]').getAttribute('data-hash'));
  await expect(page.getByRole('radio', { name: product.second, exact: true })).toBeChecked();
  const size = product.variantOf(product.second).size;
  if (size) await page.getByRole('radio', { name: size, exact: true }).check();
  await page.getByRole('button', { name: 'ADD TO CART' }).click();
  await page.goto('/cart');
  const line = page.locator('.cart-line').filter({ hasText: product.name });
  await expect(line).toContainText(`Colour: ${product.second}`);
  const src = await line.locator('img').first().getAttribute('src');
  expect(product.hashesOf(product.second).some((h) => src!.includes(h))).toBe(true);
});

test('without JavaScript, no size is assumed: ADD TO CART without one says so, and the size guide opens', async ({ page, request }) => {
  await likeAProxyBrowser(page);
  const email = await newShopper(request, false);
  await login(page, email);
  const v = await sizedVariant(request, 11);
  await page.goto(`/product/${v.productId}`);
  const sizes = page.locator('.option-group').filter({ hasText: 'Size' });
  await expect(sizes.getByRole('radio', { checked: true })).toHaveCount(0);
  await sizes.getByText('Size guide').click();
  await expect(sizes.getByRole('table')).toBeVisible();
  await page.getByRole('button', { name: 'ADD TO CART' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Please select a size' })).toBeVisible();
  await page.goto('/cart');
  await expect(page.getByText('Your cart is empty')).toBeVisible();
});

test('favourite heart and profile picture without JavaScript', async ({ page, request }) => {
  await likeAProxyBrowser(page);
  const email = await newShopper(request, false);
  await login(page, email);

  const v = await sizedVariant(request, 12);
  await page.goto(`/product/${v.productId}`);
  const heart = page.locator('.product-title-row').getByRole('button', { name: 'Add to favourites' });
  await heart.click();
  await expect(notice(page, 'Added to favourites')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/product/${v.productId}\\?notice=`));
  await expect(page.locator('.product-title-row').getByRole('button', { name: 'Remove from favourites' })).toHaveAttribute('aria-pressed', 'true');
  await page.goto('/favourites');
  await expect(page.getByRole('heading', { name: v.name })).toBeVisible();
  await page.getByRole('button', { name: 'Remove from favourites' }).click();
  await expect(notice(page, 'Removed from favourites')).toBeVisible();
  await expect(page.getByText('You have no favourites yet')).toBeVisible();

  await page.goto('/profile');
  await expect(page.getByRole('img', { name: 'Kemi Bello' })).toHaveCount(0);
  const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#8a5a2b' } }).png().toBuffer();
  await page.getByLabel('Change profile picture').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
  await page.getByRole('button', { name: 'Upload picture' }).click();
  await expect(notice(page, 'Profile picture saved.')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Kemi Bello' })).toHaveAttribute('src', /^\/media\/[a-f0-9]{32}$/);
  // not a picture: the spec's message, inline
  await page.getByLabel('Change profile picture').setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a png') });
  await page.getByRole('button', { name: 'Upload picture' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /^Failed to upload image: / })).toBeVisible();
});

test('signed out, ADD TO CART without JavaScript asks to log in', async ({ page, request }) => {
  const v = await sizedVariant(request, 14);
  await page.goto(`/product/${v.productId}`);
  await page.getByRole('button', { name: 'ADD TO CART' }).click();
  // The choice goes with the shopper to sign in, and comes back with them.
  await expect(page).toHaveURL(/\/login\?next=%2Fproduct%2F/);
  await expect(page.getByRole('status').filter({ hasText: 'Please create an account or login' })).toBeVisible();
});

test('a form post without its CSRF token and without Origin is refused', async ({ page, request }) => {
  const email = await newShopper(request, false);
  await login(page, email);
  const v = await sizedVariant(request, 16);
  await page.goto(`/product/${v.productId}`);
  await expect(page.locator('input[name="_csrf"]').first()).toHaveAttribute('value', /.{40,}/);
  // a forged post: the same form without its token, from a browser that sends no Origin
  await likeAProxyBrowser(page, (body) => body.replace(/(^|&)_csrf=[^&]*/, ''));
  const response = page.waitForResponse(/\/api\/v1\/cart\/add-to-cart/);
  await page.getByRole('button', { name: 'ADD TO CART' }).click();
  expect((await response).status()).toBe(403);
  await expect(page.getByText('This form has expired')).toBeVisible();
});

test('signed in without JavaScript, a catalogue page from the shared cache is the shopper\'s own: name, cart count, hearts, working forms', async ({ page, request }) => {
  const v = await sizedVariant(request, 18);
  const path = `/product/${v.productId}`;
  // An anonymous visitor has put the page in the route cache.
  await request.get(path);
  expect((await request.get(path)).headers()['x-cache']).toBe('HIT');

  await likeAProxyBrowser(page);
  const email = await newShopper(request, false);
  await login(page, email);
  const first = await page.goto(path);
  expect(first!.headers()['x-cache']).toBe('HIT');
  await expect(page.getByRole('button', { name: 'Account menu for Kemi' })).toBeAttached();
  await expect(page.getByRole('link', { name: 'Cart, 0 items' })).toBeVisible();

  // Its forms carry this shopper's token: the heart and ADD TO CART work from a browser that sends no Origin.
  await page.locator('.product-title-row').getByRole('button', { name: 'Add to favourites' }).click();
  await expect(notice(page, 'Added to favourites')).toBeVisible();
  // Colour first, then a size in it: a size sold out in the colour on show is named so.
  if (v.color) await page.getByRole('radio', { name: v.color, exact: true }).check();
  await page.getByRole('radio', { name: v.size, exact: true }).check();
  await page.getByRole('button', { name: 'ADD TO CART' }).click();
  await expect(notice(page, 'Product added to cart')).toBeVisible();

  // Back on the cached page: still the shared entry, with this shopper's heart and count put in.
  const again = await page.goto(path);
  expect(again!.headers()['x-cache']).toBe('HIT');
  await expect(page.locator('.product-title-row').getByRole('button', { name: 'Remove from favourites' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('link', { name: 'Cart, 1 item' })).toBeVisible();
  // and the anonymous visitor's copy has none of it
  const anonymous = await (await request.get(path)).text();
  expect(anonymous).not.toContain('Account menu for');
  expect(anonymous).not.toMatch(/data-fav="\d+" aria-pressed="true"/);
});

test('without JavaScript, Discover More opens the collection', async ({ page }) => {
  await page.goto('/');
  const section = page.locator('#latest-collections');
  await expect(section.locator('article.card')).toHaveCount(10);
  await section.getByRole('button', { name: 'Discover More' }).click();
  await expect(page).toHaveURL(/\/collection\??$/);
  await expect(page.locator('article.card').first()).toBeVisible();
});

test('without JavaScript, a refused checkout says its own reason, as the island\'s toast does', async ({ page, playwright, baseURL }) => {
  // Each shopper is made in a context of its own: a session cookie from one would make the next sign-up a cookie post.
  const made = async (make: (request: APIRequestContext) => Promise<string>) => {
    const request = await playwright.request.newContext({ baseURL });
    const email = await make(request);
    await request.dispose();
    return email;
  };
  const cartOf = async (email: string, skip: number) => {
    // A context of its own: no session cookie, so the calls go by bearer token alone.
    const api = await playwright.request.newContext({ baseURL });
    const token = (await (await api.post('/api/v1/user-auth/login', { data: { email, password: SHOPPER_PASSWORD } })).json()).data.token as string;
    const v = await sizedVariant(api, skip);
    const added = await api.post('/api/v1/cart/add-to-cart', { headers: { authorization: `Bearer ${token}` }, data: { productId: v.productId, color: v.color, size: v.size, quantity: 1 } });
    expect(added.status()).toBe(200);
    await api.dispose();
  };
  const refusal = page.getByRole('alert').filter({ hasText: 'Failed to initialize payment.' });

  // A default address in South Africa while shopping in Nigeria: the reason, with what to do, not "Something went wrong".
  const abroad = await made((request) => southAfricanShopper(request));
  await cartOf(abroad, 9);
  await login(page, abroad);
  await page.goto('/place-order');
  await page.getByRole('radio', { name: 'Delivery', exact: true }).check();
  await page.getByRole('button', { name: 'PAY & PLACE ORDER' }).click();
  await expect(refusal).toContainText('Failed to initialize payment. Your delivery address is in South Africa, but you are shopping in Nigeria. Shop in South Africa (R ZAR) instead, choose pickup in Lagos, or use an address in Nigeria.');
  await expect(page.getByText('Something went wrong')).toHaveCount(0);

  // A TIN of another shape for the company on the invoice.
  await page.context().clearCookies();
  const company = await made((request) => newShopper(request, true, 'e2e.nojs.company'));
  await cartOf(company, 10);
  await login(page, company);
  await page.goto('/place-order');
  await page.getByText('Buying for a company?').click();
  await page.getByLabel('Company name').fill('Ògúnlẹ́sì Trading Ltd');
  await page.getByLabel('TIN (optional)').fill('1234-5678');
  await page.getByRole('button', { name: 'PAY & PLACE ORDER' }).click();
  await expect(refusal).toContainText('Failed to initialize payment. A Nigerian TIN is 8 digits, a hyphen and 4 digits (12345678-0001), or 10 digits');
});
