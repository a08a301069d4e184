import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { newShopper, purchaseReady, SHOPPER_PASSWORD, signIn, twoColourProduct } from './support';

/**
 * Storefront pages (spec section 2): home, side menu, collection with filters and sort,
 * product page, content pages, 404s, sitemap/robots, JSON-LD and accessibility.
 * Runs at phone width; the sections tagged @desktop (what the layout changes) also at 1366 px.
 */

/**
 * Waits until a home page section's plain script has taken it over (it sets `data-enhanced`):
 * the home page has no React islands (ADR 0017).
 */
async function enhanced(page: Page, selector: string) {
  const section = page.locator(selector);
  await section.scrollIntoViewIfNeeded();
  await expect(section).toHaveAttribute('data-enhanced', '', { timeout: 15_000 });
  return section;
}

const latest = (page: Page) => page.locator('#latest-collections');
const bestSellers = (page: Page) => page.locator('#best-sellers');
const cards = (section: ReturnType<Page['locator']>) => section.locator('article.card');

async function firstProductId(page: Page): Promise<number> {
  const res = await page.request.get('/api/v1/products?limit=1');
  const body = await res.json();
  return body.data.docs[0].id as number;
}

async function parentCategories(page: Page): Promise<{ id: number; name: string; subCategories: { id: number; name: string }[] }[]> {
  const res = await page.request.get('/api/v1/category/parent-categories');
  return (await res.json()).data.data;
}

async function openFilters(page: Page) {
  const details = page.locator('details#filters');
  if (!(await details.evaluate((d: HTMLDetailsElement) => d.open))) await details.locator('summary').click();
}

async function seriousA11yViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')})`);
}

