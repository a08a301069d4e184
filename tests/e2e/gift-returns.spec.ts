import { expect, test, type Browser, type Page } from '@playwright/test';
import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { orders } from '@/lib/server/orders/tables';
import type { Services } from '@/lib/server/services';
import { startServer, type RunningServer } from '../support/server';
import { placePodOrder, podShopper, podVariant, prepareStore, type PodOrder, type PreparedStore } from '../support/pod-orders';
import { driverOf } from './support';

/**
 * A gift's return by its recipient at 360 px, with and without JavaScript (ADR 0045): staff mark the
 * gift delivered; the recipient's text in the dev outbox carries the link; the code comes from the
 * outbox; the recipient creates their account there, confirms its e-mail and asks for the return;
 * staff approve, receive and credit it; the recipient's account shows the store credit.
 */
const OWNER = { email: 'owner@maisonluxe.ng', password: 'LuxeOwner2026!' };
const PASSWORD = 'GiftReturn-2026!';

type Gift = PodOrder & { phone: string };
let store: PreparedStore;
let server: RunningServer;
let gifts: { js: Gift; nojs: Gift };

test.describe.configure({ mode: 'serial' });

async function giftOrder(services: Services, skip: number): Promise<Gift> {
  const buyer = await podShopper(services);
  const { id: variantId } = await podVariant(services, 'NG', 3, skip);
  const order = await placePodOrder(services, { userId: buyer.id, email: buyer.email, variantId, depositPercent: 100 });
  const phone = `+23480${randomInt(10_000_000, 99_999_999)}`;
  await services.db.update(orders).set({ giftRecipientName: 'Adaeze Okafor', giftRecipientPhone: phone, giftMessage: 'Happy birthday', giftHidePrices: true }).where(eq(orders.id, order.id));
  await services.orders.setStatus(order.id, 'processed');
  return { ...order, phone };
}

test.beforeAll(async ({}, testInfo) => {
  const driver = driverOf(testInfo);
  test.setTimeout(180_000);
  const prepared = await prepareStore(driver, async (services) => ({ js: await giftOrder(services, 2), nojs: await giftOrder(services, 5) }));
  store = prepared.store;
  gifts = prepared.value;
  server = await startServer(driver, store.dataDir ? { DATA_DIR: store.dataDir } : {}, store.databaseUrl ? { databaseUrl: store.databaseUrl } : {});
});

test.afterAll(async () => {
  await server?.stop();
  await store?.drop();
});

const url = (path: string) => `${server.baseUrl}${path}`;
const shown = (page: Page, text: string) => page.getByText(text, { exact: false }).first();
const outbox = async (page: Page, to: string) => (await (await page.request.get(url(`/api/v1/dev/outbox?to=${encodeURIComponent(to)}`))).json()) as { text: string }[];

async function ownerSignIn(page: Page) {
  await page.goto(url('/admin'));
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((u) => u.pathname === '/login/verify-device');
  const mail = await outbox(page, OWNER.email);
  await page.getByLabel('Code', { exact: true }).fill(/code is (\d{4})/.exec(mail[0]!.text)![1]!);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
}

for (const js of [true, false]) {
  test.describe(js ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled: js, viewport: { width: 360, height: 740 } });

    test("the recipient returns a piece of the gift and its value is their store credit", async ({ page, browser }) => {
      test.setTimeout(180_000);
      const gift = js ? gifts.js : gifts.nojs;
      const staff = await (browser as Browser).newPage({ javaScriptEnabled: js, viewport: { width: 360, height: 740 } });
      await ownerSignIn(staff);
      const delivered = await staff.request.post(url(`/api/v1/admin/orders/${gift.id}/status`), { data: { status: 'delivered' }, headers: { origin: server.baseUrl } });
      expect(delivered.status(), await delivered.text()).toBe(200);

      // The recipient's "delivered" text carries the link.
      const texts = await outbox(page, gift.phone);
      const link = /(https?:\/\/\S+\/gift-return\/\S+)/.exec(texts.map((t) => t.text).join(' '))?.[1];
      expect(link, texts.map((t) => t.text).join('\n')).toBeTruthy();
      await page.goto(url(new URL(link!).pathname));
      await expect(page.getByRole('heading', { name: 'Return a gift' })).toBeVisible();
      await expect(page.getByTestId('gift-return-phone')).toHaveText(`+234 ••• ••• ${gift.phone.slice(-4)}`);
      await expect(page.locator('main')).not.toContainText('₦');

      await page.getByRole('button', { name: 'Send code' }).click();
      await expect(shown(page, 'We texted a code to the number this gift was sent to.')).toBeVisible();
      const code = /code is (\d{4})/.exec((await outbox(page, gift.phone))[0]!.text)![1]!;
      await page.getByLabel('Code').fill(code);
      await page.getByRole('button', { name: 'Confirm' }).click();
      await expect(shown(page, 'Thank you: your number is confirmed.')).toBeVisible();

      await expect(page.getByLabel('First Name')).toHaveValue('Adaeze');
      await expect(page.getByLabel('Last Name')).toHaveValue('Okafor');
      const email = `adaeze-${randomInt(1e9)}@example.com`;
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('short');
      if (!js) {
        // Sign-up's rules and messages (the browser's own check aside, as a script-less client posts).
        await page.getByLabel('Password').evaluate((el) => el.removeAttribute('minlength'));
      }
      if (!js) {
        await page.getByRole('button', { name: 'Create account' }).click();
        await expect(shown(page, 'Password must be at least 8 characters')).toBeVisible();
      }
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      await expect(shown(page, 'Your account is ready.')).toBeVisible();

      // The credit waits for a confirmed e-mail: sign-up's code, then back to the same link.
      await expect(page.getByTestId('gift-return-confirm-email')).toContainText('a•••@example.com');
      const mail = await outbox(page, email);
      const emailCode = mail.map((m) => /code is (\d{4})/.exec(m.text)?.[1]).find(Boolean)!;
      await page.goto(url(`/verify-otp?email=${encodeURIComponent(email)}`));
      await page.getByLabel('Verification Code').fill(emailCode);
      await page.getByRole('button', { name: 'Verify', exact: true }).click();
      await page.waitForURL((u) => u.pathname === '/login');
      await page.goto(url(new URL(link!).pathname));
      await expect(page.getByTestId('gift-return-account')).toContainText('a•••@example.com');
      await page.getByLabel('Too big').check();
      await page.getByRole('button', { name: 'Request return' }).click();
      await expect(shown(page, 'Return requested.')).toBeVisible();
      await expect(shown(page, 'Every piece of this gift is already being returned.')).toBeVisible();

      // Staff see where the credit goes, and credit it.
      await staff.goto(url('/admin/returns'));
      await staff.locator('tr').filter({ hasText: gift.trackingNumber }).getByRole('link').first().click();
      await expect(staff.getByTestId('gift-return-credit-to')).toContainText('Adaeze Okafor');
      for (const [button, done] of [['Approve', 'Return approved'], ['Mark received', 'Return received'], ['Store credit', 'Store credit added']] as const) {
        await staff.getByRole('button', { name: button, exact: true }).click();
        await expect(shown(staff, done)).toBeVisible();
      }
      await staff.close();

      // The recipient signs in and sees the credit.
      await page.goto(url('/login'));
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Login' }).click();
      await page.waitForURL((u) => u.pathname === '/');
      await page.goto(url('/profile'));
      await expect(shown(page, 'Store credit: ₦')).toBeVisible();
    });
  });
}
