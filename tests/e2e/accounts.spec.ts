import { expect, test, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import { hydrated, newShopper, SHOPPER_PASSWORD } from './support';

/** Reads the newest 4-digit code mailed to an address from the dev outbox. */
async function codeFor(page: Page, email: string, kind: 'verification' | 'password reset'): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const res = await page.request.get(`/api/v1/dev/outbox?to=${encodeURIComponent(email)}`);
      const mails = (await res.json()) as { text: string }[];
      code = mails.map((m) => new RegExp(`${kind} code is (\\d{4})`).exec(m.text)?.[1]).find(Boolean);
      return code;
    })
    .toBeTruthy();
  return code!;
}

const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

test('pages that need a registered or reset e-mail, or a session, send the shopper back', async ({ page }) => {
  await page.goto('/verify-otp');
  await expect(page).toHaveURL(/\/register$/);
  await page.goto('/reset-password');
  await expect(page).toHaveURL(/\/forgot-password$/);
  for (const path of ['/profile', '/settings', '/address-history', '/add-address']) {
    await page.goto(path);
    await expect(page, path).toHaveURL(`/login?next=${encodeURIComponent(path)}`);
  }
});

/** Signs in on the login page the browser is on (scripts on or off). */
async function signInHere(page: Page, email: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(SHOPPER_PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
}

test('a shopper page sends a signed-out shopper to log in, then back to it; a next from elsewhere lands on the store', async ({ page, request }) => {
  const email = await newShopper(request, false);
  await page.goto(`/login?next=${encodeURIComponent('/.//evil.example')}`);
  await hydrated(page, page.getByRole('button', { name: 'Login' }));
  await signInHere(page, email);
  await expect(toast(page, 'Login successful!')).toBeVisible();
  await expect(page).toHaveURL('/');
  await page.context().clearCookies();

  await page.goto('/order-history?status=delivered');
  await expect(page).toHaveURL(`/login?next=${encodeURIComponent('/order-history?status=delivered')}`);
  await hydrated(page, page.getByRole('button', { name: 'Login' }));
  await signInHere(page, email);
  await expect(toast(page, 'Login successful!')).toBeVisible();
  await expect(page).toHaveURL('/order-history?status=delivered');
  await expect(page.getByRole('heading', { name: 'Orders', exact: true })).toBeVisible();
});

test('a new shopper registers, verifies, manages profile and addresses, changes and resets the password', { tag: '@desktop' }, async ({ page }, info) => {
  test.setTimeout(180_000);
  const email = `e2e.${info.project.name}.${Date.now()}@example.com`;
  const password = 'Lagos-2026!';

  // Register
  await page.goto('/register');
  await hydrated(page, page.getByRole('button', { name: 'Sign Up' }));
  await expect(page.getByLabel('Country')).toHaveValue('nigeria');
  await page.getByLabel('First Name').fill('Amara');
  await page.getByLabel('Last Name').fill('Nwosu');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Phone Number').fill('+234 803 555 0199');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(toast(page, 'Registration successful! Please verify your email.')).toBeVisible();
  await expect(page).toHaveURL(/\/verify-otp$/);

  // Verify with the mailed code
  await hydrated(page, page.getByRole('button', { name: 'Verify' }));
  await expect(page.getByText(email)).toBeVisible();
  await page.getByLabel('Verification Code').fill('12');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(toast(page, 'Please enter a valid 4-digit OTP')).toBeVisible();
  await page.getByLabel('Verification Code').fill(await codeFor(page, email, 'verification'));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(toast(page, 'Email verified successfully!')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  // Login
  await hydrated(page, page.getByRole('button', { name: 'Login' }));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('Wrong-pass-1');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(toast(page, 'Invalid email or password')).toBeVisible();
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(toast(page, 'Login successful!')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  const token = await page.evaluate(() => JSON.stringify(localStorage));
  expect(token).not.toMatch(/token/i);

  // Profile picture
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Amara Nwosu' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  const picker = page.getByLabel('Change profile picture');
  await hydrated(page, picker);
  await picker.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
  await expect(toast(page, 'Please select an image file')).toBeVisible();
  await picker.setInputFiles({ name: 'holiday.png', mimeType: 'image/png', buffer: Buffer.from('renamed text, not a png') });
  await expect(toast(page, 'Failed to upload image: The file is not a valid image')).toBeVisible();
  const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#8a5a2b' } }).png().toBuffer();
  await picker.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
  await expect(toast(page, 'Profile picture saved.')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Amara Nwosu' })).toHaveAttribute('src', /^\/media\/[a-f0-9]{32}$/);

  // Addresses: empty, add two, edit, make default, delete
  await page.getByRole('link', { name: 'Shipping Addresses' }).click();
  await expect(page).toHaveURL(/\/address-history$/);
  await expect(page.getByText('No addresses found. Add your first address!')).toBeVisible();
  await page.getByRole('link', { name: 'Add New Address' }).click();
  await expect(page.getByRole('heading', { name: 'New Address' })).toBeVisible();
  await hydrated(page, page.getByRole('button', { name: 'Save Address' }));
  await page.getByLabel('Full Name').fill('Amara Nwosu');
  await page.getByLabel('State or Province').selectOption('Lagos');
  await page.getByLabel('Country').selectOption('south_africa');
  await expect(page.getByLabel('State or Province')).toHaveValue('');
  await page.getByLabel('Country').selectOption('nigeria');
  await page.getByLabel('State or Province').selectOption('Lagos');
  await page.getByLabel('City').fill('Lekki');
  await page.getByLabel('Postcode').fill('105102');
  await page.getByLabel('Address', { exact: true }).fill('7 Admiralty Way');
  await page.getByRole('button', { name: 'Save Address' }).click();
  await expect(toast(page, 'Address saved successfully!')).toBeVisible();
  await expect(page).toHaveURL(/\/address-history$/);
  await expect(page.getByRole('checkbox', { name: /7 Admiralty Way/ })).toBeChecked();

  await page.getByRole('link', { name: 'Add New Address' }).click();
  await hydrated(page, page.getByRole('button', { name: 'Save Address' }));
  await page.getByLabel('Full Name').fill('Amara Nwosu');
  await page.getByLabel('Country').selectOption('south_africa');
  await page.getByLabel('State or Province').selectOption('Western Cape');
  await page.getByLabel('City').fill('Cape Town');
  await page.getByLabel('Postcode').fill('8001');
  await page.getByLabel('Address', { exact: true }).fill('21 Bree Street');
  await page.getByRole('button', { name: 'Save Address' }).click();
  await expect(toast(page, 'Address saved successfully!')).toBeVisible();
  await expect(page).toHaveURL(/\/address-history$/);
  await expect(page.getByRole('checkbox', { name: /21 Bree Street/ })).not.toBeChecked();

  await page.getByRole('link', { name: 'Edit address: 21 Bree Street' }).click();
  await expect(page.getByRole('heading', { name: 'Edit Address' })).toBeVisible();
  await hydrated(page, page.getByRole('button', { name: 'Update Address' }));
  await expect(page.getByLabel('State or Province')).toHaveValue('Western Cape');
  await page.getByLabel('City').fill('Sea Point');
  await page.getByRole('button', { name: 'Update Address' }).click();
  await expect(toast(page, 'Address updated successfully!')).toBeVisible();
  await expect(page).toHaveURL(/\/address-history$/);
  await expect(page.getByText('Sea Point, Western Cape 8001')).toBeVisible();

  await hydrated(page, page.getByRole('checkbox', { name: /21 Bree Street/ }));
  await page.getByRole('checkbox', { name: /21 Bree Street/ }).check();
  await expect(toast(page, 'Default address updated!')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: /21 Bree Street/ })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /7 Admiralty Way/ })).not.toBeChecked();

  page.once('dialog', async (dialog) => {
    expect(dialog.type()).toBe('confirm');
    expect(dialog.message()).toBe('Are you sure you want to delete this address?');
    await dialog.accept();
  });
  await page.getByRole('button', { name: 'Delete address: 21 Bree Street' }).click();
  await expect(toast(page, 'Address deleted successfully!')).toBeVisible();
  await expect(page.getByText('21 Bree Street')).toHaveCount(0);
  await expect(page.getByRole('checkbox', { name: /7 Admiralty Way/ })).toBeChecked();

  // Settings: profile fields and password
  await page.goto('/profile');
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await hydrated(page, page.getByRole('button', { name: 'Save Changes' }));
  await page.getByLabel('Phone Number').fill('+234 803 555 0200');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, 'Profile saved.')).toBeVisible();
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(toast(page, 'Please fill in both password fields.')).toBeVisible();
  const newPassword = 'Abuja-2027!';
  await page.getByLabel('Current Password').fill(password);
  await page.getByLabel('New Password').fill(newPassword);
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(toast(page, 'Password changed successfully!')).toBeVisible();
  await page.reload();
  // Kept in E.164 (+234…), read in the shopper's country.
  await expect(page.getByLabel('Phone Number')).toHaveValue('+2348035550200');

  // Logout from the header
  await page.getByRole('button', { name: /Account menu for/ }).click();
  await page.getByRole('button', { name: 'LogOut' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login\?next=%2Fprofile$/);

  // Forgot and reset
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole('link', { name: 'Back to Login' })).toBeVisible();
  await hydrated(page, page.getByRole('button', { name: 'Send Reset Link' }));
  await page.getByLabel('Email').fill(`nobody.${Date.now()}@example.com`);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(toast(page, 'Email not found')).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(toast(page, 'OTP sent to your email!')).toBeVisible();
  await expect(page).toHaveURL(/\/reset-password$/);
  await hydrated(page, page.getByRole('button', { name: 'Reset Password' }));
  const resetCode = await codeFor(page, email, 'password reset');
  const finalPassword = 'Kano-2028!';
  await page.getByLabel('Reset Code').fill(resetCode);
  await page.getByLabel('New Password').fill(finalPassword);
  await page.getByLabel('Confirm Password').fill('Something-else-1');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(toast(page, 'Passwords do not match!')).toBeVisible();
  await page.getByLabel('Confirm Password').fill(finalPassword);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(toast(page, 'Password reset successful!')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  // Login with the new password
  await hydrated(page, page.getByRole('button', { name: 'Login' }));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(finalPassword);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(toast(page, 'Login successful!')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Amara Nwosu' })).toBeVisible();
});

