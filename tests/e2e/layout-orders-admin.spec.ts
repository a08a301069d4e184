import { expect, test, type Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { hashPassword } from '@/lib/server/accounts/passwords';
import { returnRequestSchema } from '@/lib/domain/after-sales-input';
import { users } from '@/lib/server/accounts/tables';
import { orderItems } from '@/lib/server/orders/tables';
import { startServer, type RunningServer } from '../support/server';
import { placePodOrder, podShopper, podVariant, prepareStore, type PreparedStore } from '../support/pod-orders';
import { driverOf, fitsTheScreen, SHOPPER_PASSWORD } from './support';

/**
 * The templates layout.spec.ts cannot reach on the shared store, at 320 px, with and without
 * JavaScript: a shopper's delivered order (its page and its return form), the mail links' pages,
 * and every back-office page with the owner signed in. On a store of its own (the order is placed
 * before it starts; the owner's step-up code is this server's alone).
 */
const OWNER = { email: 'owner@maisonluxe.ng', password: 'LuxeOwner2026!' };

test.use({ viewport: { width: 320, height: 640 }, reducedMotion: 'reduce' });
test.describe.configure({ mode: 'serial' });

let store: PreparedStore;
let server: RunningServer;
let facts: { email: string; orderId: string; dueOrderId: string; returnId: string; productId: number; customerId: string };

test.beforeAll(async ({}, testInfo) => {
  const driver = driverOf(testInfo);
  test.setTimeout(180_000);
  const prepared = await prepareStore(driver, async (services) => {
    const shopper = await podShopper(services);
    await services.db.update(users).set({ passwordHash: await hashPassword(SHOPPER_PASSWORD) }).where(eq(users.id, shopper.id));
    const v = await podVariant(services, 'NG', 3, 30);
    const order = await placePodOrder(services, { userId: shopper.id, email: shopper.email, variantId: v.id, depositPercent: 100 });
    await services.orders.setStatus(order.id, 'processed');
    await services.orders.setStatus(order.id, 'delivered');
    // And one still to collect at the door: its page carries the collection form and the courier's panel.
    const due = await placePodOrder(services, { userId: shopper.id, email: shopper.email, variantId: v.id });
    // And a delivered order with a return asked for: the back office's return page has the widest table.
    const returned = await placePodOrder(services, { userId: shopper.id, email: shopper.email, variantId: v.id, depositPercent: 100 });
    await services.orders.setStatus(returned.id, 'processed');
    await services.orders.setStatus(returned.id, 'delivered');
    const [line] = await services.db.select({ id: orderItems.id }).from(orderItems).where(eq(orderItems.orderId, returned.id));
    const ret = await services.returns.request(shopper.id, returned.id, returnRequestSchema.parse({ items: [{ orderItemId: line!.id, quantity: 1 }], reason: 'changed_mind', resolution: 'credit', method: 'drop_off' }));
    return { email: shopper.email, orderId: order.id, dueOrderId: due.id, returnId: ret.id, productId: v.productId, customerId: shopper.id };
  });
  store = prepared.store;
  facts = prepared.value;
  server = await startServer(driver, store.dataDir ? { DATA_DIR: store.dataDir } : {}, store.databaseUrl ? { databaseUrl: store.databaseUrl } : {});
});

test.afterAll(async () => {
  await server?.stop();
  await store?.drop();
});

const url = (path: string) => `${server.baseUrl}${path}`;

async function shopperSignIn(page: Page) {
  await page.goto(url('/login'));
  await page.getByLabel('Email').fill(facts.email);
  await page.getByLabel('Password').fill(SHOPPER_PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((u) => u.pathname === '/');
}

async function ownerSignIn(page: Page) {
  await page.goto(url('/admin'));
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((u) => u.pathname === '/login/verify-device');
  await fitsTheScreen(page, page.url());
  const mail = await (await page.request.get(url(`/api/v1/dev/outbox?to=${encodeURIComponent(OWNER.email)}`))).json();
  await page.getByLabel('Code', { exact: true }).fill(/code is (\d{4})/.exec(mail[0].text)![1]!);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
}

for (const js of [true, false]) {
  test.describe(js ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled: js });

    test('a shopper\'s order, its return form and the mail links\' pages do not scroll sideways at 320 px', async ({ page }) => {
      for (const path of ['/newsletter/confirm?token=x', '/newsletter/unsubscribe?token=x', '/back-in-stock/confirm?token=x', '/verify-otp?email=x%40example.com', '/reset-password?email=x%40example.com']) {
        await fitsTheScreen(page, url(path));
      }
      await shopperSignIn(page);
      await fitsTheScreen(page, url(`/order-details/${facts.orderId}`));
      await fitsTheScreen(page, url(`/order-details/${facts.orderId}?placed=1`));
      await fitsTheScreen(page, url(`/order-details/${facts.orderId}/return`));
      await fitsTheScreen(page, url('/settings'));
    });

    test('every back-office page fits 320 px with the owner signed in', async ({ page }) => {
      test.setTimeout(120_000);
      await ownerSignIn(page);
      const pages = [
        '/admin',
        '/admin/products',
        '/admin/products/new',
        `/admin/products/${facts.productId}`,
        '/admin/orders',
        `/admin/orders/${facts.orderId}`,
        `/admin/orders/${facts.dueOrderId}`,
        '/admin/stock',
        '/admin/customers',
        `/admin/customers/${facts.customerId}`,
        '/admin/categories',
        '/admin/promotions',
        '/admin/refunds',
        '/admin/returns',
        `/admin/returns/${facts.returnId}`,
        '/admin/help',
        '/admin/staff',
        '/admin/to-collect',
        '/admin/data-requests',
        '/admin/audit',
      ];
      for (const path of pages) await fitsTheScreen(page, url(path));
    });

    test.describe('at 360 px', () => {
      test.use({ viewport: { width: 360, height: 740 } });

      test('the admin order page, delivered and still to collect, and a return\'s page do not scroll sideways', async ({ page }) => {
        test.setTimeout(90_000);
        await ownerSignIn(page);
        for (const id of [facts.orderId, facts.dueOrderId]) await fitsTheScreen(page, url(`/admin/orders/${id}`));
        await fitsTheScreen(page, url(`/admin/returns/${facts.returnId}`));
      });
    });
  });
}