test.describe('home', { tag: '@desktop' }, () => {
  test('shows the spec texts, promises, newsletter box and footer', async ({ page }) => {
    const res = await page.goto('/');
    expect(res?.status()).toBe(200);
    // Browsers revalidate (ETag); the server answers from its route cache.
    expect(res?.headers()['cache-control']).toBe('no-cache');
    await expect(page).toHaveTitle(/Maison Luxe/);
    await expect(page.getByRole('heading', { name: 'LATEST COLLECTIONS' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'BEST SELLERS' })).toBeAttached();
    await expect(page.getByText('Discover our top-selling products that customers love.')).toBeAttached();
    await expect(page.getByRole('heading', { name: 'Easy Exchange Policy' })).toBeAttached();
    await expect(page.getByText('Exchange for another size or colour, hassle free.')).toBeAttached();
    await expect(page.getByRole('heading', { name: '3 Days Return Policy' })).toBeAttached();
    await expect(page.getByText('3 days free return on every order.')).toBeAttached();
    await expect(page.getByText('24/7 customer support, by phone and e-mail.')).toBeAttached();
    await expect(page.getByRole('heading', { name: 'Sunscribe now & get 20% off' })).toBeAttached();
    await expect(page.getByRole('button', { name: 'SUBSCRIBE' })).toBeAttached();
    await expect(page.getByLabel('Email address')).toHaveAttribute('type', 'email');
    const footer = page.locator('footer.site-footer');
    for (const name of ['About Us', 'Privacy Policy', 'Contact Us']) await expect(footer.getByRole('link', { name })).toBeAttached();
    await expect(footer).toContainText('luxury fashion');
  });

  test('banner: first slide painted by the server, upper-case name, SHOP NOW, autoplay advances', async ({ page }) => {
    const parents = await parentCategories(page);
    await page.goto('/');
    const first = page.locator('.hero-slide').first();
    await expect(first.locator('.hero-eyebrow')).toHaveText(parents[0]!.name.toUpperCase());
    await expect(first.getByText('SHOP NOW')).toBeVisible();
    // 'SHOP NOW' leads to the slide's category.
    const slideId = await first.getAttribute('data-slide-id');
    await expect(first.getByRole('link', { name: 'SHOP NOW' })).toHaveAttribute('href', `/collection?categoryId=${slideId}`);
    const firstImg = first.locator('img');
    await expect(firstImg).toHaveAttribute('fetchpriority', 'high');
    await expect(firstImg).toHaveAttribute('loading', 'eager');

    await enhanced(page, '[data-hero]');
    const active = page.locator('.hero-slide.swiper-slide-active');
    const startId = await active.getAttribute('data-slide-id');
    // 4000 ms autoplay: the active slide changes by itself within a few seconds.
    await expect.poll(async () => active.getAttribute('data-slide-id'), { timeout: 9000 }).not.toBe(startId);
    // Keyboard: a pagination bullet is focusable and Enter shows its slide.
    await page.waitForTimeout(900); // let the autoplay's slide transition (700 ms) finish
    const third = page.locator('.hero .swiper-pagination-bullet').nth(2);
    await third.focus();
    await page.keyboard.press('Enter');
    await expect(active).toHaveAttribute('data-slide-id', String(parents[2]!.id), { timeout: 2000 });
    // Clicking a pagination bullet does not stop the autoplay (disableOnInteraction: false).
    await page.locator('.hero .swiper-pagination-bullet').nth(0).click();
    const afterClick = await active.getAttribute('data-slide-id');
    await expect.poll(async () => active.getAttribute('data-slide-id'), { timeout: 9000 }).not.toBe(afterClick);
  });

  test('banner: Swiper is fetched only when the slideshow is needed', async ({ page }) => {
    const swiperFetched: string[] = [];
    page.on('request', (r) => {
      if (/hero-swiper/.test(r.url())) swiperFetched.push(r.url());
    });
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    // Well before its first turn (4 s), nothing of the slideshow has been downloaded.
    await page.waitForTimeout(1500);
    expect(swiperFetched).toEqual([]);
    await expect(page.locator('[data-hero]')).not.toHaveAttribute('data-enhanced', '');
    // The shopper reaches for it (keyboard focus on SHOP NOW): the slideshow starts, its bullets appear.
    await page.locator('.hero-slide').first().getByRole('link', { name: 'SHOP NOW' }).focus();
    await expect(page.locator('[data-hero]')).toHaveAttribute('data-enhanced', '', { timeout: 5000 });
    expect(swiperFetched.length).toBe(1);
    await expect(page.locator('.hero .swiper-pagination-bullet').first()).toBeVisible();
  });

  test('LATEST COLLECTIONS shows 10, Discover More adds 10 and disappears when all are shown', async ({ page }) => {
    const all = (await (await page.request.get('/api/v1/products/organised/latest')).json()).data.docs as unknown[];
    await page.goto('/');
    const section = latest(page);
    await expect(cards(section)).toHaveCount(10);
    await enhanced(page, '#latest-collections');
    const more = section.getByRole('button', { name: 'Discover More' });
    await more.click();
    await expect(cards(section)).toHaveCount(Math.min(20, all.length));
    while (await more.isVisible()) await more.click();
    await expect(cards(section)).toHaveCount(all.length);
    await expect(more).toHaveCount(0);
  });

  test('BEST SELLERS shows 5, Discover More adds 5 and disappears when all are shown', async ({ page }) => {
    const all = (await (await page.request.get('/api/v1/products/organised/best-sellers')).json()).data.docs as unknown[];
    await page.goto('/');
    const section = bestSellers(page);
    await expect(cards(section)).toHaveCount(5);
    await enhanced(page, '#best-sellers');
    const more = section.getByRole('button', { name: 'Discover More' });
    await more.click();
    await expect(cards(section)).toHaveCount(Math.min(10, all.length));
    while (await more.isVisible()) await more.click();
    await expect(cards(section)).toHaveCount(all.length);
    await expect(more).toHaveCount(0);
  });

  test('placeholder cards fill the visible count while the list loads', async ({ page }) => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await page.route('**/api/v1/products/organised/latest', async (route) => {
      await gate;
      await route.continue();
    });
    await page.goto('/');
    const section = latest(page);
    await enhanced(page, '#latest-collections');
    await section.getByRole('button', { name: 'Discover More' }).click();
    // 20 visible while loading: the 10 server-rendered cards plus 10 placeholders.
    await expect(section.locator('[data-skeleton]')).toHaveCount(10);
    await expect(cards(section)).toHaveCount(10);
    release();
    await expect(section.locator('[data-skeleton]')).toHaveCount(0);
    await expect(cards(section)).toHaveCount(20);
  });

  test('failed lists stay empty and toast the spec messages', async ({ page }) => {
    await page.route('**/api/v1/products/organised/latest', (route) => route.fulfill({ json: { status: false, message: 'down' } }));
    await page.route('**/api/v1/products/organised/best-sellers', (route) => route.abort('failed'));
    await page.goto('/');
    await enhanced(page, '#latest-collections');
    await expect(page.getByText('Failed to fetch latest products')).toBeVisible();
    await expect(cards(latest(page))).toHaveCount(0);
    await enhanced(page, '#best-sellers');
    await expect(page.getByText('An error occurred while fetching best sellers')).toBeVisible();
    await expect(cards(bestSellers(page))).toHaveCount(0);
  });

  test('newsletter subscribes, and a second sign-up gets the same thank-you (the box tells nobody who is subscribed)', async ({ page }) => {
    const email = `news-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
    await page.goto('/');
    await enhanced(page, '[data-newsletter-form]');
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'SUBSCRIBE' }).click();
    await expect(page.getByText('Thank you for subscribing.')).toBeVisible();
    await page.getByLabel('Email address').fill(email.toUpperCase());
    const [again] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/v1/newsletter/subscribe')),
      page.getByRole('button', { name: 'SUBSCRIBE' }).click(),
    ]);
    expect(again.status()).toBe(202);
    expect((await again.json()).message).toBe('Thank you for subscribing. Our e-mail has the next step.');
    await expect(page.getByText('You are already subscribed to our newsletter.')).toHaveCount(0);
  });
});

test.describe('chrome', { tag: '@desktop' }, () => {
  test('side menu lists parent categories, closes on Escape, and a choice opens its collection with sub-categories', async ({ page }) => {
    const parents = await parentCategories(page);
    const bags = parents[0]!;
    await page.goto('/');
    const menu = page.getByRole('navigation', { name: 'Shop by category' });
    await expect(menu).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(menu).toBeVisible();
    for (const p of parents) await expect(menu.getByRole('link', { name: p.name, exact: true })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
    // Keyboard: Space opens it again and focus moves into the menu.
    await page.keyboard.press(' ');
    await expect(menu).toBeVisible();
    await expect.poll(() => page.evaluate(() => document.querySelector('#side-menu')?.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('link', { name: bags.name, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/collection\\?categoryId=${bags.id}$`));
    // The menu comes back showing the chosen parent's sub-categories.
    await expect(menu).toBeVisible();
    const sub = bags.subCategories[0]!;
    await expect(menu.getByRole('link', { name: sub.name, exact: true }).filter({ visible: true })).toBeVisible();
    await menu.getByRole('link', { name: sub.name, exact: true }).filter({ visible: true }).click();
    await expect(page).toHaveURL(new RegExp(`subCategory=${sub.id}`));
  });

  test('profile icon goes to /register when logged out; the search bar shows on collection paths and searches', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Create an account or log in' })).toHaveAttribute('href', '/register');
    await expect(page.locator('#search-bar')).toHaveCount(0);
    await page.goto('/collection');
    const search = page.getByRole('searchbox', { name: 'Search products' });
    await expect(search).toBeVisible();
    await page.getByRole('button', { name: 'Show or hide search' }).click();
    await expect(search).toBeHidden();
    await page.getByRole('button', { name: 'Show or hide search' }).click();
    await search.fill('tote');
    await search.press('Enter');
    await expect(page).toHaveURL(/\/collection\?q=tote/);
    const names = await page.locator('.card-name').allTextContents();
    expect(names.length).toBeGreaterThan(0);
    expect(names.some((n) => /tote/i.test(n))).toBe(true);
  });

  test('logged in: profile menu with My Profile and LogOut, menu footer with My Profile, Orders, Logout', async ({ page }) => {
    const email = await newShopper(page.request, false);
    const login = await page.request.post('/api/v1/user-auth/login', { data: { email, password: SHOPPER_PASSWORD } });
    expect(login.ok()).toBe(true);
    const res = await page.goto('/collection');
    expect(res?.headers()['cache-control']).toContain('private');
    const account = page.getByRole('button', { name: /Account menu for/ });
    await account.click();
    await expect(page.locator('#profile-menu-list').getByRole('link', { name: 'My Profile' })).toBeVisible();
    await expect(page.locator('#profile-menu-list').getByRole('button', { name: 'LogOut' })).toBeVisible();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Shop by category' });
    await expect(menu.getByRole('link', { name: 'My Profile' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Orders' })).toHaveAttribute('href', '/order-history');
    await menu.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('link', { name: 'Create an account or log in' })).toBeVisible();
  });
});

