import { chromium, request as pwRequest } from '@playwright/test';
const base = 'http://127.0.0.1:4490';
const out = '/tmp/shots';
async function main() {
  const api = await pwRequest.newContext({ baseURL: base });
  const tag = Date.now().toString(36);
  const email = `shot.${tag}@example.com`;
  const phone = `+234803${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  await api.post('/api/v1/user-auth/create', { data: { firstName: 'Ada', lastName: 'Obi', email, password: 'Secret123!', phoneNumber: phone, country: 'nigeria' } });
  const ob = await (await api.get(`/api/v1/dev/outbox?to=${encodeURIComponent(email)}`)).json();
  const code = /code is (\d{4})/.exec((ob.data ?? ob)[0].text)![1];
  await api.post('/api/v1/user-auth/verify-otp', { data: { email, otp: code } });
  const token = (await (await api.post('/api/v1/user-auth/login', { data: { email, password: 'Secret123!' } })).json()).data.token;
  await api.post('/api/v1/address/create', { headers: { authorization: `Bearer ${token}` }, data: { name: 'Ada Obi', country: 'nigeria', state: 'Lagos', city: 'Ikoyi', address: '4 Bourdillon Road', zipCode: '101233', active: true } });
  const list = await (await api.get('/api/v1/products?limit=60')).json();
  for (const p of list.data.docs) {
    const d = (await (await api.get(`/api/v1/products/${p.id}`)).json()).data;
    const v = d.variants.find((x: any) => x.stock > 2 && x.price < 240000);
    if (v) { await api.post('/api/v1/cart/add-to-cart', { headers: { authorization: `Bearer ${token}` }, data: { productId: p.id, color: v.color, size: v.size, quantity: 1 } }); break; }
  }
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-background-networking'] });
  for (const [name, w, h] of [['phone', 360, 740], ['desktop', 1366, 900]] as const) {
    const page = await browser.newPage({ viewport: { width: w, height: h } });
    await page.goto(base + '/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('Secret123!');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.goto(base + '/place-order');
    await page.waitForTimeout(1500);
    await page.getByRole('radio', { name: /Pay on delivery/ }).check();
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${out}/checkout-pod-${name}.png`, fullPage: true });
    await page.close();
  }
  await browser.close();
}
main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
