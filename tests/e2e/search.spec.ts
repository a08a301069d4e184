import { expect, test } from '@playwright/test';

/**
 * Search in the browser, with and without JavaScript (the suggestions also at desktop width): a misspelt
 * search finds the right pieces and says what it searched for; one that finds nothing says so and
 * offers the categories; with scripts, the field suggests words as the shopper types.
 */
for (const js of [true, false]) {
  test.describe(js ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled: js });

    test('a misspelt search finds leather bags; one that finds nothing offers the categories', async ({ page }) => {
      await page.goto('/collection');
      await page.getByLabel('Search products').fill('lether bag');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await expect(page).toHaveURL(/[?&]q=lether\+bag/);
      await expect(page.getByText('Showing results for leather bag.')).toBeVisible();
      const first = page.locator('article.card').first();
      await expect(first).toContainText(/Leather/);
      await page.getByLabel('Search products').fill('gucci');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await expect(page.getByText('No products match "gucci".')).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Shop by category' }).getByRole('link', { name: 'Bags' })).toBeVisible();
    });

    test('the commonest slips show the pieces meant at once: "hanbag", "sandles"', async ({ page }) => {
      await page.goto('/collection?q=hanbag');
      await expect(page.getByText('Showing results for handbag.')).toBeVisible();
      await expect(page.locator('article.card').first()).toContainText(/Bag|Tote|Clutch|Crossbody|Backpack|Duffel/);
      await page.getByLabel('Search products').fill('sandles');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await expect(page.getByText('Showing results for sandals.')).toBeVisible();
      await expect(page.locator('article.card').first()).toContainText(/Sandals/);
    });
  });
}

test('with JavaScript, the search field suggests words as the shopper types', { tag: '@desktop' }, async ({ page }) => {
  await page.goto('/collection');
  await page.getByLabel('Search products').pressSequentially('leat', { delay: 30 });
  const suggestions = page.getByRole('list', { name: 'Suggestions' });
  await expect(suggestions.getByRole('link', { name: 'leather', exact: true })).toBeVisible();
  // The field stays a searchbox, and a suggestion is a link to its results.
  await expect(page.getByRole('searchbox', { name: 'Search products' })).toHaveValue('leat');
  await suggestions.getByRole('link', { name: 'leather', exact: true }).click();
  await expect(page).toHaveURL(/\/collection\?q=leather$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});