test.describe('collection', { tag: '@desktop' }, () => {
  test('filters toggle their query parameter on and off', async ({ page }) => {
    const parents = await parentCategories(page);
    const clothing = parents.find((p) => p.name === 'Clothing') ?? parents[1]!;
    await page.goto(`/collection?categoryId=${clothing.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(clothing.name);
    await openFilters(page);

    for (const param of ['color', 'size', 'subCategory']) {
      const chip = page.locator(`a[data-filter="${param}"]`).first();
      const value = await chip.getAttribute('data-value');
      await chip.click();
      // the tap lands on the listing (#products) with the panel open
      await expect(page).toHaveURL(new RegExp(`[?&]${param}=${value}(&|#|$)`));
      await expect(page.locator('details#filters')).toHaveAttribute('open', '');
      await expect(page).toHaveURL(new RegExp(`categoryId=${clothing.id}`));
      await openFilters(page);
      const active = page.locator(`a[data-filter="${param}"][data-value="${value}"]`);
      await expect(active).toHaveAttribute('aria-current', 'true');
      await active.click();
      await expect(page).not.toHaveURL(new RegExp(`${param}=`));
      await openFilters(page);
    }
  });

  test('cards show name, id and price, and the filters really filter', async ({ page }) => {
    const parents = await parentCategories(page);
    const bags = parents[0]!;
    const sub = bags.subCategories[0]!;
    await page.goto(`/collection?categoryId=${bags.id}&subCategory=${sub.id}`);
    const card = page.locator('article.card').first();
    await expect(card.locator('.card-id')).toHaveText(/^Ref. \d+$/);
    await expect(card.locator('.card-price')).toHaveText(/^(From )?₦[\d,]+/);
    const ids = await page.locator('article.card').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-product-id'))));
    for (const id of ids.slice(0, 5)) {
      const product = (await (await page.request.get(`/api/v1/products/${id}`)).json()).data;
      expect(product.subCategoryId).toBe(sub.id);
    }
  });

  test('sort Low to High lists prices ascending, High to Low descending', async ({ page }) => {
    await page.goto('/collection');
    await page.getByLabel('Sort by').selectOption({ label: 'Low to High' });
    await expect(page).toHaveURL(/sort=low-high/);
    const asc = await page.locator('.card-price').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-price'))));
    expect(asc.length).toBeGreaterThan(10);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    await page.getByLabel('Sort by').selectOption({ label: 'High to Low' });
    await expect(page).toHaveURL(/sort=high-low/);
    const desc = await page.locator('.card-price').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-price'))));
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    await expect(page.getByLabel('Sort by')).toHaveValue('high-low');
  });

  test('a filter that matches nothing says so; a malformed filter is a 400', async ({ page }) => {
    const res = await page.goto('/collection?color=abc');
    expect(res?.status()).toBe(400);
    await expect(page.getByRole('link', { name: 'See all collections' })).toBeVisible();
    await page.goto('/collection?q=zzzznothing');
    await expect(page.getByText('No products match "zzzznothing".')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Collections');
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await expect(page).toHaveURL(/\/collection$/);
    await expect(page.locator('article.card').first()).toBeVisible();
  });

  test('/Bags-men shows a banner and the Bags Men products', async ({ page }) => {
    const res = await page.goto('/Bags-men');
    expect(res?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: 'Bags Men' })).toBeVisible();
    await expect(page.locator('.bags-banner img')).toBeVisible();
    expect(await page.locator('article.card').count()).toBeGreaterThan(0);
  });
});

