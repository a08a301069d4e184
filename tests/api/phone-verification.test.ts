import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeClickatell, type FakeClickatell } from '../support/fake-clickatell';
import { startServer, type RunningServer } from '../support/server';
import { accountClient, otherCode } from './account-client';

/**
 * Pay on delivery needs a verified mobile number. "Send code" texts a 4-digit
 * code (the dev outbox here, addressed by E.164), "Verify" uses it, under the e-mail codes' rules:
 * hashed, single use, 5 tries, send limits. A number changed since is not verified.
 */
const SENT = (phone: string) => `We sent a code to ${phone}.`;
const VERIFIED = 'Your phone is verified.';
const TEXT = /^Maison Luxe: your code is (\d{4})\. It expires in 10 minutes\.$/;

/** A Nigerian mobile number nobody else in the run has (0813 xxx xxxx), national and E.164. */
function nigerianMobile(): { national: string; e164: string } {
  const rest = String(randomInt(0, 100_000_000)).padStart(8, '0');
  return { national: `081${rest}`, e164: `+23481${rest}` };
}

type Api = ReturnType<typeof accountClient>;

for (const driver of ['pglite', 'pg'] as const) {
  describe(`phone verification on ${driver}`, () => {
    let server: RunningServer;
    let api: Api;

    beforeAll(async () => {
      server = await startServer(driver);
      api = accountClient(server.baseUrl);
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
    });

    /** A verified (e-mail) shopper with a number of their own, signed in. */
    async function shopper(): Promise<{ token: string; phone: string; email: string }> {
      const phone = nigerianMobile();
      const email = api.uniqueEmail('phone');
      const created = await api.call('POST', '/user-auth/create', { body: api.registration(email, { phoneNumber: phone.national }) });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.data.user.phoneNumber).toBe(phone.e164);
      expect((await api.call('POST', '/user-auth/verify-otp', { body: { email, otp: await api.lastCode(email) } })).status).toBe(200);
      const login = await api.call('POST', '/user-auth/login', { body: { email, password: 'Lagos-2026!' } });
      return { token: login.body.data.token, phone: phone.e164, email };
    }

    const texts = async (to: string): Promise<{ to: string; text: string }[]> => (await api.call('GET', `/dev/outbox?to=${encodeURIComponent(to)}`)).body;
    const lastTextCode = async (to: string): Promise<string> => {
      const [last] = await texts(to);
      const m = last ? TEXT.exec(last.text) : null;
      if (!m) throw new Error(`no code texted to ${to}: ${JSON.stringify(last)}`);
      return m[1]!;
    };
    const send = (token: string) => api.call('POST', '/user-auth/phone/send-code', { token, body: {} });
    const verify = (token: string, code: unknown) => api.call('POST', '/user-auth/phone/verify', { token, body: { code } });
    const page = async (path: string, token: string) => (await fetch(server.baseUrl + path, { headers: { cookie: `ml_session=${token}`, accept: 'text/html' } })).text();
    const checkout = (token: string) => page('/place-order?payment=on_delivery', token);
    /** A browser's form post (no scripts): answered with a redirect. */
    const formPost = (path: string, token: string, fields: Record<string, string>) =>
      fetch(`${server.baseUrl}/api/v1${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { authorization: `Bearer ${token}`, origin: server.baseUrl, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });

    it('texts a 4-digit code to the E.164 number; the code verifies the phone once', async () => {
      const me = await shopper();
      expect(await checkout(me.token)).toContain('id="verify-phone"');
      expect(await page('/settings', me.token)).toContain('Verify your phone');
      const sent = await send(me.token);
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      expect(sent.body).toMatchObject({ status: true, message: SENT(me.phone), data: { phone: me.phone } });
      const inbox = await texts(me.phone);
      expect(inbox).toHaveLength(1);
      expect(inbox[0]!.to).toBe(me.phone);
      expect(inbox[0]!.text).toMatch(TEXT);
      // The code is not in the e-mail outbox, and only its hash is kept (the text is the one copy).
      const code = await lastTextCode(me.phone);

      const done = await verify(me.token, code);
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(done.body).toMatchObject({ status: true, message: VERIFIED, data: { phone: me.phone, phoneVerified: true } });
      expect(await checkout(me.token)).not.toContain('id="verify-phone"');
      const settings = await page('/settings', me.token);
      expect(settings).toContain('Phone verified');
      expect(settings).not.toContain('Verify your phone');
      // Single use.
      const again = await verify(me.token, code);
      expect(again.status).toBe(400);
      expect(again.body.message).toBe('This code has expired or was already used. Please request a new one.');
      // Nothing more to send while the number stays verified.
      const resend = await send(me.token);
      expect(resend.status).toBe(409);
      expect(resend.body.message).toBe('Your phone is already verified.');
    });

    it('counts wrong codes in the e-mail code words and voids the code after 5 tries', async () => {
      const me = await shopper();
      expect((await send(me.token)).status).toBe(200);
      const code = await lastTextCode(me.phone);
      const wrong = otherCode(code);
      const said: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await verify(me.token, wrong);
        expect(res.status).toBe(400);
        said.push(res.body.message);
      }
      expect(said).toEqual([
        'Invalid OTP. Please check the code and try again. 4 tries left.',
        'Invalid OTP. Please check the code and try again. 3 tries left.',
        'Invalid OTP. Please check the code and try again. 2 tries left.',
        'Invalid OTP. Please check the code and try again. 1 try left.',
        'Too many wrong attempts. Please request a new code.',
      ]);
      // Locked out: the right code no longer works.
      const right = await verify(me.token, code);
      expect(right.status).toBe(400);
      expect(right.body.message).toBe('Too many wrong attempts. Please request a new code.');
      expect(await checkout(me.token)).toContain('id="verify-phone"');
    });

    it('limits sends like the e-mail codes: one a minute', async () => {
      const me = await shopper();
      expect((await send(me.token)).status).toBe(200);
      const second = await send(me.token);
      expect(second.status).toBe(429);
      expect(second.body.message).toMatch(/^Please wait \d+ (seconds?|minutes?) before requesting another code\.$/);
      expect(second.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await texts(me.phone)).toHaveLength(1);
    });

    it('a changed number is not verified: the old proof does not count', async () => {
      const me = await shopper();
      await send(me.token);
      expect((await verify(me.token, await lastTextCode(me.phone))).status).toBe(200);
      expect((await send(me.token)).status).toBe(409);
      const next = nigerianMobile();
      const changed = await api.call('PATCH', '/user-auth/profile', { token: me.token, body: { phoneNumber: next.national } });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expect(await checkout(me.token)).toContain('id="verify-phone"');
      expect(await checkout(me.token)).toContain(next.e164);
      // No longer "already verified": only the send limit (one a minute, per account) holds it back.
      const resend = await send(me.token);
      expect(resend.status).toBe(429);
      expect(resend.body.message).toMatch(/^Please wait/);
    });

    it('a code proves only the number it was texted to, not one changed since', async () => {
      const me = await shopper();
      await send(me.token);
      const code = await lastTextCode(me.phone);
      const next = nigerianMobile();
      expect((await api.call('PATCH', '/user-auth/profile', { token: me.token, body: { phoneNumber: next.national } })).status).toBe(200);
      const refused = await verify(me.token, code);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('Your phone number has changed since we sent the code. Please request a new one.');
      expect(await checkout(me.token)).toContain('id="verify-phone"');
      expect(await texts(next.e164)).toEqual([]);
    });

    it('never answers 5xx to bad input, and needs a session', async () => {
      const me = await shopper();
      expect((await api.call('POST', '/user-auth/phone/send-code', { body: {} })).status).toBe(401);
      expect((await api.call('POST', '/user-auth/phone/verify', { body: { code: '1234' } })).status).toBe(401);
      for (const code of ['abcd', '12345', '', ' ', 1234, null, ['1234'], { $gt: '' }, '１２３４', '12\u00003']) {
        const res = await verify(me.token, code);
        expect(res.status, JSON.stringify(code)).toBe(400);
        expect(res.body.status).toBe(false);
      }
      expect((await api.call('POST', '/user-auth/phone/verify', { token: me.token, body: {} })).body.message).toBe('Please enter a valid 4-digit OTP');
      // No code sent yet: the e-mail code's words for a missing code.
      expect((await verify(me.token, '1234')).body.message).toBe('This code has expired or was already used. Please request a new one.');
      const raw = await fetch(`${server.baseUrl}/api/v1/user-auth/phone/verify`, {
        method: 'POST',
        headers: { authorization: `Bearer ${me.token}`, origin: server.baseUrl, 'content-type': 'application/json' },
        body: '{"code":',
      });
      expect(raw.status).toBe(400);
      expect((await api.call('POST', '/user-auth/phone/send-code', { token: me.token, body: { back: 42 } })).status).toBe(400);
    });

    it('answers plain form posts with 303 to a path on this site only (no open redirect)', async () => {
      const me = await shopper();
      const hostile = ['//evil.example/x', 'https://evil.example/', '/\\evil.example', '/.//evil.example', 'javascript:alert(1)', '\t//evil.example', 'evil.example'];
      // Default: back to checkout with pay on delivery chosen, with the notice.
      const first = await formPost(`/user-auth/phone/send-code?back=${encodeURIComponent(hostile[0]!)}`, me.token, { back: hostile[1]! });
      expect(first.status).toBe(303);
      const location = first.headers.get('location')!;
      expect(new URL(location, server.baseUrl).origin).toBe(server.baseUrl);
      expect(location).toBe(`/place-order?payment=on_delivery&notice=${encodeURIComponent(`phone-code-sent:${me.phone}`)}#verify-phone-code`);
      // The notice link shows the message (the page reads it back).
      expect(await page(location, me.token)).toContain(SENT(me.phone));
      // Errors go back to a local ?back= only, never to another site.
      for (const back of hostile) {
        // (A code of letters: refused before it counts as a try.)
        const res = await formPost(`/user-auth/phone/verify?back=${encodeURIComponent(back)}`, me.token, { code: 'abcd', back });
        expect(res.status, back).toBe(303);
        const to = res.headers.get('location')!;
        expect(to.startsWith('/') && !to.startsWith('//'), `${back} -> ${to}`).toBe(true);
        expect(to, back).not.toMatch(/\\|evil/);
        expect(new URL(to, server.baseUrl).origin).toBe(server.baseUrl);
      }
      // A local back is kept: the settings page, with the outcome.
      const code = await lastTextCode(me.phone);
      const ok = await formPost('/user-auth/phone/verify?back=%2Fsettings', me.token, { code, back: '/settings' });
      expect(ok.status).toBe(303);
      expect(ok.headers.get('location')).toBe('/settings?notice=phone-verified');
      // A bad code's error goes back to the form's page.
      const bad = await formPost('/user-auth/phone/verify?back=%2Fplace-order%3Fpayment%3Don_delivery', me.token, { code: 'abc' });
      expect(bad.status).toBe(303);
      expect(bad.headers.get('location')).toBe('/place-order?payment=on_delivery&error=invalid-otp');
    });
  });
}

