import { expect, test, type APIRequestContext } from '@playwright/test';
import { getJson, hydrated, newShopper, SHOPPER_PASSWORD, signIn } from './support';

/**
 * A shopper's second look at 360 px, with and without JavaScript: prices that say "From" and open
 * on what they priced, delivery fees told before checkout, colour filters that show the colour
 * and keep the panel open, and an address added from checkout that comes back to checkout.
 */
test.use({ viewport: { width: 360, height: 740 } });

interface Card {
  id: number;
  price: number;
  priceFrom: boolean;
  cardColor: string | null;
  colorNames: string[];
  sizeNames: string[];
}

/** A product whose variants differ in price and that comes in several colours (the Zola bag is one). */
async function pricedFromProduct(request: APIRequestContext): Promise<Card> {
  const list = await getJson(request, '/api/v1/products?limit=100');
  const found = (list.data.docs as Card[]).find((p) => p.priceFrom && p.colorNames.length > 1);
  if (!found) throw new Error('no product whose variants differ in price');
  return found;
}

/** Puts one unsized piece in the shopper's cart, through the API by bearer token (the same account's cart as the page's). */
async function addToCart(playwright: { request: { newContext(o: { baseURL?: string }): Promise<APIRequestContext> } }, baseURL: string | undefined, email: string): Promise<void> {
  // A context of its own: no session cookie, so the calls go by bearer token alone.
  const request = await playwright.request.newContext({ baseURL });
  const login = await (await request.post('/api/v1/user-auth/login', { data: { email, password: SHOPPER_PASSWORD } })).json();
  const list = await getJson(request, '/api/v1/products?limit=100');
  for (const p of list.data.docs as Card[]) {
    if (p.sizeNames.length > 0) continue;
    const detail = (await getJson(request, `/api/v1/products/${p.id}`)).data;
    const v = detail.variants.find((x: { stock: number }) => x.stock > 2);
    if (!v) continue;
    const res = await request.post('/api/v1/cart/add-to-cart', {
      headers: { authorization: `Bearer ${login.data.token}` },
      data: { productId: p.id, color: v.color, size: null, quantity: 1 },
    });
    expect(res.status(), await res.text()).toBe(200);
    await request.dispose();
    return;
  }
  throw new Error('no unsized product in stock');
}

