import { expect, test, type Page } from '@playwright/test';
import { eq, sql } from 'drizzle-orm';
import { hashPassword } from '@/lib/server/accounts/passwords';
import { users } from '@/lib/server/accounts/tables';
import type { Services } from '@/lib/server/services';
import { startServer, type RunningServer } from '../support/server';
import { placePodOrder, podShopper, prepareStore, type PodOrder, type PreparedStore } from '../support/pod-orders';
import { driverOf, purchaseReady } from './support';

/**
 * After the sale at 360 px, with and without JavaScript: a shopper asks to exchange a
 * delivered piece for another size ("Too small"), staff approve, receive and ship it from "Returns";
 * another piece is refunded to the payment; staff grant store credit and the shopper spends it at
 * checkout; an order delivered five days ago says its window closed. The orders are placed before
 * the store starts (tests/support/pod-orders.ts), on its own server on the run's driver.
 */
const OWNER = { email: 'owner@maisonluxe.ng', password: 'LuxeOwner2026!' };
const PASSWORD = 'Lagos-2026!';

interface Set {
  email: string;
  exchange: PodOrder;
  refund: PodOrder;
  closed: PodOrder;
  /** A piece whose other size costs ₦10,000 more: the dearer exchange. */
  dearer: PodOrder;
}

let store: PreparedStore;
let server: RunningServer;
let sets: { js: Set; nojs: Set };

test.describe.configure({ mode: 'serial' });

/** Two variants of one product at one Nigerian price, both in stock: a piece and its exchange. */
async function pieceWithSibling(services: Services, skip: number): Promise<number> {
  const res = await services.db.execute(sql`
    select a.id as a from variants a
    join variants b on b.product_id = a.product_id and b.id <> a.id
    join variant_prices pa on pa.variant_id = a.id and pa.market = 'NG'
    join variant_prices pb on pb.variant_id = b.id and pb.market = 'NG'
    where a.stock >= 6 and b.stock >= 6 and pa.price_minor = pb.price_minor
    order by a.id offset ${skip} limit 1`);
  return Number((((res as any).rows ?? res) as { a: number }[])[0]!.a);
}

/** A piece whose sibling variant is made ₦10,000 dearer in Nigeria: the exchange asks for the difference. */
async function pieceWithDearerSibling(services: Services, skip: number): Promise<number> {
  const res = await services.db.execute(sql`
    select a.id as a, min(b.id) as b from variants a
    join variants b on b.product_id = a.product_id and b.id <> a.id
    join variant_prices pa on pa.variant_id = a.id and pa.market = 'NG'
    join variant_prices pb on pb.variant_id = b.id and pb.market = 'NG'
    where a.stock >= 6 and b.stock >= 6 and pa.price_minor = pb.price_minor
    group by a.id order by a.id desc offset ${skip} limit 1`);
  const row = (((res as any).rows ?? res) as { a: number; b: number }[])[0]!;
  await services.db.execute(sql`update variant_prices set price_minor = price_minor + 1000000 where variant_id = ${Number(row.b)} and market = 'NG'`);
  return Number(row.a);
}

async function prepareSet(services: Services, skip: number): Promise<Set> {
  const shopper = await podShopper(services);
  await services.db.update(users).set({ passwordHash: await hashPassword(PASSWORD) }).where(eq(users.id, shopper.id));
  const delivered = async (variantId: number, deliveredOn?: string) => {
    const order = await placePodOrder(services, { userId: shopper.id, email: shopper.email, variantId, depositPercent: 100 });
    if (deliveredOn) await services.db.execute(sql`update orders set created_at = now() - interval '10 days' where id = ${order.id}`);
    await services.orders.setStatus(order.id, 'processed');
    await services.orders.setStatus(order.id, 'delivered', undefined, deliveredOn ? { deliveredOn } : {});
    return order;
  };
  const fiveDaysAgo = new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10);
  return {
    email: shopper.email,
    exchange: await delivered(await pieceWithSibling(services, skip)),
    refund: await delivered(await pieceWithSibling(services, skip + 1)),
    closed: await delivered(await pieceWithSibling(services, skip + 2), fiveDaysAgo),
    // Picked from the other end of the catalogue, so the price change leaves the pieces above alone.
    dearer: await delivered(await pieceWithDearerSibling(services, skip)),
  };
}

