import { expect, test, type Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { hashPassword } from '@/lib/server/accounts/passwords';
import { users } from '@/lib/server/accounts/tables';
import { shipments } from '@/lib/server/delivery/tables';
import { orders as orderRows } from '@/lib/server/orders/tables';
import { requestShipment } from '@/lib/server/delivery/shipments';
import { pdfText } from '../support/pdf-text';
import { startServer, type RunningServer } from '../support/server';
import { placePodOrder, podShopper, podVariant, prepareStore, type PodOrder, type PreparedStore } from '../support/pod-orders';
import { driverOf } from './support';

/**
 * Delivery with the store's own courier at 360 px: staff mark an order "Ready to ship" (booked at
 * once, a label to print), add "Out for delivery" with the rider and then "Delivered" on the order
 * page's form, with and without JavaScript; the shopper follows the timeline on their order page,
 * the rider's phone a tel: link. Orders are placed before the store starts (pod-orders.ts).
 */
const OWNER = { email: 'owner@maisonluxe.ng', password: 'LuxeOwner2026!' };
const PASSWORD = 'Lagos-2026!';

let store: PreparedStore;
let server: RunningServer;
let shopper: { email: string };
let orders: { js: PodOrder; nojs: PodOrder; failed: PodOrder };

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({}, testInfo) => {
  const driver = driverOf(testInfo);
  test.setTimeout(180_000);
  const prepared = await prepareStore(driver, async (services) => {
    const s = await podShopper(services);
    await services.db.update(users).set({ passwordHash: await hashPassword(PASSWORD) }).where(eq(users.id, s.id));
    const v = await podVariant(services, 'NG', 4);
    const base = { userId: s.id, email: s.email, variantId: v.id };
    // A booking the courier refused (staff try it again), on a gift order with wrapping (its own line for the shopper).
    const failed = await placePodOrder(services, base);
    await services.db.transaction(async (tx) => {
      await tx.update(orderRows).set({ status: 'processed', giftRecipientName: 'Ada Obi', giftRecipientPhone: '+2348035550199', giftWrap: true, giftWrapMinor: 500_000 }).where(eq(orderRows.id, failed.id));
      const id = await requestShipment(tx, { orderId: failed.id, kind: 'delivery', courier: 'manual' }, new Date());
      await tx.update(shipments).set({ status: 'failed', attempts: 1, lastError: 'The courier refused: the address could not be found' }).where(eq(shipments.id, id!));
    });
    return { shopper: s, orders: { js: await placePodOrder(services, base), nojs: await placePodOrder(services, { ...base, depositPercent: 100 }), failed } };
  });
  store = prepared.store;
  shopper = prepared.value.shopper;
  orders = prepared.value.orders;
  server = await startServer(driver, store.dataDir ? { DATA_DIR: store.dataDir } : {}, store.databaseUrl ? { databaseUrl: store.databaseUrl } : {});
});

test.afterAll(async () => {
  await server?.stop();
  await store?.drop();
});

async function staffSignIn(page: Page) {
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

async function shipAndDeliver(page: Page, order: PodOrder) {
  await staffSignIn(page);
  await page.goto(`${server.baseUrl}/admin/orders/${order.id}`);
  await page.getByRole('button', { name: 'Ready to ship' }).click();
  const panel = page.getByTestId('admin-shipment');
  await expect(panel).toContainText('Maison Luxe delivery · Booked');
  await expect(panel).toContainText(/MLD-[0-9A-F]{10}/);
  const parcel = (await panel.textContent())!.match(/MLD-[0-9A-F]{10}/)![0];
  const label = panel.getByRole('link', { name: 'Print label (PDF)' });
  const pdf = await page.request.get(`${server.baseUrl}${await label.getAttribute('href')}`);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  // The label is a real PDF that carries the parcel's number as text.
  expect(await pdfText(await pdf.body())).toContain(parcel);

  const form = page.getByTestId('shipment-event-form');
  await form.getByLabel('What happened').selectOption({ label: 'Out for delivery' });
  await form.getByLabel('Note for the shopper').fill('On the way to Ikeja');
  await form.getByLabel('Rider’s name').fill('Musa Bello');
  await form.getByLabel('Rider’s phone').fill('0809 999 0000');
  await form.getByRole('button', { name: 'Add update' }).click();
  await expect(page.getByText('Delivery update added.')).toBeVisible();
  await expect(page.getByTestId('admin-shipment')).toContainText('Rider: Musa Bello, +2348099990000');

  await page.getByTestId('shipment-event-form').getByLabel('What happened').selectOption({ label: 'Delivered' });
  await page.getByTestId('shipment-event-form').getByRole('button', { name: 'Add update' }).click();
  await expect(page.getByText('Delivery update added.')).toBeVisible();
  await expect(page.locator('.adm-badge')).toHaveText('delivered');
}

async function shopperSees(page: Page, order: PodOrder) {
  await page.goto(`${server.baseUrl}/login`);
  await page.getByLabel('Email').fill(shopper.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await page.goto(`${server.baseUrl}/order-details/${order.id}`);
  const delivery = page.getByTestId('order-delivery');
  await expect(delivery).toContainText('Maison Luxe delivery');
  const timeline = page.getByTestId('order-timeline');
  await expect(timeline.locator('li[data-event]')).toHaveCount(3);
  await expect(timeline.locator('li[data-event]').first()).toHaveAttribute('data-event', 'delivered');
  await expect(timeline).toContainText('Out for delivery');
  await expect(timeline).toContainText('On the way to Ikeja');
  await expect(page.getByTestId('rider-phone')).toHaveAttribute('href', 'tel:+2348099990000');
  await expect(timeline).toContainText('Booked with the courier');
}

test('staff ship and deliver with the manual courier; the shopper follows the timeline (JavaScript)', async ({ page }) => {
  await shipAndDeliver(page, orders.js);
  await page.context().clearCookies();
  await shopperSees(page, orders.js);
  await page.setViewportSize({ width: 1366, height: 900 });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 360, height: 740 } });
  test('staff see a failed booking with the courier’s answer and try it again; the shopper sees the gift wrapping line', async ({ page }) => {
    await staffSignIn(page);
    await page.goto(`${server.baseUrl}/admin/orders/${orders.failed.id}`);
    const panel = page.getByTestId('admin-shipment');
    await expect(panel).toContainText('Booking failed');
    await expect(panel.getByTestId('shipment-last-answer')).toHaveText('Courier’s last answer: The courier refused: the address could not be found');
    await panel.getByRole('button', { name: 'Try booking again' }).click();
    await expect(page.getByText('The booking will be tried again now.')).toBeVisible();
    await expect(page.getByTestId('admin-shipment')).toContainText('Maison Luxe delivery · Booked');
    await expect(page.getByTestId('shipment-retry-form')).toHaveCount(0);
    await page.context().clearCookies();
    await page.goto(`${server.baseUrl}/login`);
    await page.getByLabel('Email').fill(shopper.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto(`${server.baseUrl}/order-details/${orders.failed.id}`);
    await expect(page.getByTestId('order-gift-wrap')).toHaveText('₦5,000');
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  test('staff ship and deliver with the manual courier form; the shopper sees the timeline', async ({ page }) => {
    await shipAndDeliver(page, orders.nojs);
    await page.context().clearCookies();
    await shopperSees(page, orders.nojs);
  });
});