describe('phone codes through Clickatell (a local fake)', () => {
  let server: RunningServer;
  let clickatell: FakeClickatell;
  let api: Api;
  let log = '';

  beforeAll(async () => {
    clickatell = await startFakeClickatell();
    server = await startServer(
      'pglite',
      { SMS_PROVIDER: 'clickatell', CLICKATELL_API_KEY: clickatell.apiKey, CLICKATELL_BASE_URL: clickatell.baseUrl },
      { onOutput: (text) => (log += text) },
    );
    api = accountClient(server.baseUrl);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await clickatell?.close();
  });

  async function signedIn(): Promise<{ token: string; phone: string }> {
    const phone = nigerianMobile();
    const email = api.uniqueEmail('phone-ck');
    expect((await api.call('POST', '/user-auth/create', { body: api.registration(email, { phoneNumber: phone.e164 }) })).status).toBe(201);
    await api.call('POST', '/user-auth/verify-otp', { body: { email, otp: await api.lastCode(email) } });
    const login = await api.call('POST', '/user-auth/login', { body: { email, password: 'Lagos-2026!' } });
    return { token: login.body.data.token, phone: phone.e164 };
  }

  it('texts the code through the provider; a provider that is down gets a clear 503, and the code never reaches the log', async () => {
    const me = await signedIn();
    const sent = await api.call('POST', '/user-auth/phone/send-code', { token: me.token, body: {} });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const text = clickatell.texts.at(-1)!;
    expect(text.to).toBe(me.phone.slice(1));
    const code = TEXT.exec(text.content)![1]!;
    expect((await api.call('POST', '/user-auth/phone/verify', { token: me.token, body: { code } })).body.message).toBe(VERIFIED);

    const other = await signedIn();
    clickatell.behaviour.down = true;
    try {
      const down = await api.call('POST', '/user-auth/phone/send-code', { token: other.token, body: {} });
      expect(down.status).toBe(503);
      expect(down.body.message).toBe('We could not send the text just now. Please try again in a minute.');
    } finally {
      clickatell.behaviour.down = false;
    }
    await expect.poll(() => log).toContain('phone verification code not sent');
    expect(log).not.toContain(`code is ${code}`);
    expect(log).not.toContain(me.phone.slice(4));
  });
});