test.describe('product page', { tag: '@desktop' }, () => {
  test('gallery thumbnails switch the main image; notes and price are shown', async ({ page }) => {
    const id = await firstProductId(page);
    const product = (await (await page.request.get(`/api/v1/products/${id}`)).json()).data;
    await page.goto(`/product/${id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(product.name);
    await expect(page.locator('.product-price')).toHaveText(/^₦[\d,]+/);
    await expect(page.getByText('100% Original Product.')).toBeVisible();
    await expect(page.getByText('Easy return and exchange policy within 3 days.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'ADD TO CART' })).toBeEnabled();
    await purchaseReady(page);
    const main = page.locator('img[data-main-image]');
    const thumbs = page.locator('.gallery-thumbs button');
    expect(await thumbs.count()).toBeGreaterThan(1);
    const firstHash = await main.getAttribute('data-hash');
    const second = thumbs.nth(1);
    const secondHash = await second.getAttribute('data-hash');
    expect(secondHash).not.toBe(firstHash);
    await second.click();
    await expect(main).toHaveAttribute('data-hash', secondHash!);
    await expect(second).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(() => main.evaluate((img: HTMLImageElement) => img.currentSrc)).toContain(secondHash!);
  });

  test('the pictures follow the colour: choosing another shows its gallery, and the cart line shows its picture', async ({ page }) => {
    const product = await twoColourProduct(page.request);
    const email = await newShopper(page.request, false);
    await signIn(page, email);
    await page.goto(`/product/${product.id}`);
    await purchaseReady(page);
    const main = page.locator('img[data-main-image]');
    await page.locator('.option-group').filter({ hasText: 'Colour' }).getByRole('radio', { name: product.first, exact: true }).check({ force: true });
    expect(product.hashesOf(product.first)).toContain(await main.getAttribute('data-hash'));
    await page.locator('.option-group').filter({ hasText: 'Colour' }).getByRole('radio', { name: product.second, exact: true }).check({ force: true });
    await expect.poll(async () => product.hashesOf(product.second).includes((await main.getAttribute('data-hash'))!)).toBe(true);
    // every thumbnail is a picture of that colour
    for (const hash of await page.locator('.gallery-thumbs button').evaluateAll((bs) => bs.map((b) => b.getAttribute('data-hash')))) {
      expect(product.hashesOf(product.second)).toContain(hash);
    }
    const size = product.variantOf(product.second).size;
    if (size) await page.getByRole('radio', { name: size, exact: true }).check({ force: true });
    await page.getByRole('button', { name: 'ADD TO CART' }).click();
    await expect(page.getByText('Product added to cart successfully!')).toBeVisible();
    await page.goto('/cart');
    const line = page.locator('.cart-line').filter({ hasText: product.name });
    await expect(line).toContainText(`Colour: ${product.second}`);
    const src = await line.locator('img').first().getAttribute('src');
    expect(product.hashesOf(product.second).some((h) => src!.includes(h))).toBe(true);
  });

  test('signed out, the heart says why it asks to sign in, and the shopper comes back to the piece', async ({ page }) => {
    const id = await firstProductId(page);
    await page.goto(`/product/${id}`);
    await page.locator('.product-title-row').getByRole('button', { name: 'Add to favourites' }).click();
    await expect(page).toHaveURL(new RegExp(`/login\\?next=${encodeURIComponent(`/product/${id}`)}`));
    await expect(page.getByRole('status').filter({ hasText: 'Sign in to keep your favourites.' })).toBeVisible();
  });

  test('a colour is preselected; ADD TO CART when logged out asks to log in', async ({ page }) => {
    const id = await firstProductId(page);
    await page.goto(`/product/${id}`);
    await purchaseReady(page);
    await expect(page.getByRole('radio', { checked: true }).first()).toBeChecked();
    await page.getByRole('button', { name: 'ADD TO CART' }).click();
    const toast = page.getByText('Please create an account or login');
    await expect(toast).toBeVisible();
    // The toast is fixed to the viewport (top right), so a shopper scrolled down still sees it.
    await expect(toast).toBeInViewport();
  });

  test('sizes are chosen, not assumed: ADD TO CART without a size says so and adds nothing; with one it adds it and updates the badge', async ({ page }) => {
    const email = await newShopper(page.request, false);
    const login = await page.request.post('/api/v1/user-auth/login', { data: { email, password: SHOPPER_PASSWORD } });
    expect(login.ok()).toBe(true);
    const userId = (await login.json()).data.user.id as string;
    const cartLines = async () => ((await (await page.request.get(`/api/v1/cart/${userId}`)).json()).data?.items?.length ?? 0) as number;
    const before = await cartLines();
    const docs = (await (await page.request.get('/api/v1/products?limit=60&sort=high-low')).json()).data.docs as { id: number; sizeNames: string[] }[];
    const sized = docs.filter((p) => p.sizeNames.length > 1)[test.info().project.name === 'phone' ? 2 : 3]!;
    const detail = (await (await page.request.get(`/api/v1/products/${sized.id}`)).json()).data as { variants: { size: string; color: string | null; stock: number }[] };
    const inStock = detail.variants.find((v) => v.stock > 0)!;
    await page.goto(`/product/${sized.id}`);
    await purchaseReady(page);
    const sizes = page.locator('.option-group').filter({ hasText: 'Size' });
    await expect(sizes.getByRole('radio', { checked: true })).toHaveCount(0);
    // The size guide sits beside the sizes and opens as a sheet over the page.
    await sizes.getByText('Size guide').click();
    const guide = page.getByRole('dialog', { name: 'Size guide' });
    await expect(guide.getByRole('columnheader', { name: 'UK' })).toBeVisible();
    await guide.getByRole('button', { name: 'Close' }).click();
    await expect(guide).toBeHidden();
    await page.getByRole('button', { name: 'ADD TO CART' }).click();
    await expect(page.getByText('Please select a size')).toBeVisible();
    expect(await cartLines()).toBe(before);
    if (inStock.color) await page.getByRole('radio', { name: inStock.color, exact: true }).check({ force: true });
    await sizes.getByRole('radio', { name: inStock.size, exact: true }).check({ force: true });
    await page.getByRole('button', { name: 'ADD TO CART' }).click();
    await expect(page.getByText('Product added to cart successfully!')).toBeVisible();
    const after = await cartLines();
    expect(after).toBe(before + 1);
    await expect(page.locator('[data-cart-count]')).toHaveText(String(after));
    await expect(page.locator('[data-cart-link]')).toHaveAttribute('aria-label', after === 1 ? 'Cart, 1 item' : `Cart, ${after} items`);
  });

  test('JSON-LD has a ProductGroup with an Offer per variant and a BreadcrumbList', async ({ page }) => {
    const id = await firstProductId(page);
    await page.goto(`/product/${id}`);
    const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
    const data = blocks.map((b) => JSON.parse(b));
    const group = data.find((d) => d['@type'] === 'ProductGroup');
    expect(group).toMatchObject({ productGroupID: String(id) });
    const detail = (await (await page.request.get(`/api/v1/products/${id}`)).json()).data;
    // One Product per variant sold here, each with its own Offer at its own price.
    expect(group.hasVariant).toHaveLength(detail.variants.length);
    for (const variant of group.hasVariant) {
      expect(variant['@type']).toBe('Product');
      expect(variant.offers['@type']).toBe('Offer');
      expect(Number(variant.offers.price)).toBeGreaterThan(0);
      expect(variant.offers.priceCurrency).toBe('NGN');
      expect(variant.offers.availability).toMatch(/^https:\/\/schema\.org\/(InStock|OutOfStock)$/);
      expect(variant.offers.hasMerchantReturnPolicy.merchantReturnDays).toBe(3);
      expect(variant.offers.shippingDetails.length).toBeGreaterThan(0);
    }
    const crumbs = data.find((d) => d['@type'] === 'BreadcrumbList');
    expect(crumbs.itemListElement.length).toBe(4);
    expect(crumbs.itemListElement[3].item).toContain(`/product/${id}`);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`/product/${id}$`));
    await expect(page.locator('meta[property="og:type"]')).toHaveAttribute('content', 'product');
  });

  test('unknown and malformed ids answer 404 with Product not found', async ({ page }) => {
    for (const path of ['/product/99999999', '/product/not-a-number']) {
      const res = await page.goto(path);
      expect(res?.status()).toBe(404);
      await expect(page.getByRole('heading', { name: 'Product not found' })).toBeVisible();
    }
  });
});

test.describe('content pages and search engines', () => {
  test('About, Privacy and Contact say what the spec says and load no React', async ({ page }) => {
    await page.goto('/about');
    await expect(page.getByRole('heading', { level: 1, name: 'About Us' })).toBeVisible();
    await expect(page.locator('article.prose')).toContainText('luxury fashion');
    await expect(page.locator('astro-island')).toHaveCount(0);

    await page.goto('/privacy');
    const privacy = page.locator('article.prose');
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
    for (const item of ['name', 'e-mail', 'phone', 'shipping address', 'payment details']) await expect(privacy).toContainText(item);
    await expect(privacy).toContainText('We do not store your payment details');
    await expect(privacy).toContainText('We do not share your data with third parties for marketing');
    await expect(page.locator('astro-island')).toHaveCount(0);

    await page.goto('/contact');
    await expect(page.getByRole('heading', { level: 1, name: 'Contact Us' })).toBeVisible();
    const card = page.locator('address.contact-card').first();
    await expect(card.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/);
    await expect(card.getByRole('link', { name: /\+\d/ })).toHaveAttribute('href', /^tel:\+\d+$/);
    // The boutiques are where checkout offers to collect (one source of store facts), with their Store data.
    await expect(page.locator('[data-boutique="NG"]')).toContainText('22 Awolowo Road, Ikoyi, Lagos');
    await expect(page.locator('[data-boutique="ZA"]')).toContainText('50 Bath Avenue, Rosebank, Johannesburg');
    await expect(page.getByText('Lekki')).toHaveCount(0);
    const stores = await page.locator('script[type="application/ld+json"]').allTextContents();
    expect(stores.map((t) => JSON.parse(t)).filter((d) => d['@type'] === 'Store')).toHaveLength(2);
    await expect(page.locator('astro-island')).toHaveCount(0);
  });

  test('every page has a unique title, a description, a canonical URL and Open Graph tags', async ({ page }) => {
    const id = await firstProductId(page);
    const titles = new Set<string>();
    const paths = ['/', '/collection', `/product/${id}`, '/about', '/privacy', '/contact', '/Bags-men'];
    for (const path of paths) {
      await page.goto(path);
      titles.add(await page.title());
      await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /.{30,}/);
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /^http/);
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', /Maison Luxe/);
      await expect(page.locator('meta[property="og:url"]')).toHaveAttribute('content', /^http/);
    }
    expect(titles.size).toBe(paths.length);
  });

  test('sitemap lists home, content pages, categories and products; robots points to it', async ({ page }) => {
    const id = await firstProductId(page);
    const parents = await parentCategories(page);
    const res = await page.request.get('/sitemap.xml');
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('xml');
    // An index of parts (one sitemap file holds at most 50,000 URLs): the pages', then the products'.
    const index = await res.text();
    expect(index).toMatch(/^<\?xml[^>]*>\s*<sitemapindex /);
    const parts = [...index.matchAll(/<sitemap><loc>([^<]+)<\/loc><\/sitemap>/g)].map((m) => new URL(m[1]!).pathname);
    expect(parts[0]).toBe('/sitemaps/pages.xml');
    let xml = '';
    for (const part of parts) {
      const partRes = await page.request.get(part);
      expect(partRes.status(), part).toBe(200);
      const text = await partRes.text();
      expect(text).toMatch(/^<\?xml[^>]*>\s*<urlset /);
      xml += text;
    }
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    const paths = locs.map((l) => new URL(l).pathname + new URL(l).search);
    for (const p of ['/', '/about', '/privacy', '/contact', `/product/${id}`, `/collection?categoryId=${parents[0]!.id}`]) expect(paths).toContain(p);
    const products = (await (await page.request.get('/api/v1/products?limit=1')).json()).data.totalDocs as number;
    expect(paths.filter((p) => p.startsWith('/product/')).length).toBe(products);
    // Each product's pictures, for image search.
    expect(xml).toMatch(new RegExp(`<loc>[^<]*/product/${id}</loc>.*?<image:image><image:loc>[^<]+/media/`));

    const robots = await (await page.request.get('/robots.txt')).text();
    expect(robots).toMatch(/^User-agent: \*/m);
    expect(robots).toMatch(/^Sitemap: http.*\/sitemap\.xml$/m);
  });

  test('unknown pages answer 404', async ({ page }) => {
    const res = await page.goto('/no-such-page');
    expect(res?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  });
});

test.describe('accessibility', { tag: '@desktop' }, () => {
  const paths = ['/', '/collection', 'PRODUCT', '/Bags-men', '/about', '/privacy', '/contact', '/product/99999999'];
  for (const path of paths) {
    test(`axe finds no serious or critical violations on ${path === 'PRODUCT' ? '/product/{id}' : path}`, async ({ page }) => {
      const target = path === 'PRODUCT' ? `/product/${await firstProductId(page)}` : path;
      await page.goto(target);
      if (path === '/') await enhanced(page, '[data-hero]');
      if (path === 'PRODUCT') await purchaseReady(page);
      expect(await seriousA11yViolations(page)).toEqual([]);
    });
  }

  test('the open side menu passes axe and traps focus', async ({ page }) => {
    await page.goto('/collection');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Shop by category' });
    await expect(menu).toBeVisible();
    await expect.poll(() => page.evaluate(() => document.querySelector('#side-menu')?.contains(document.activeElement))).toBe(true);
    for (let i = 0; i < 12; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.querySelector('#side-menu')?.contains(document.activeElement))).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});

test.describe('phone layout', () => {
  test('no page is wider than the screen, not even while it slides in', async ({ page }) => {
    const id = await firstProductId(page);
    for (const path of ['/', '/collection', `/product/${id}`, '/about', '/login', '/register', '/Bags-men', '/delivery-options']) {
      await page.goto(path, { waitUntil: 'commit' });
      await page.waitForLoadState('domcontentloaded');
      const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
      expect(scroll, path).toBeLessThanOrEqual(client);
    }
  });

  test('every control of the top bar is on the screen, the cart included', async ({ page }) => {
    await page.goto('/');
    const width = page.viewportSize()!.width;
    const bar = page.getByRole('banner');
    for (const control of [bar.getByRole('button', { name: 'Open menu' }), bar.getByRole('link', { name: /home$/ }), bar.getByRole('link', { name: 'Search' }), bar.getByRole('link', { name: /cart/i })]) {
      const box = (await control.boundingBox())!;
      expect(box.x, await control.getAttribute('aria-label') ?? '').toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, await control.getAttribute('aria-label') ?? '').toBeLessThanOrEqual(width);
    }
  });
});

test('on a phone the logo comes first: the market choice is in the menu and at the foot of the page', async ({ page }) => {
  await page.goto('/');
  // Only the slim demo notice sits above the top bar.
  expect((await page.locator('.topbar').boundingBox())!.y).toBeLessThan(30);
  const footer = (await page.locator('.site-footer').boundingBox())!;
  expect((await page.getByLabel('Shop in').boundingBox())!.y).toBeGreaterThan(footer.y);
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page.getByText('Shopping in Nigeria (₦ NGN)')).toBeVisible();
  await page.getByRole('button', { name: 'Shop in South Africa (R ZAR)' }).click();
  await expect(page.getByText('You are now shopping in South Africa (R ZAR)')).toBeVisible();
  await expect(page.getByLabel('Shop in')).toHaveValue('ZA');
});

test('a long e-mail on /profile breaks before the @, never inside a word', async ({ page, request }) => {
  const email = await newShopper(request, true, 'adaeze.okonkwo');
  await signIn(page, email);
  await page.goto('/profile');
  const shown = page.locator('.profile-email');
  await expect(shown).toContainText(email);
  // Each line of the address is a whole part of it: the local part, then @ and the domain.
  const lines = await shown.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });
  expect(lines).toBeLessThanOrEqual(2);
});