test.beforeAll(async ({}, testInfo) => {
  const driver = driverOf(testInfo);
  test.setTimeout(180_000);
  const prepared = await prepareStore(driver, async (services) => ({ js: await prepareSet(services, 0), nojs: await prepareSet(services, 4) }));
  store = prepared.store;
  sets = prepared.value;
  server = await startServer(driver, store.dataDir ? { DATA_DIR: store.dataDir } : {}, store.databaseUrl ? { databaseUrl: store.databaseUrl } : {});
});

test.afterAll(async () => {
  await server?.stop();
  await store?.drop();
});

const url = (path: string) => `${server.baseUrl}${path}`;
const shown = (page: Page, text: string) => page.getByText(text, { exact: false }).first();

async function shopperSignIn(page: Page, email: string) {
  await page.goto(url('/login'));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((u) => u.pathname === '/');
}

async function ownerSignIn(page: Page) {
  await page.goto(url('/admin'));
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((u) => u.pathname === '/login/verify-device');
  const mail = await (await page.request.get(url(`/api/v1/dev/outbox?to=${encodeURIComponent(OWNER.email)}`))).json();
  await page.getByLabel('Code', { exact: true }).fill(/code is (\d{4})/.exec(mail[0].text)![1]!);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
}

/** The shopper asks for a return of the order's one line (brought to the boutique unless `method` says otherwise). */
async function askForReturn(page: Page, order: PodOrder, reason: string, resolution: string, method?: string) {
  await page.goto(url(`/order-details/${order.id}`));
  await page.getByRole('button', { name: 'Return or exchange' }).click();
  await expect(page.getByRole('heading', { name: 'Return or exchange' })).toBeVisible();
  await page.getByLabel(reason).check();
  await page.getByLabel(resolution).check();
  if (resolution === 'Exchange for another size or colour') await page.getByLabel(/^New size or colour/).selectOption({ index: 1 });
  if (method) await page.getByLabel(method).check();
  await page.getByRole('button', { name: 'Request return' }).click();
  await expect(shown(page, 'Return requested')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/order-details/${order.id}`));
  await expect(page.locator('[data-return-status]').first()).toHaveText('Requested');
  // What happens next, said in full under the return: its reference, how the pieces come back, what to pack.
  const next = page.getByTestId('return-next-steps').first();
  await expect(next.getByRole('heading', { name: 'What happens next' })).toBeVisible();
  await expect(next).toContainText(/Your return RT-\w+ is with us/);
  await expect(next).toContainText('Pack each piece as it came');
  await expect(next).toContainText(/courier collects the pieces|bring the pieces to/);
}

/** Staff add an update to the return's parcel (the store's own courier) from the return's page. */
async function parcelUpdate(page: Page, parcel: 'Return collection' | 'Exchange', happened: string, note = '') {
  const form = page.getByTestId('admin-shipment').filter({ has: page.getByRole('heading', { name: parcel, exact: true }) }).getByTestId('shipment-event-form');
  await form.getByLabel('What happened').selectOption({ label: happened });
  if (note) await form.getByLabel('Note for the shopper').fill(note);
  await form.getByRole('button', { name: 'Add update' }).click();
  await expect(shown(page, 'Delivery update added.')).toBeVisible();
  // Back on the return's page, where the form was.
  await expect(page).toHaveURL(/\/admin\/returns\//);
}

/** Staff open the order's return from the "Returns" queue and take each step. */
async function staffSteps(page: Page, order: PodOrder, steps: { button: string; done: string; fill?: [string, string] }[]) {
  await page.goto(url('/admin'));
  await page.getByRole('link', { name: 'Returns', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Returns' })).toBeVisible();
  await page.locator('tr').filter({ hasText: order.trackingNumber }).getByRole('link').first().click();
  for (const step of steps) {
    if (step.fill) await page.getByLabel(step.fill[0], { exact: true }).fill(step.fill[1]);
    await page.getByRole('button', { name: step.button, exact: true }).click();
    await expect(shown(page, step.done)).toBeVisible();
  }
}

for (const js of [true, false]) {
  test.describe(js ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled: js, viewport: { width: 360, height: 740 } });
    const set = () => (js ? sets.js : sets.nojs);

    test('an exchange for another size, collected by the courier: requested by the shopper, approved, received and shipped by staff; the shopper follows both parcels', async ({ browser }) => {
      const shopper = await browser.newPage({ javaScriptEnabled: js, viewport: { width: 360, height: 740 } });
      await shopperSignIn(shopper, set().email);
      await askForReturn(shopper, set().exchange, 'Too small', 'Exchange for another size or colour', 'Collect from my delivery address');
      const staff = await browser.newPage({ javaScriptEnabled: js, viewport: { width: 360, height: 740 } });
      await ownerSignIn(staff);
      // Approving books the collection with the market's courier (the store's own here); its rider's updates go on the return's page.
      await staffSteps(staff, set().exchange, [{ button: 'Approve', done: 'Return approved' }]);
      await expect(staff.getByTestId('admin-shipment')).toContainText(/Maison Luxe delivery · Booked · MLD-[0-9A-F]{10}/);
      await parcelUpdate(staff, 'Return collection', 'Collected from you', 'Collected in Ikeja');
      await parcelUpdate(staff, 'Return collection', 'Delivered to the store');
      await shopper.reload();
      const collection = shopper.getByTestId('return-return');
      await expect(collection.getByRole('heading', { name: 'Collection' })).toBeVisible();
      await expect(collection.locator('li[data-event]').first()).toHaveAttribute('data-event', 'delivered');
      await expect(collection).toContainText('Delivered to the store');
      await expect(collection).toContainText('Collected in Ikeja');

      // Shipping the replacement asks for no number: the courier's booking gives it.
      await staffSteps(staff, set().exchange, [
        { button: 'Mark received', done: 'Return received' },
        { button: 'Ship exchange', done: 'Exchange shipped' },
      ]);
      const replacementPanel = staff.getByTestId('admin-shipment').filter({ has: staff.getByRole('heading', { name: 'Exchange', exact: true }) });
      await expect(replacementPanel).toContainText(/Maison Luxe delivery · Booked · MLD-[0-9A-F]{10}/);
      const parcelNumber = /MLD-[0-9A-F]{10}/.exec((await replacementPanel.textContent()) ?? '')![0];
      await parcelUpdate(staff, 'Exchange', 'In transit', 'Left the Ikoyi boutique');
      await shopper.reload();
      await expect(shopper.locator('[data-return-status]').first()).toHaveText('Exchanged');
      const replacement = shopper.getByTestId('return-exchange');
      await expect(replacement.getByRole('heading', { name: 'Your new piece' })).toBeVisible();
      await expect(replacement).toContainText('Maison Luxe delivery');
      await expect(replacement.getByTestId('shipment-tracking')).toHaveText(parcelNumber);
      await expect(replacement.locator('li[data-event]').first()).toHaveAttribute('data-event', 'in_transit');
      await expect(replacement).toContainText('Left the Ikoyi boutique');
      await expect(replacement).toContainText('Booked with the courier');
      // "On its way" reaches the shopper as an order's update does.
      const mails = (await (await shopper.request.get(url(`/api/v1/dev/outbox?to=${encodeURIComponent(set().email)}`))).json()) as { subject: string }[];
      expect(mails.some((m) => m.subject === `Your order is on its way (${set().exchange.trackingNumber})`)).toBe(true);
      await shopper.locator(`[data-return-status]`).first().scrollIntoViewIfNeeded();
      await shopper.setViewportSize({ width: 1366, height: 900 });
      await staff.close();
      await shopper.close();
    });

    test('a dearer exchange: the shopper pays the difference online, then staff approve it', async ({ browser }) => {
      const shopper = await browser.newPage({ javaScriptEnabled: js, viewport: { width: 360, height: 740 } });
      await shopperSignIn(shopper, set().email);
      const order = set().dearer;
      await shopper.goto(url(`/order-details/${order.id}`));
      await shopper.getByRole('button', { name: 'Return or exchange' }).click();
      await shopper.getByLabel('Too small').check();
      await shopper.getByLabel('Exchange for another size or colour').check();
      const dearer = shopper.getByLabel(/^New size or colour/).locator('option', { hasText: '₦10,000 more, paid online' });
      await shopper.getByLabel(/^New size or colour/).selectOption((await dearer.first().getAttribute('value'))!);
      await shopper.getByRole('button', { name: 'Request return' }).click();
      await expect(shown(shopper, 'Return requested')).toBeVisible();
      await expect(shown(shopper, 'The new piece costs ₦10,000 more.')).toBeVisible();

      // Staff cannot approve it before the difference is paid.
      const staff = await browser.newPage({ javaScriptEnabled: js, viewport: { width: 360, height: 740 } });
      await ownerSignIn(staff);
      await staffSteps(staff, order, []);
      await staff.getByRole('button', { name: 'Approve', exact: true }).click();
      await expect(shown(staff, 'The shopper has not paid the difference yet.')).toBeVisible();

      await shopper.getByRole('button', { name: 'Pay the difference' }).click();
      await expect(shopper).toHaveURL(/\/pay\/simulated\//);
      await shopper.getByRole('button', { name: 'Pay ₦10,000' }).click();
      await shopper.waitForURL((u) => u.pathname === `/order-details/${order.id}`);
      await expect(shown(shopper, 'Thank you: the difference is paid. We will review your exchange shortly.')).toBeVisible();
      await expect(shown(shopper, 'Difference paid: ₦10,000')).toBeVisible();
      await staff.reload();
      await staff.getByRole('button', { name: 'Approve', exact: true }).click();
      await expect(shown(staff, 'Return approved')).toBeVisible();
      await staff.close();
      await shopper.close();
    });

    test('a refund to the payment: the shopper asks, staff receive and refund it once', async ({ browser }) => {
      const shopper = await browser.newPage({ javaScriptEnabled: js, viewport: { width: 360, height: 740 } });
      await shopperSignIn(shopper, set().email);
      await askForReturn(shopper, set().refund, 'Not as described', 'Refund to my payment');
      const staff = await browser.newPage({ javaScriptEnabled: js, viewport: { width: 360, height: 740 } });
      await ownerSignIn(staff);
      await staffSteps(staff, set().refund, [
        { button: 'Approve', done: 'Return approved' },
        { button: 'Mark received', done: 'Return received' },
        { button: 'Refund', done: 'Refund sent' },
      ]);
      await expect(staff.getByRole('button', { name: 'Refund', exact: true })).toHaveCount(0);
      await shopper.reload();
      await expect(shopper.locator('[data-return-status]').first()).toHaveText('Refunded');
      await expect(shown(shopper, 'Refunded to your payment: ₦')).toBeVisible();
      const mails = await (await shopper.request.get(url(`/api/v1/dev/outbox?to=${encodeURIComponent(set().email)}`))).json();
      expect((mails as { subject: string }[]).some((m) => m.subject.startsWith('Your return: refunded'))).toBe(true);
      await staff.close();
      await shopper.close();
    });

    test('store credit granted by staff, shown on /profile and spent at checkout', async ({ browser }) => {
      const staff = await browser.newPage({ javaScriptEnabled: js, viewport: { width: 360, height: 740 } });
      await ownerSignIn(staff);
      const shopperId = set().exchange.userId;
      await staff.goto(url(`/admin/customers/${shopperId}`));
      await staff.getByLabel('Amount').fill('5000000');
      await staff.getByLabel('Currency').selectOption('NGN');
      await staff.getByLabel('Reason').fill('Goodwill for a late delivery');
      await staff.getByRole('button', { name: 'Update credit' }).click();
      await expect(shown(staff, 'Store credit updated')).toBeVisible();
      await staff.close();

      const shopper = await browser.newPage({ javaScriptEnabled: js, viewport: { width: 360, height: 740 } });
      await shopperSignIn(shopper, set().email);
      await shopper.goto(url('/profile'));
      await expect(shopper.getByText('Store credit: ₦5,000,000')).toBeVisible();
      // One piece without sizes in the cart, then checkout.
      const product = (await (await shopper.request.get(url('/api/v1/products?limit=40&sort=low-high'))).json()).data.docs.find((p: { sizeNames: string[] }) => p.sizeNames.length === 0);
      const detail = (await (await shopper.request.get(url(`/api/v1/products/${product.id}`))).json()).data;
      const variant = detail.variants.find((v: { stock: number }) => v.stock > 1);
      await shopper.goto(url(`/product/${product.id}`));
      if (js) await purchaseReady(shopper);
      if (variant.color) await shopper.getByRole('radio', { name: variant.color, exact: true }).check({ force: true });
      await shopper.getByRole('button', { name: 'ADD TO CART' }).click();
      if (js) await expect(shopper.getByText('Product added to cart successfully!')).toBeVisible();
      else await shopper.waitForURL(/\/cart/);
      await shopper.goto(url('/place-order'));
      // No saved address: the order is picked up (free), so the total is the piece's price.
      await shopper.getByLabel('Use my store credit').check();
      await shopper.getByRole('button', { name: /PLACE ORDER/ }).click();
      if (js) await expect(shopper.getByText('Order placed successfully!')).toBeVisible();
      else await expect(shown(shopper, 'Order placed successfully!')).toBeVisible();
      const user = (await (await shopper.request.get(url('/api/v1/user-auth/get-user'))).json()).data;
      expect(user.storeCredit).toBeLessThan(5_000_000);
      expect(user.storeCredit).toBe(5_000_000 - detail.variants.find((v: { id: number }) => v.id === variant.id).price);
      await shopper.goto(url('/profile'));
      await expect(shopper.getByText(`Store credit: ₦${user.storeCredit.toLocaleString('en-NG')}`)).toBeVisible();
      await shopper.close();
    });

    test('help with an order: the shopper writes, staff answer from "Help requests", the answer shows on the order', async ({ browser }) => {
      const shopper = await browser.newPage({ javaScriptEnabled: js, viewport: { width: 360, height: 740 } });
      await shopperSignIn(shopper, set().email);
      await shopper.goto(url(`/order-details/${set().closed.id}`));
      await expect(shopper.getByRole('heading', { name: 'Get help with this order' })).toBeVisible();
      await shopper.getByLabel('Topic').selectOption({ label: 'Where is my order?' });
      await shopper.getByLabel('Message', { exact: true }).fill('Could it come on Saturday?');
      await shopper.getByRole('button', { name: 'Send', exact: true }).click();
      await expect(shown(shopper, 'Your message has been sent. We will answer by e-mail.')).toBeVisible();
      const staff = await browser.newPage({ javaScriptEnabled: js, viewport: { width: 360, height: 740 } });
      await ownerSignIn(staff);
      await staff.getByRole('link', { name: 'Help requests', exact: true }).click();
      await staff.locator('tr').filter({ hasText: set().closed.trackingNumber }).getByRole('link').first().click();
      await expect(staff.getByText('Could it come on Saturday?')).toBeVisible();
      await staff.getByLabel('Answer').fill('Yes: our courier will call you on Saturday morning.');
      await staff.getByRole('button', { name: 'Send answer' }).click();
      await expect(shown(staff, 'Answer sent')).toBeVisible();
      await shopper.reload();
      await expect(shopper.getByText('Yes: our courier will call you on Saturday morning.')).toBeVisible();
      await staff.close();
      await shopper.close();
    });

    test('after the 3-day window the order page says when it closed, and offers no return', async ({ page }) => {
      await shopperSignIn(page, set().email);
      await page.goto(url(`/order-details/${set().closed.id}`));
      await expect(page.getByText(/^The 3-day return window for this order closed on \d{1,2} [A-Z][a-z]+ \d{4}\.$/)).toBeVisible();
      await expect(page.getByRole('button', { name: 'Return or exchange' })).toHaveCount(0);
    });
  });
}
