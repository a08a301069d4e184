import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { buyingClient, DEMO } from '../api/buying-client';
import { pdfText } from '../support/pdf-text';
import { newShopper, SHOPPER_PASSWORD, signIn } from './support';

/**
 * At 360 px and without scripts, the shopper downloads the tax invoice of a paid order and, once
 * it is cancelled and refunded, its credit note, from the order page; both read as tax documents.
 */
test('the order page downloads the tax invoice and the credit note, without scripts', async ({ browser, baseURL }) => {
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

  const context = await browser.newContext({ baseURL, javaScriptEnabled: false, viewport: { width: 360, height: 740 }, acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(`/login?next=${encodeURIComponent(`/order-details/${orderId}`)}`);
  await page.getByLabel('Email').fill(DEMO.email);
  await page.getByLabel('Password').fill(DEMO.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((url) => url.pathname === `/order-details/${orderId}`);
  await expect(page.getByTestId('order-vat')).toBeVisible();

  const download = async (name: string) => {
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).first().click()]);
    return pdfText(new Uint8Array(readFileSync((await file.path())!)));
  };
  const invoice = await download('Tax invoice (PDF)');
  expect(invoice).toContain('Tax Invoice');
  expect(invoice).toMatch(/NG-\d{4}-\d{6}/);
  expect(invoice).toContain('TIN');

  // The shopper cancels it from the same page: what was paid online is refunded, with a credit note.
  await page.getByRole('button', { name: 'Cancel order' }).click();
  await page.waitForURL((url) => url.pathname === `/order-details/${orderId}`);
  await expect(page.getByRole('link', { name: 'Credit note (PDF)' })).toBeVisible();
  const note = await download('Credit note (PDF)');
  expect(note).toContain('Credit Note');
  expect(note).toMatch(/NG-CN-\d{4}-\d{6}/);
  expect(note).toMatch(/Tax Invoice NG-\d{4}-\d{6}/);
  await context.close();
});

/** At 360 px, with and without scripts: "Buying for a company?" at checkout puts the company and its TIN on the invoice. */
for (const js of [true, false]) {
  test(`a company and its TIN given at checkout are printed on the tax invoice${js ? '' : ', without scripts'}`, async ({ browser, baseURL, request }) => {
    test.setTimeout(120_000);
    const email = await newShopper(request, true, `e2e.company.${js ? 'js' : 'nojs'}`);
    const api = buyingClient(baseURL!);
    const shopper = await api.login(email, SHOPPER_PASSWORD);
    await api.add(shopper.token, await api.variant({ minStock: 2, skip: js ? 5 : 6 }), 1);

    const context = await browser.newContext({ baseURL, javaScriptEnabled: js, viewport: { width: 360, height: 740 }, acceptDownloads: true });
    const page = await context.newPage();
    await signIn(page, email);
    await page.goto('/place-order');
    await page.getByText('Buying for a company?').click();
    await page.getByLabel('Company name').fill('Chiamaka Ńnàmdị Studio Ltd');
    await page.getByLabel('TIN (optional)').fill('12345678-0001');
    await page.getByRole('button', { name: 'PAY & PLACE ORDER' }).click();
    await expect(page).toHaveURL(/\/pay\/simulated\//);
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForURL(/\/order-details\/[^?]+\?placed=1/);

    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Tax invoice (PDF)' }).first().click()]);
    const invoice = await pdfText(new Uint8Array(readFileSync((await file.path())!)));
    expect(invoice).toContain('Chiamaka Ńnàmdị Studio Ltd');
    expect(invoice).toContain('TIN 12345678-0001');
    await context.close();
  });
}