for (const js of [true, false]) {
  test.describe(js ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled: js });
    test('a card whose variants differ says "From" and opens the product on the variant it priced', async ({ page, request }) => {
      const product = await pricedFromProduct(request);
      const price = new Intl.NumberFormat('en-NG').format(product.price);
      await page.goto('/collection');
      const card = page.locator(`.card[data-product-id="${product.id}"]`);
      await expect(card.locator('.card-price')).toHaveText(`From ₦${price}`);
      await expect(card.locator('.card-link')).toHaveAttribute('href', `/product/${product.id}?color=${encodeURIComponent(product.cardColor!)}`);
      await card.scrollIntoViewIfNeeded();
      await card.locator('.card-link').click();
      await expect(page).toHaveURL(new RegExp(`/product/${product.id}\\?color=`));
      await expect(page.locator('.product-price')).toHaveText(`₦${price}`);
    });

    test('the cart tells the delivery fee before checkout, and checkout opens on Standard', async ({ page, request, playwright }, info) => {
      const email = await newShopper(request, false, 'second');
      const withAddress = await newShopper(request, true, 'second');
      await signIn(page, email);
      await addToCart(playwright, info.project.use.baseURL, email);
      await page.goto('/cart');
      // No address yet: what delivery costs at least, never "Free shipping".
      await expect(page.getByTestId('shipping-fee')).toHaveText('Delivery from ₦5,000');
      await expect(page.getByTestId('free-express')).toHaveText('Free express delivery above ₦2,500,000');
      await page.context().clearCookies();
      await signIn(page, withAddress);
      await addToCart(playwright, info.project.use.baseURL, withAddress);
      await page.goto('/cart');
      await expect(page.getByTestId('shipping-fee')).toHaveText('₦10,000');
      await page.goto('/place-order');
      await expect(page.locator('input[name="deliverySpeed"][value="standard"]')).toBeChecked();
    });

    test('a colour filter shows each card in that colour, and the panel stays open at the listing', async ({ page, request }) => {
      const list = await getJson(request, '/api/v1/products?limit=1');
      const black = (list.data.colors as { id: number; name: string }[]).find((c) => c.name === 'Black') ?? list.data.colors[0];
      await page.goto('/collection');
      const panel = page.locator('details#filters');
      await expect(panel).not.toHaveAttribute('open', '');
      await panel.locator('summary').click();
      await panel.getByRole('link', { name: black.name, exact: true }).click();
      await expect(page).toHaveURL(/#products$/);
      const url = new URL(page.url());
      expect(url.searchParams.get('color')).toBe(String(black.id));
      await expect(page.locator('details#filters')).toHaveAttribute('open', '');
      // The listing is in view: the page kept its place instead of going back to the top.
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
      // Every card is the colour filtered: its picture, its price and its link.
      const filtered = await getJson(request, `/api/v1/products?limit=48&colorId=${black.id}`);
      for (const p of filtered.data.docs as (Card & { images: string[] })[]) {
        expect(p.cardColor, String(p.id)).toBe(black.name);
        const detail = (await getJson(request, `/api/v1/products/${p.id}`)).data;
        const first = detail.images.indexOf(p.images[0]);
        expect([black.name, null], `picture of ${p.id}`).toContain(detail.imageColors[first]);
        const inBlack = detail.variants.filter((v: { color: string }) => v.color === black.name).map((v: { price: number }) => v.price);
        expect(p.price).toBe(Math.min(...inBlack));
        const card = page.locator(`.card[data-product-id="${p.id}"] .card-link`);
        if (p.colorNames.length > 1) await expect(card).toHaveAttribute('href', `/product/${p.id}?color=${encodeURIComponent(black.name)}`);
      }
    });

    test.describe(() => {
      // The store's worker would serve the form's script from its cache, past the page's routes.
      test.use({ serviceWorkers: 'block' });

      test('"add a shipping address" from checkout comes back to checkout with the new address, zip optional in Nigeria', async ({ page, request, playwright }, info) => {
        const email = await newShopper(request, false, 'second');
        await signIn(page, email);
        await addToCart(playwright, info.project.use.baseURL, email);
        await page.goto('/place-order');
        // With scripts, the form's own script is held until the form is filled, as on a slow phone:
        // what was picked before the island ran stays picked.
        let release = () => {};
        const held = new Promise<void>((resolve) => (release = resolve));
        if (js) await page.route(/\/_astro\/AddressForm\.[\w-]+\.js$/, async (route) => {
          await held;
          await route.continue();
        });
        await page.getByRole('link', { name: 'add a shipping address' }).click();
        await expect(page).toHaveURL(/\/add-address\?next=%2Fplace-order/);
        // The courier's number defaults to the account's.
        await expect(page.getByLabel('Phone for delivery')).toHaveValue('+2348031234567');
        await page.getByLabel('Full Name').fill('Kemi Bello');
        await page.getByLabel('State or Province').selectOption('Lagos');
        await page.getByLabel('City').fill('Lekki');
        await page.getByLabel('Address', { exact: true }).fill('5 Admiralty Way');
        await page.getByLabel('Landmark or directions').fill('Opposite the filling station');
        if (js) {
          release();
          await hydrated(page, page.getByRole('button', { name: 'Save Address' }));
          await expect(page.getByLabel('State or Province')).toHaveValue('Lagos');
        }
        await page.getByRole('button', { name: 'Save Address' }).click();
        await expect(page).toHaveURL(/\/place-order/);
        await expect(page.getByText('5 Admiralty Way, Lekki, Lagos, Nigeria')).toBeVisible();
      });
    });

    test('"Change delivery address" delivers this order to another saved or a new address, the default left as it is', async ({ page, request, playwright }, info) => {
      // A shopper whose default address is 5 Admiralty Way (newShopper's), with a second one saved.
      const email = await newShopper(request, true, `order-address-${js ? 'js' : 'nojs'}`);
      await signIn(page, email);
      await addToCart(playwright, info.project.use.baseURL, email);
      await page.goto('/add-address');
      await page.getByLabel('Full Name').fill('Kemi Bello');
      await page.getByLabel('State or Province').selectOption('Lagos');
      await page.getByLabel('City').fill('Victoria Island');
      await page.getByLabel('Address', { exact: true }).fill('3 Adeola Odeku Street');
      await page.getByRole('button', { name: 'Save Address' }).click();
      await expect(page).toHaveURL(/\/address-history/);

      await page.goto('/place-order');
      await page.getByRole('link', { name: 'Change delivery address' }).click();
      await expect(page).toHaveURL(/\/place-order\/address$/);
      await expect(page.getByRole('heading', { name: 'Delivery address' })).toBeVisible();
      await page.getByRole('radio', { name: /3 Adeola Odeku Street/ }).check();
      await page.getByRole('button', { name: 'Deliver here' }).click();
      await expect(page).toHaveURL(/\/place-order(\?|$)/);
      await expect(page.getByRole('group', { name: 'Delivery address' })).toContainText('3 Adeola Odeku Street, Victoria Island, Lagos, Nigeria');
      await expect(page.getByText('This order will be delivered to the address you chose.')).toBeVisible();

      // A new address, for this order only: back at checkout with it, and the default still the first.
      await page.getByRole('link', { name: 'Change delivery address' }).click();
      await page.getByRole('link', { name: 'Add a new address' }).click();
      await expect(page.getByLabel('Set as default address')).not.toBeChecked();
      await page.getByLabel('Full Name').fill('Kemi Bello');
      await page.getByLabel('State or Province').selectOption('Lagos');
      await page.getByLabel('City').fill('Lekki');
      await page.getByLabel('Address', { exact: true }).fill('9 Admiralty Way');
      await page.getByRole('button', { name: 'Save Address' }).click();
      await expect(page).toHaveURL(/\/place-order(\?|$)/);
      await expect(page.getByRole('group', { name: 'Delivery address' })).toContainText('9 Admiralty Way, Lekki, Lagos, Nigeria');
      await page.goto('/address-history');
      await expect(page.locator('.addr-card.addr-default')).toContainText('5 Admiralty Way');
      await expect(page.locator('.addr-card')).toHaveCount(3);
    });
  });
}

