import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Driver, type RunningServer } from '../support/server';
import { decodeQp, startSmtp, waitForMail } from '../support/smtp';
import { accountClient, otherCode } from './account-client';

const DRIVERS: Driver[] = ['pglite', 'pg'];

/** An address with no digits, so a 4-digit code can only come from a code. */
const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + randomInt(26))).join('');

for (const driver of DRIVERS) {
  describe(`no secrets in the log of an SMTP run on ${driver}`, () => {
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let server: RunningServer;
    let c: ReturnType<typeof accountClient>;
    let log = '';

    beforeAll(async () => {
      smtp = await startSmtp();
      server = await startServer(driver, { SMTP_URL: smtp.url, LOG_LEVEL: 'debug' }, { onOutput: (t) => (log += t) });
      c = accountClient(server.baseUrl);
    });
    afterAll(async () => {
      await server?.stop();
      await smtp?.close();
    });

    it('codes, tokens and passwords of registration, login, reset and password change never reach the log', async () => {
      const email = `logs.${letters(10)}@example.com`;
      const passwords = ['Lagos-2026!', 'Smtp-pass-2026', 'Changed-pass-2026'];
      const codes: string[] = [];
      const tokens: string[] = [];

      expect((await c.call('POST', '/user-auth/create', { body: c.registration(email, { password: passwords[0] }) })).status).toBe(201);
      const [welcome] = await waitForMail(smtp.inbox, email, 1);
      codes.push(/verification code is (\d{4})\./.exec(decodeQp(welcome!.raw))![1]!);
      expect((await c.call('POST', '/user-auth/verify-otp', { body: { email, otp: otherCode(codes[0]!) } })).status).toBe(400);
      expect((await c.call('POST', '/user-auth/verify-otp', { body: { email, otp: codes[0] } })).status).toBe(200);
      expect((await c.call('POST', '/user-auth/login', { body: { email, password: 'Wrong-pass-2026' } })).status).toBe(401);
      const login = await c.call('POST', '/user-auth/login', { body: { email, password: passwords[0] } });
      expect(login.status).toBe(200);
      tokens.push(login.body.data.token);

      expect((await c.call('POST', '/user-auth/forgot-password', { body: { email } })).status).toBe(200);
      const mails = await waitForMail(smtp.inbox, email, 2);
      codes.push(/password reset code is (\d{4})\./.exec(decodeQp(mails[1]!.raw))![1]!);
      const reset = await c.call('POST', '/user-auth/reset-password', {
        body: { email, otp: codes[1], newPassword: passwords[1], confirmPassword: passwords[1] },
      });
      expect(reset.status).toBe(200);
      await waitForMail(smtp.inbox, email, 3);

      const again = await c.call('POST', '/user-auth/login', { body: { email, password: passwords[1] } });
      tokens.push(again.body.data.token);
      const change = await c.call('PATCH', `/user-auth/change-password/${again.body.data.user.id}`, {
        token: tokens[1],
        body: { oldPassword: passwords[1], newPassword: passwords[2], confirmPassword: passwords[2] },
      });
      expect(change.status).toBe(200);
      await waitForMail(smtp.inbox, email, 4);
      await new Promise((r) => setTimeout(r, 300)); // let the last log lines arrive

      // The log is there (one JSON line per request and per mail) ...
      const lines = log
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.filter((l) => l.msg === 'mail sent')).toHaveLength(4);
      expect(lines.filter((l) => l.msg === 'request').length).toBeGreaterThanOrEqual(8);

      // ... and holds none of the secrets.
      for (const secret of [...passwords, 'Wrong-pass-2026', ...tokens]) expect(log).not.toContain(secret);
      expect(log).not.toMatch(/code is/i);
      for (const line of lines) {
        // Timestamps, request ids, durations and the mail server's message ids (a UUID can hold a
        // group of four digits) are the only places digits may come from.
        const { time: _t, requestId: _r, ms: _m, messageId: _id, ...rest } = line;
        const text = JSON.stringify(rest);
        for (const code of codes) expect(text).not.toMatch(new RegExp(`(^|\\D)${code}(\\D|$)`));
      }
    });

    it('the server runs housekeeping at start (boot wires it in)', async () => {
      const lines = log
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.filter((l) => l.msg === 'housekeeping done').length).toBeGreaterThanOrEqual(1);
      expect(lines.filter((l) => l.msg === 'housekeeping failed')).toEqual([]);
    });
  });
}