test('an unverified shopper is told to verify at login and can ask for a new code', async ({ page }, info) => {
  const email = `e2e.unverified.${info.project.name}.${Date.now()}@example.com`;
  const res = await page.request.post('/api/v1/user-auth/create', {
    data: { firstName: 'Tobi', lastName: 'Ade', email, password: 'Ibadan-2026!', phoneNumber: '08031112222', country: 'nigeria' },
  });
  expect(res.status()).toBe(201);
  await page.goto('/login');
  await hydrated(page, page.getByRole('button', { name: 'Login' }));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('Ibadan-2026!');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(toast(page, 'Please verify your email before logging in.')).toBeVisible();
  await page.getByRole('link', { name: 'I already have a code' }).click();
  await expect(page).toHaveURL(/\/verify-otp$/);
  await hydrated(page, page.getByRole('button', { name: 'Verify' }));
  await page.getByLabel('Verification Code').fill(await codeFor(page, email, 'verification'));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(toast(page, 'Email verified successfully!')).toBeVisible();
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a shopper page sends a signed-out shopper to log in, then back to it', async ({ page, request }) => {
    const email = await newShopper(request, false);
    await page.goto('/order-history?status=delivered');
    await expect(page).toHaveURL(`/login?next=${encodeURIComponent('/order-history?status=delivered')}`);
    await signInHere(page, email);
    await expect(page).toHaveURL('/order-history?status=delivered&notice=logged-in');
    await expect(page.getByRole('status').filter({ hasText: 'Login successful!' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Orders', exact: true })).toBeVisible();
  });

  test('the account forms still register, verify, log in and save an address', async ({ page }, info) => {
    const email = `e2e.nojs.${info.project.name}.${Date.now()}@example.com`;
    await page.goto('/register');
    await page.getByLabel('First Name').fill('Kemi');
    await page.getByLabel('Last Name').fill('Bello');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('Ilorin-2026!');
    await page.getByLabel('Phone Number').fill('08035550123');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page).toHaveURL(/\/verify-otp\?/);
    await expect(page.getByRole('status').filter({ hasText: 'Registration successful! Please verify your email.' })).toBeVisible();

    await page.getByLabel('Verification Code').fill(otherThan(await codeFor(page, email, 'verification')));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert')).toContainText('Invalid OTP');
    await page.getByLabel('Verification Code').fill(await codeFor(page, email, 'verification'));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/login\?notice=/);
    await expect(page.getByRole('status').filter({ hasText: 'Email verified successfully!' })).toBeVisible();

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('Wrong-pass-1');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('Ilorin-2026!');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/(\?notice=.*)?$/);

    await page.goto('/add-address');
    await page.getByLabel('Full Name').fill('Kemi Bello');
    await page.getByLabel('State or Province').selectOption('Kwara');
    await page.getByLabel('City').fill('Ilorin');
    await page.getByLabel('Postcode').fill('240101');
    await page.getByLabel('Address', { exact: true }).fill('5 Unity Road');
    await page.getByRole('button', { name: 'Save Address' }).click();
    await expect(page).toHaveURL(/\/address-history\?notice=/);
    await expect(page.getByText('5 Unity Road')).toBeVisible();
  });
});

function otherThan(code: string): string {
  return String((Number(code) + 1) % 10_000).padStart(4, '0');
}
