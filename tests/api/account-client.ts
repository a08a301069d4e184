/** HTTP helpers shared by the account and address API tests. */
import { randomBytes } from 'node:crypto';

export interface Call {
  status: number;
  headers: Headers;
  body: any;
}

/** `origin`: the store's public origin (its PUBLIC_SITE_URL), which its own pages send as Origin. */
/** The seeded owner account (demo/seed.ts); a new device signs in with a mailed code (staff step-up). */
export const OWNER = { email: 'owner@maisonluxe.ng', password: 'LuxeOwner2026!' };

export function accountClient(baseUrl: string, origin = baseUrl) {
  async function call(method: string, path: string, opts: { body?: unknown; token?: string; headers?: Record<string, string> } = {}): Promise<Call> {
    // Browsers send Origin on every non-GET call; send it too, as a same-origin page would.
    const headers: Record<string, string> = { accept: 'application/json', origin, ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    const res = await fetch(baseUrl + '/api/v1' + path, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // keep text
    }
    return { status: res.status, headers: res.headers, body: parsed };
  }

  /** The newest mail to an address (the dev outbox is on in tests). */
  async function lastMail(to: string): Promise<{ subject: string; text: string; html: string }> {
    const { body } = await call('GET', `/dev/outbox?to=${encodeURIComponent(to)}`);
    if (!Array.isArray(body) || !body.length) throw new Error(`no mail for ${to}`);
    return body[0];
  }

  async function lastCode(to: string): Promise<string> {
    const mail = await lastMail(to);
    const m = /code is (\d{4})/.exec(mail.text);
    if (!m) throw new Error(`no code in mail: ${mail.text}`);
    return m[1]!;
  }

  function uniqueEmail(tag = 'shopper'): string {
    return `${tag}.${randomBytes(4).toString('hex')}@example.com`;
  }

  const registration = (email: string, extra: Record<string, unknown> = {}) => ({
    firstName: 'Ada',
    lastName: 'Obi',
    email,
    password: 'Lagos-2026!',
    phoneNumber: '+234 803 123 4567',
    country: 'nigeria',
    ...extra,
  });

  /** Registers, verifies with the mailed code and logs in. */
  async function verifiedUser(tag = 'shopper', password = 'Lagos-2026!'): Promise<{ email: string; password: string; token: string; id: string }> {
    const email = uniqueEmail(tag);
    const created = await call('POST', '/user-auth/create', { body: registration(email, { password }) });
    if (created.status !== 201) throw new Error(`register failed: ${JSON.stringify(created.body)}`);
    const verified = await call('POST', '/user-auth/verify-otp', { body: { email, otp: await lastCode(email) } });
    if (verified.status !== 200) throw new Error(`verify failed: ${JSON.stringify(verified.body)}`);
    const login = await call('POST', '/user-auth/login', { body: { email, password } });
    if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
    return { email, password, token: login.body.data.token, id: login.body.data.user.id };
  }

  /** Signs the owner in and confirms the device with the mailed code: a token the back office takes. */
  async function signInOwner(): Promise<string> {
    const login = await call('POST', '/user-auth/login', { body: OWNER });
    if (login.status !== 200) throw new Error(`owner login failed: ${JSON.stringify(login.body)}`);
    const token = login.body.data.token as string;
    const confirmed = await call('POST', '/user-auth/verify-device', { token, body: { code: await lastCode(OWNER.email) } });
    if (confirmed.status !== 200) throw new Error(`owner step-up failed: ${JSON.stringify(confirmed.body)}`);
    return token;
  }

  return { call, lastMail, lastCode, uniqueEmail, registration, verifiedUser, signInOwner };
}

/** A code that is certainly not the given one. */
export function otherCode(code: string): string {
  return String((Number(code) + 1) % 10_000).padStart(4, '0');
}
