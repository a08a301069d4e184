import { chromium } from '@playwright/test';
const base = process.env.BASE ?? 'http://127.0.0.1:4600';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-background-networking'] });
const pages = process.argv.slice(2);
for (const [w, h, tag] of [[360, 740, 'phone'], [1366, 850, 'desk']]) {
  const ctx = await browser.newContext({ viewport: { width: w, height: h } });
  const page = await ctx.newPage();
  for (const p of pages) {
    await page.goto(base + p, { waitUntil: 'networkidle' });
    await page.waitForTimeout(800);
    const name = p.replace(/[^a-z0-9]+/gi, '_') || 'home';
    await page.screenshot({ path: `/tmp/shots/${tag}-${name}.png`, fullPage: process.env.FULL === '1' });
  }
  await ctx.close();
}
await browser.close();
