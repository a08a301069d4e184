import { expect, test, type Page } from '@playwright/test';
import { formatMoney } from '@/lib/domain/money';
import { purchaseReady, signIn, southAfricanProducts, southAfricanShopper } from './support';

/**
 * PUDO lockers at checkout at 360 px, with JavaScript on and off: a South African shopper with a
 * Johannesburg address chooses "Collect from a PUDO locker", picks one of the lockers in town (the
 * demo store's list), sees the locker's fee in the total, pays in rand and finds the locker on the
 * order's page.
 */
test.use({ viewport: { width: 360, height: 740 } });
const zar = (n: number) => formatMoney(n, 'ZAR');
const LOCKER_FEE = 65;

async function shopInSouthAfrica(page: Page) {
  await page.goto('/');
  await page.getByLabel('Shop in').selectOption({ label: 'South Africa (R ZAR)' });
  await page.getByRole('button', { name: 'Change' }).click();
  await expect(page.getByLabel('Shop in')).toHaveValue('ZA');
}

for (const js of [true, false]) {
  test.describe(`PUDO lockers with JavaScript ${js ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled: js });

    test('choose a locker near the address at checkout and find it on the order', async ({ page, request }) => {
      const email = await southAfricanShopper(request);
      const [item] = await southAfricanProducts(request, js ? 12 : 14, 1);
      await signIn(page, email);
      await shopInSouthAfrica(page);
      await page.goto(`/product/${item!.productId}`);
      if (js) await purchaseReady(page);
      if (item!.color) await page.getByRole('radio', { name: item!.color, exact: true }).check();
      await page.getByRole('button', { name: 'ADD TO CART' }).click();
      if (js) await expect(page.getByText('Product added to cart successfully!')).toBeVisible();
      else await expect(page).toHaveURL(/\/cart\?notice=/);

      await page.goto('/place-order');
      if (js) await expect(page.locator('astro-island[component-url*="/PlaceOrder."]')).not.toHaveAttribute('ssr', /.*/, { timeout: 15_000 });
      const lockers = page.getByRole('group', { name: 'Collect from a PUDO locker' });
      await expect(lockers).toBeVisible();
      await expect(lockers.getByRole('radio', { name: /No, to my address/ })).toBeChecked();
      await expect(lockers.getByRole('radio')).toHaveCount(5);
      const rosebank = lockers.getByRole('radio', { name: /Rosebank Mall/ });
      await expect(lockers.locator('label').filter({ hasText: 'Rosebank Mall' })).toContainText('50 Bath Avenue, Rosebank, Johannesburg');
      await rosebank.check();
      if (!js) {
        await page.getByRole('button', { name: 'Update total' }).click();
        await expect(page).toHaveURL(/\/place-order\?.*locker=DEMO-JHB-ROS/);
        await expect(page.getByRole('group', { name: 'Collect from a PUDO locker' }).getByRole('radio', { name: /Rosebank Mall/ })).toBeChecked();
      }
      await expect(page.getByTestId('shipping-fee')).toHaveText(zar(LOCKER_FEE));
      await expect(page.getByTestId('order-total')).toHaveText(zar(item!.zaPrice + LOCKER_FEE));
      await page.getByRole('group', { name: 'Collect from a PUDO locker' }).scrollIntoViewIfNeeded();
      await page.getByRole('button', { name: 'PAY & PLACE ORDER' }).click();
      await expect(page).toHaveURL(/\/pay\/simulated\//);
      await expect(page.getByLabel('Amount')).toContainText(zar(item!.zaPrice + LOCKER_FEE));
      await page.getByRole('button', { name: /^Pay / }).click();
      await expect(page.getByText('Order placed successfully!').first()).toBeVisible();
      await page.waitForURL(/\/order-details\//, { timeout: 15_000 });
      const locker = page.getByTestId('order-locker');
      await expect(locker).toContainText('Collect from a PUDO locker');
      await expect(locker).toContainText('Rosebank Mall');
      await expect(locker).toContainText('50 Bath Avenue, Rosebank, Johannesburg');
      // The courier's code for the locker is staff's: the shopper never reads it.
      await expect(page.locator('main')).not.toContainText('DEMO-JHB');
      await expect(page.locator('main')).toContainText(zar(item!.zaPrice + LOCKER_FEE));
    });
  });
}
