import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { decodeQp, startSmtp } from '../support/smtp';
import { accountClient } from './account-client';


describe('mail by SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let server: RunningServer;
  let c: ReturnType<typeof accountClient>;

  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startServer('pglite', { SMTP_URL: smtp.url, MAIL_FROM: 'Maison Luxe <hello@maisonluxe.test>' });
    c = accountClient(server.baseUrl);
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
  });

  const waitFor = async (to: string, count: number) => {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const mails = smtp.inbox.filter((m) => m.to.includes(to));
      if (mails.length >= count) return mails;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no mail for ${to}`);
  };

  it('sends the verification code as text and HTML; the code from the mail verifies the account', async () => {
    const email = c.uniqueEmail('smtp');
    expect((await c.call('POST', '/user-auth/create', { body: c.registration(email) })).status).toBe(201);
    const [mail] = await waitFor(email, 1);
    expect(mail!.from).toBe('hello@maisonluxe.test');
    expect(mail!.raw).toMatch(/^Subject: Your Maison Luxe verification code is \d{4}/m);
    expect(mail!.raw).toMatch(/Content-Type: multipart\/alternative/i);
    expect(mail!.raw).toMatch(/Content-Type: text\/plain/i);
    expect(mail!.raw).toMatch(/Content-Type: text\/html/i);
    const text = decodeQp(mail!.raw);
    const code = /verification code is (\d{4})\./.exec(text)![1]!;
    // Both parts carry the store's name.
    expect(text.split(/Content-Type: text\/html/i)[1]).toContain('Maison Luxe');

    // Nothing went to the dev outbox: SMTP is the only path.
    expect((await c.call('GET', `/dev/outbox?to=${encodeURIComponent(email)}`)).body).toEqual([]);

    expect((await c.call('POST', '/user-auth/verify-otp', { body: { email, otp: code } })).status).toBe(200);
    const login = await c.call('POST', '/user-auth/login', { body: { email, password: 'Lagos-2026!' } });
    expect(login.status).toBe(200);

    // Reset code and the password-changed notice go out the same way.
    await c.call('POST', '/user-auth/forgot-password', { body: { email } });
    const mails = await waitFor(email, 2);
    const resetCode = /password reset code is (\d{4})\./.exec(decodeQp(mails[1]!.raw))![1]!;
    const reset = await c.call('POST', '/user-auth/reset-password', {
      body: { email, otp: resetCode, newPassword: 'Smtp-pass-2026', confirmPassword: 'Smtp-pass-2026' },
    });
    expect(reset.status).toBe(200);
    const all = await waitFor(email, 3);
    expect(all[2]!.raw).toMatch(/^Subject: Your Maison Luxe password was changed/m);
  });
  it('newsletter mails carry List-Unsubscribe (one-click, RFC 8058) with the same signed link as their text', async () => {
    const email = c.uniqueEmail('list-unsub');
    expect((await c.call('POST', '/newsletter/subscribe', { body: { email } })).status).toBe(202);
    const [mail] = await waitFor(email, 1);
    const head = mail!.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
    expect(head).toMatch(/^Subject: Confirm your subscription to Maison Luxe/m);
    const header = /^List-Unsubscribe: <([^>]+)>/m.exec(head)?.[1];
    expect(header).toMatch(/\/newsletter\/unsubscribe\?token=[\w.-]+$/);
    expect(head).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    expect(decodeQp(mail!.raw)).toContain(header!);
    // The mail client's one-click POST unsubscribes.
    const res = await fetch(header!, { method: 'POST', body: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('You have been unsubscribed from our newsletter.');
  });
});