test.describe('at 1366 px', { tag: '@desktop' }, () => {
  test.use({ viewport: { width: 1366, height: 900 } });
  test.beforeEach(({}, info) => test.skip(info.project.name !== 'desktop', 'a desktop suite'));

  test('the "From" card, the cart\'s delivery line, the address form and the waiting page', async ({ page, request, playwright }, info) => {
    const product = await pricedFromProduct(request);
    const email = await newShopper(request, false, 'second');
    await page.goto('/collection');
    const card = page.locator(`.card[data-product-id="${product.id}"]`);
    await expect(card.locator('.card-price')).toHaveText(/^From ₦/);
    await card.scrollIntoViewIfNeeded();

    await signIn(page, email);
    await addToCart(playwright, info.project.use.baseURL, email);
    await page.goto('/cart');
    await expect(page.getByTestId('shipping-fee')).toHaveText('Delivery from ₦5,000');

    await page.goto('/add-address?next=%2Fplace-order');
    await expect(page.getByLabel('Landmark or directions')).toBeVisible();

    // Pickup (no address): pay by bank transfer and come back waiting for it.
    await page.goto('/place-order');
    await page.getByRole('button', { name: 'PAY & PLACE ORDER' }).click();
    await expect(page).toHaveURL(/\/pay\/simulated\//);
    await page.getByRole('navigation', { name: 'Pay with' }).getByRole('link', { name: 'Bank transfer' }).click();
    await page.getByRole('form', { name: 'Bank transfer' }).getByRole('button', { name: 'I have sent the money' }).click();
    await expect(page.getByRole('heading', { name: 'Waiting for your transfer' })).toBeVisible();
    await expect(page).toHaveURL(/\/order-details\/[^/?]+\?placed=1/, { timeout: 30_000 });
  });
});
