import { expect, test, type Page } from '@playwright/test';
import { startServer, type RunningServer } from '../support/server';
import { placePodOrder, podShopper, podVariant, prepareStore, type PodOrder, type PreparedStore } from '../support/pod-orders';
import { driverOf } from './support';

/**
 * Staff collect pay-on-delivery orders in the back office at 360 px, with and without
 * JavaScript: open "To collect", record "Refused at the door" (the stock comes back) and
 * "Delivered and paid". The orders are placed before the store starts (tests/support/pod-orders.ts),
 * on its own server on the run's database driver (E2E_DRIVER), so this does not depend on checkout.
 */
const OWNER = { email: 'owner@maisonluxe.ng', password: 'LuxeOwner2026!' };

let store: PreparedStore;
let server: RunningServer;
let orders: { js: { refused: PodOrder; paid: PodOrder }; nojs: { refused: PodOrder; paid: PodOrder } };

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({}, testInfo) => {
  const driver = driverOf(testInfo);
  test.setTimeout(180_000);
  const prepared = await prepareStore(driver, async (services) => {
    const shopper = await podShopper(services);
    const v = await podVariant(services, 'NG', 8);
    const base = { userId: shopper.id, email: shopper.email, variantId: v.id };
    return {
      js: { refused: await placePodOrder(services, { ...base, quantity: 2, depositPercent: 30 }), paid: await placePodOrder(services, base) },
      nojs: { refused: await placePodOrder(services, { ...base, quantity: 3 }), paid: await placePodOrder(services, { ...base, pickup: true }) },
    };
  });
  store = prepared.store;
  orders = prepared.value;
  server = await startServer(driver, store.dataDir ? { DATA_DIR: store.dataDir } : {}, store.databaseUrl ? { databaseUrl: store.databaseUrl } : {});
});

test.afterAll(async () => {
  await server?.stop();
  await store?.drop();
});

async function signIn(page: Page) {
  await page.goto(`${server.baseUrl}/admin`);
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((url) => url.pathname === '/login/verify-device');
  const mail = await (await page.request.get(`${server.baseUrl}/api/v1/dev/outbox?to=${encodeURIComponent(OWNER.email)}`)).json();
  await page.getByLabel('Code').fill(/code is (\d{4})/.exec(mail[0].text)![1]!);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
}

async function stockOf(page: Page, o: PodOrder): Promise<number> {
  const detail = await (await page.request.get(`${server.baseUrl}/api/v1/products/${o.productId}`)).json();
  return (detail.data.variants as { stock: number }[]).reduce((n, v) => n + v.stock, 0);
}

async function collectBoth(page: Page, pair: { refused: PodOrder; paid: PodOrder }) {
  await signIn(page);
  await expect(page.getByTestId('cash-to-collect')).toBeVisible();
  await page.getByRole('link', { name: 'To collect', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'To collect' })).toBeVisible();
  await expect(page.getByRole('link', { name: pair.paid.trackingNumber })).toBeVisible();
  const before = await stockOf(page, pair.refused);
  await page.getByRole('link', { name: pair.refused.trackingNumber }).click();
  await expect(page.getByRole('heading', { name: `Order ${pair.refused.trackingNumber}` })).toBeVisible();
  await page.getByRole('button', { name: 'Refused at the door' }).click();
  await expect(page.getByText(/Recorded as refused at the door; stock returned/)).toBeVisible();
  await expect(page.getByText(/^Refused at the door ·/)).toBeVisible();
  expect(await stockOf(page, pair.refused)).toBe(before + pair.refused.quantity);

  await page.getByRole('link', { name: 'To collect', exact: true }).click();
  await expect(page.getByRole('link', { name: pair.refused.trackingNumber })).toHaveCount(0);
  await page.getByRole('link', { name: pair.paid.trackingNumber }).click();
  await expect(page.getByLabel('Amount collected')).toHaveValue(String(pair.paid.dueMinor / 100));
  await page.getByLabel('Paid by').selectOption({ label: 'Card at the door' });
  await page.getByRole('button', { name: 'Delivered and paid' }).click();
  await expect(page.getByText('Recorded as delivered and paid')).toBeVisible();
  await expect(page.getByText(/^Delivered and paid: .+ by Card at the door/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delivered and paid' })).toHaveCount(0);
}

test('staff record a refused delivery (stock back) and a delivered and paid one, with JavaScript', async ({ page }) => {
  await collectBoth(page, orders.js);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 360, height: 740 } });
  test('staff record a refused delivery (stock back) and a delivered and paid one', async ({ page }) => {
    await collectBoth(page, orders.nojs);
    // Two refusals (one per test): the customer page offers to lift the block.
    await page.goto(`${server.baseUrl}/admin/customers/${orders.nojs.refused.userId}`);
    await expect(page.getByTestId('refused-deliveries')).toHaveText('2');
    await page.getByRole('button', { name: 'Lift pay-on-delivery block' }).click();
    await expect(page.getByText('Pay on delivery is available to this customer again')).toBeVisible();
    await expect(page.getByTestId('refused-deliveries')).toHaveText('0');
    await expect(page.getByRole('button', { name: 'Lift pay-on-delivery block' })).toHaveCount(0);

    // The market's rules, on the dashboard.
    await page.goto(`${server.baseUrl}/admin`);
    await expect(page.getByTestId('cash-collected')).toContainText('Card at the door');
    const za = page.getByRole('form', { name: /Pay on delivery in South Africa/ });
    await za.getByLabel('Deposit (% of the total)').fill('40');
    await za.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Pay on delivery settings saved')).toBeVisible();
    await expect(page.getByRole('form', { name: /Pay on delivery in South Africa/ }).getByLabel('Deposit (% of the total)')).toHaveValue('40');
  });
});
