import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePaystack, type FakePaystack } from '../support/fake-paystack';
import { startServer, type RunningServer } from '../support/server';
import { decodeQp, startSmtp, waitForMail } from '../support/smtp';
import { accountClient } from './account-client';

/** Runs the built server with `env` and resolves with its exit code and output (it should refuse to start). */
function refusedStart(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'store-live-'));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`${process.env.STORE_DIST ?? 'dist'}/server/entry.mjs`], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', STORE_MODE: '', PAYMENT_PROVIDER: '', SMTP_URL: '', PUBLIC_SITE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      rmSync(dataDir, { recursive: true, force: true });
      resolve({ code, output });
    });
  });
}

describe('live mode', () => {
  it('refuses to start without Paystack, SMTP and an https site URL, naming each variable', async () => {
    const { code, output } = await refusedStart({ STORE_MODE: 'live', SCRYPT_LOG2_N: '16' });
    expect(code).toBe(1);
    expect(output).toMatch(/SCRYPT_LOG2_N: must be at least 17 when STORE_MODE=live/);
    expect(output).toMatch(/PAYMENT_PROVIDER/);
    expect(output).toMatch(/SMTP_URL/);
    expect(output).toMatch(/PUBLIC_SITE_URL/);
    expect(output).toMatch(/LINK_SIGNING_SECRET/);
    const http = await refusedStart({
      STORE_MODE: 'live',
      PAYMENT_PROVIDER: 'paystack',
      PAYSTACK_SECRET_KEY: 'sk_live_x',
      SMTP_URL: 'smtp://127.0.0.1:2525',
      PUBLIC_SITE_URL: 'http://shop.example',
      LINK_SIGNING_SECRET: 'a-live-secret-of-at-least-32-characters',
      SCRYPT_LOG2_N: '17',
    });
    expect(http.code).toBe(1);
    expect(http.output).not.toMatch(/SCRYPT_LOG2_N/);
    expect(http.output).toMatch(/PUBLIC_SITE_URL/);
    expect(http.output).not.toMatch(/SMTP_URL/);
    // Every market pays through its own Paystack account: South Africa's key is required too.
    expect(http.output).toMatch(/PAYSTACK_SECRET_KEY_ZA/);
    expect(http.output).not.toMatch(/PAYSTACK_SECRET_KEY_NG/);
  });

  it('refuses to start with WhatsApp through the Cloud API but without its keys', async () => {
    const live = { STORE_MODE: 'live', PAYMENT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY_NG: 'sk_live_x', PAYSTACK_SECRET_KEY_ZA: 'sk_live_za', SMTP_URL: 'smtp://127.0.0.1:2525', PUBLIC_SITE_URL: 'https://shop.example', LINK_SIGNING_SECRET: 'a-live-secret-of-at-least-32-characters' };
    const { code, output } = await refusedStart({ ...live, WHATSAPP: 'cloud', WHATSAPP_TOKEN: 'EAAlive', WHATSAPP_PHONE_NUMBER_ID: '', WHATSAPP_APP_SECRET: '', WHATSAPP_VERIFY_TOKEN: '' });
    expect(code).toBe(1);
    expect(output).toMatch(/WHATSAPP_PHONE_NUMBER_ID: is required when WHATSAPP=cloud/);
    expect(output).toMatch(/WHATSAPP_APP_SECRET: is required when WHATSAPP=cloud/);
    expect(output).toMatch(/WHATSAPP_VERIFY_TOKEN: is required when WHATSAPP=cloud/);
    expect(output).not.toMatch(/WHATSAPP_TOKEN: is required|SMTP_URL|PUBLIC_SITE_URL|PAYSTACK_SECRET_KEY/);
  });

  it('refuses to start with pay on delivery but no SMS provider', async () => {
    const live = { STORE_MODE: 'live', PAYMENT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY_NG: 'sk_live_x', PAYSTACK_SECRET_KEY_ZA: 'sk_live_za', SMTP_URL: 'smtp://127.0.0.1:2525', PUBLIC_SITE_URL: 'https://shop.example', SMS_PROVIDER: '', CLICKATELL_API_KEY: '' };
    const { code, output } = await refusedStart({ ...live, PAY_ON_DELIVERY: 'on' });
    expect(code).toBe(1);
    expect(output).toMatch(/SMS_PROVIDER: must be clickatell when STORE_MODE=live and PAY_ON_DELIVERY=on/);
    expect(output).not.toMatch(/SMTP_URL|PUBLIC_SITE_URL|PAYSTACK_SECRET_KEY/);
  });

  for (const driver of ['pglite', 'pg'] as const) {
    describe(`with Paystack and SMTP on ${driver}`, () => {
      let server: RunningServer;
      let paystack: FakePaystack;
      let smtp: Awaited<ReturnType<typeof startSmtp>>;
      beforeAll(async () => {
        const zaKey = `sk_test_za_${driver}`;
        [paystack, smtp] = await Promise.all([startFakePaystack(undefined, [{ secretKey: zaKey, currency: 'ZAR' }]), startSmtp()]);
        server = await startServer(driver, {
          STORE_MODE: 'live',
          // The test stores' cheap hashing is refused in live mode.
          SCRYPT_LOG2_N: '17',
          PAYMENT_PROVIDER: 'paystack',
          PAYSTACK_SECRET_KEY: paystack.secretKey,
          PAYSTACK_SECRET_KEY_ZA: zaKey,
          PAYSTACK_BASE_URL: paystack.baseUrl,
          SMTP_URL: smtp.url,
          PUBLIC_SITE_URL: 'https://shop.example',
          LINK_SIGNING_SECRET: `live-link-secret-${driver}-0123456789abcdef`,
        });
      });
      afterAll(async () => {
        await server?.stop();
        await Promise.all([paystack?.close(), smtp?.close()]);
      });

      it('serves no dev outbox and no simulated payment page', async () => {
        expect((await fetch(`${server.baseUrl}/api/v1/dev/outbox?to=demo%40maisonluxe.ng`)).status).toBe(404);
        expect((await fetch(`${server.baseUrl}/dev/mailbox?to=demo%40maisonluxe.ng`)).status).toBe(404);
        const page = await fetch(`${server.baseUrl}/pay/simulated/ML-PAY-123`);
        expect(page.status).toBe(404);
        expect(await page.text()).not.toContain('Complete your payment');
      });

      it('seeds no demo shopper and no demo catalogue, and shows no demo notice', async () => {
        const login = await fetch(`${server.baseUrl}/api/v1/user-auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'demo@maisonluxe.ng', password: 'LuxeDemo2026!' }),
        });
        expect(login.status).toBe(401);
        const products = (await (await fetch(`${server.baseUrl}/api/v1/products`)).json()) as { data: { totalDocs: number } };
        expect(products.data.totalDocs).toBe(0);
        const home = await (await fetch(`${server.baseUrl}/`)).text();
        expect(home).not.toContain('Demo store: payments are simulated');
      });

      it('sets Secure cookies (a new shopper signs up, reads the code from real mail, signs in)', async () => {
        // The store's own pages, on https://shop.example, send that Origin.
        const api = accountClient(server.baseUrl, 'https://shop.example');
        const email = api.uniqueEmail('live');
        const created = await api.call('POST', '/user-auth/create', { body: api.registration(email, { password: 'Lagos-2026!' }) });
        expect(created.status).toBe(201);
        const [mail] = await waitForMail(smtp.inbox, email, 1);
        const code = /verification code is (\d{4})\./.exec(decodeQp(mail!.raw))![1]!;
        expect((await api.call('POST', '/user-auth/verify-otp', { body: { email, otp: code } })).status).toBe(200);
        const login = await fetch(`${server.baseUrl}/api/v1/user-auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password: 'Lagos-2026!' }),
        });
        expect(login.status).toBe(200);
        expect(login.headers.get('set-cookie')).toMatch(/;\s*Secure/i);
      });
    });
  }
});

describe('demo mode', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer('pglite');
  });
  afterAll(async () => server?.stop());

  it('shows the demo notice on every page and requires ?to= for the outbox', async () => {
    for (const p of ['/', '/about', '/login', '/collection']) {
      expect(await (await fetch(server.baseUrl + p)).text(), p).toContain('Demo store: payments are simulated');
    }
    const all = await fetch(`${server.baseUrl}/api/v1/dev/outbox`);
    expect(all.status).toBe(400);
    expect((await fetch(`${server.baseUrl}/api/v1/dev/outbox?to=demo%40maisonluxe.ng`)).status).toBe(200);
  });
});
