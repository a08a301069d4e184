import { expect, test } from '@playwright/test';
import { buyingClient } from '../api/buying-client';
import { getJson } from './support';

/**
 * Staff cancel a paid order from its page, without scripts, choosing store credit; the refund
 * shows on the order page and on /admin/refunds. One project: the owner has one step-up code at a time.
 */
const OWNER = { email: 'owner@maisonluxe.ng', password: 'LuxeOwner2026!' };

test('staff cancel a paid order to store credit from the order page; the refunds view lists it', { tag: '@desktop' }, async ({ browser, request, baseURL }, info) => {
  test.skip(info.project.name !== 'desktop', 'one run: the owner account has one step-up code at a time');
  test.setTimeout(120_000);
  const api = buyingClient(baseURL!);
  const shopper = await api.login();
  await api.clear(shopper.token, shopper.id);
  await api.add(shopper.token, await api.variant({ minStock: 1 }), 1);
  const init = await api.call('POST', '/orders/initiate', { token: shopper.token, body: {} });
  await api.answerSimulated(init.body.data.reference, 'pay');
  const placed = await api.call('POST', '/orders/place-order', { token: shopper.token, body: { paymentReference: init.body.data.reference } });
  expect(placed.status).toBe(200);
  const orderId = placed.body.data.id as string;

  const context = await browser.newContext({ baseURL, javaScriptEnabled: false, viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  await page.goto('/login?next=%2Fadmin');
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((url) => url.pathname === '/login/verify-device');
  const mail = await getJson(request, `/api/v1/dev/outbox?to=${encodeURIComponent(OWNER.email)}`);
  await page.getByLabel('Code').fill(/code is (\d{4})/.exec(mail[0].text)![1]!);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.waitForURL((url) => url.pathname === '/admin');

  await page.goto(`/admin/orders/${orderId}`);
  await page.getByLabel('Refund', { exact: true }).selectOption('store_credit');
  await page.getByRole('button', { name: 'Cancel order' }).click();
  await expect(page.getByText('as store credit · paid')).toBeVisible();
  await page.goto('/admin/refunds');
  const row = page.locator('tr[data-refund]').filter({ hasText: 'Store credit' }).first();
  await expect(row).toContainText('Paid');
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`/admin/orders/${orderId}`);
  await context.close();
});
