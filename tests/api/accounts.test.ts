import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AVATAR_CHANGES_PER_DAY } from '@/lib/domain/account-rules';
import { startServer, type RunningServer } from '../support/server';
import { accountClient, otherCode } from './account-client';

for (const driver of ['pglite', 'pg'] as const) {
  describe(`accounts API on ${driver}`, () => {
    let server: RunningServer;
    let c: ReturnType<typeof accountClient>;

    beforeAll(async () => {
      server = await startServer(driver);
      c = accountClient(server.baseUrl);
    });
    afterAll(async () => {
      await server?.stop();
    });

    describe('registration and verification', () => {
      it('registers, mails a 4-digit code (text and HTML with the store name), verifies once', async () => {
        const email = c.uniqueEmail('reg');
        const res = await c.call('POST', '/user-auth/create', { body: c.registration(email.toUpperCase(), { country: 'south_africa' }) });
        expect(res.status).toBe(201);
        expect(res.body).toMatchObject({
          status: true,
          statusCode: 201,
          message: 'Registration successful! Please verify your email.',
          data: { user: { email, country: 'south_africa', firstName: 'Ada', image: null } },
        });
        expect(JSON.stringify(res.body)).not.toMatch(/password/i);

        const mail = await c.lastMail(email);
        expect(mail.subject).toMatch(/Maison Luxe verification code is \d{4}/);
        expect(mail.text).toMatch(/^Your Maison Luxe verification code is \d{4}\./);
        expect(mail.html).toContain('Maison Luxe');
        const code = await c.lastCode(email);
        expect(mail.html).toContain(code);

        const ok = await c.call('POST', '/user-auth/verify-otp', { body: { email, otp: code } });
        expect(ok.status).toBe(200);
        expect(ok.body).toMatchObject({ status: true, message: 'Email verified successfully!' });
        const again = await c.call('POST', '/user-auth/verify-otp', { body: { email, otp: code } });
        expect(again.status).toBe(400);
        expect(again.body.message).toMatch(/expired or was already used/);
      });

      it('defaults the country to nigeria', async () => {
        const email = c.uniqueEmail('ng');
        const { country: _ignored, ...body } = c.registration(email);
        const res = await c.call('POST', '/user-auth/create', { body });
        expect(res.status).toBe(201);
        expect(res.body.data.user.country).toBe('nigeria');
      });

      it('rejects each invalid registration field with a message', async () => {
        const cases: [Record<string, unknown>, RegExp][] = [
          [{ firstName: '' }, /First name is required/],
          [{ lastName: '   ' }, /Last name is required/],
          [{ email: 'not-an-email' }, /valid email/],
          [{ password: 'short7!' }, /at least 8 characters/],
          [{ password: 'x'.repeat(129) }, /at most 128 characters/],
          [{ phoneNumber: 'call me' }, /valid phone number/],
          [{ phoneNumber: '0803 123 456' }, /^Please enter a valid Nigerian phone number, e\.g\. 0803 123 4567$/],
          [{ country: 'ghana' }, /Nigeria or South Africa/],
        ];
        for (const [patch, message] of cases) {
          const res = await c.call('POST', '/user-auth/create', { body: c.registration(c.uniqueEmail('bad'), patch) });
          expect(res.status, JSON.stringify(patch)).toBe(400);
          expect(res.body.status).toBe(false);
          expect(res.body.message).toMatch(message);
        }
        const missing = await c.call('POST', '/user-auth/create', { body: { email: c.uniqueEmail() } });
        expect(missing.status).toBe(400);
        const notJson = await fetch(server.baseUrl + '/api/v1/user-auth/create', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{oops',
        });
        expect(notJson.status).toBe(400);
      });

      it('refuses a second account for the same e-mail (any case)', async () => {
        const { email } = await c.verifiedUser('dup');
        const res = await c.call('POST', '/user-auth/create', { body: c.registration(email.toUpperCase()) });
        expect(res.status).toBe(409);
        expect(res.body.message).toBe('An account with this email already exists');
      });

      it('lets a shopper who never verified sign up again: new details, a fresh code', async () => {
        const email = c.uniqueEmail('again');
        expect((await c.call('POST', '/user-auth/create', { body: c.registration(email, { firstName: 'First' }) })).status).toBe(201);
        const firstCode = await c.lastCode(email);
        // the resend limit (one code a minute) applies to signing up again as well
        const tooSoon = await c.call('POST', '/user-auth/create', { body: c.registration(email, { firstName: 'Second' }) });
        expect(tooSoon.status).toBe(429);
        expect(firstCode).toMatch(/^\d{4}$/);
      });

      it('validates the code format and voids a code after 5 wrong tries', async () => {
        const email = c.uniqueEmail('tries');
        await c.call('POST', '/user-auth/create', { body: c.registration(email) });
        const code = await c.lastCode(email);
        for (const otp of ['12a4', '123', '12345', '']) {
          const bad = await c.call('POST', '/user-auth/verify-otp', { body: { email, otp } });
          expect(bad.status).toBe(400);
          expect(bad.body.message).toBe('Please enter a valid 4-digit OTP');
        }
        for (let i = 1; i <= 5; i++) {
          const wrong = await c.call('POST', '/user-auth/verify-otp', { body: { email, otp: otherCode(code) } });
          expect(wrong.status).toBe(400);
          expect(wrong.body.message).toMatch(i < 5 ? new RegExp(`${5 - i} tr(y|ies) left`) : /Too many wrong attempts/);
        }
        const right = await c.call('POST', '/user-auth/verify-otp', { body: { email, otp: code } });
        expect(right.status).toBe(400);
        expect(right.body.message).toMatch(/Too many wrong attempts/);
        const login = await c.call('POST', '/user-auth/login', { body: { email, password: 'Lagos-2026!' } });
        expect(login.body.message).toBe('Please verify your email before logging in.');
      });

      it('limits resends to one a minute per e-mail (429 with Retry-After) and refuses unknown or verified e-mails', async () => {
        const email = c.uniqueEmail('resend');
        await c.call('POST', '/user-auth/create', { body: c.registration(email) });
        const res = await c.call('POST', '/user-auth/resend-otp', { body: { email } });
        expect(res.status).toBe(429);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(res.body.message).toMatch(/Please wait .* before requesting another code/);

        const unknown = await c.call('POST', '/user-auth/resend-otp', { body: { email: c.uniqueEmail('nobody') } });
        expect(unknown.status).toBe(404);
        expect(unknown.body.message).toBe('Email not found');
        const { email: verified } = await c.verifiedUser('verified');
        const done = await c.call('POST', '/user-auth/resend-otp', { body: { email: verified } });
        expect(done.status).toBe(400);
        expect(done.body.message).toMatch(/already verified/);
        const bad = await c.call('POST', '/user-auth/resend-otp', { body: { email: 'nope' } });
        expect(bad.status).toBe(400);
      });
    });

    describe('login and sessions', () => {
      it('logs in with the spec shape and sets an HttpOnly SameSite=Lax session cookie', async () => {
        const email = c.uniqueEmail('login');
        await c.call('POST', '/user-auth/create', { body: c.registration(email) });
        await c.call('POST', '/user-auth/verify-otp', { body: { email, otp: await c.lastCode(email) } });
        const res = await c.call('POST', '/user-auth/login', { body: { email: ` ${email.toUpperCase()} `, password: 'Lagos-2026!' } });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({
          status: true,
          statusCode: 200,
          message: 'Login successful!',
          data: { user: { email, firstName: 'Ada', lastName: 'Obi', country: 'nigeria', phoneNumber: '+2348031234567', image: null } },
        });
        expect(res.body.data.token).toMatch(/^[\w-]{40,}$/);
        expect(res.body.data.user.id).toBe(res.body.data.user.userId);
        const cookie = res.headers.get('set-cookie') ?? '';
        expect(cookie).toMatch(/ml_session=/);
        expect(cookie).toMatch(/HttpOnly/i);
        expect(cookie).toMatch(/SameSite=Lax/i);
        expect(cookie).toMatch(/Path=\//);
        expect(cookie).toMatch(/Max-Age=2592000/);

        // The cookie alone authenticates too.
        const sessionCookie = cookie.split(';')[0]!;
        const me = await c.call('GET', '/user-auth/get-user', { headers: { cookie: sessionCookie } });
        expect(me.status).toBe(200);
        expect(me.body.data.email).toBe(email);
      });

      it('gives the same answer for an unknown user and a wrong password', async () => {
        const { email } = await c.verifiedUser('same');
        const wrong = await c.call('POST', '/user-auth/login', { body: { email, password: 'Wrong-pass-1' } });
        const unknown = await c.call('POST', '/user-auth/login', { body: { email: c.uniqueEmail('ghost'), password: 'Wrong-pass-1' } });
        expect(wrong.status).toBe(401);
        expect(unknown.status).toBe(401);
        expect(wrong.body).toEqual(unknown.body);
        expect(wrong.body.message).toBe('Invalid email or password');
        const missing = await c.call('POST', '/user-auth/login', { body: { email } });
        expect(missing.status).toBe(400);
        expect(missing.body.message).toBe('Password is required');
      });

      it('tells an unverified account to verify (only with the right password)', async () => {
        const email = c.uniqueEmail('unverified');
        await c.call('POST', '/user-auth/create', { body: c.registration(email) });
        const res = await c.call('POST', '/user-auth/login', { body: { email, password: 'Lagos-2026!' } });
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ status: false, message: 'Please verify your email before logging in.', needsVerification: true });
        const wrong = await c.call('POST', '/user-auth/login', { body: { email, password: 'Wrong-pass-1' } });
        expect(wrong.body.message).toBe('Invalid email or password');
      });

      it('rate-limits login failures per e-mail with 429 and a time to wait', async () => {
        const { email, password } = await c.verifiedUser('brute');
        for (let i = 0; i < 5; i++) {
          const res = await c.call('POST', '/user-auth/login', { body: { email, password: `Wrong-${i}-pass` } });
          expect(res.status).toBe(401);
        }
        const blocked = await c.call('POST', '/user-auth/login', { body: { email, password } });
        expect(blocked.status).toBe(429);
        expect(blocked.body.message).toMatch(/Too many attempts. Please try again in \d+ minutes?\./);
        expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(60);
      });

      it('logout ends this session only', async () => {
        const { email, password, token } = await c.verifiedUser('logout');
        const second = (await c.call('POST', '/user-auth/login', { body: { email, password } })).body.data.token;
        const out = await c.call('POST', '/user-auth/logout', { token, body: {} });
        expect(out.status).toBe(200);
        expect(out.headers.get('set-cookie')).toMatch(/ml_session=;|Max-Age=0|Expires=Thu, 01 Jan 1970/);
        expect((await c.call('GET', '/user-auth/get-user', { token })).status).toBe(401);
        expect((await c.call('GET', '/user-auth/get-user', { token: second })).status).toBe(200);
      });
    });

    describe('profile', () => {
      it('get-user: 401 without a session, 403 for another user id, 200 for own id', async () => {
        const a = await c.verifiedUser('ga');
        const b = await c.verifiedUser('gb');
        const none = await c.call('GET', `/user-auth/get-user?userId=${a.id}`);
        expect(none.status).toBe(401);
        expect(none.body.message).toBe('Session expired. Please log in again.');
        expect((await c.call('GET', `/user-auth/get-user?userId=${b.id}`, { token: a.token })).status).toBe(403);
        const own = await c.call('GET', `/user-auth/get-user?userId=${a.id}`, { token: a.token });
        expect(own.status).toBe(200);
        expect(own.body.data).toMatchObject({ id: a.id, email: a.email });
        expect((await c.call('GET', '/user-auth/get-user', { token: 'forged-token' })).status).toBe(401);
      });

      it('PATCH profile saves the settings fields, validates them, and checks the user', async () => {
        const a = await c.verifiedUser('pa');
        const b = await c.verifiedUser('pb');
        const patch = { firstName: 'Adaeze', lastName: 'Okafor', phoneNumber: '+27 82 555 0101', country: 'south_africa' };
        expect((await c.call('PATCH', '/user-auth/profile', { body: patch })).status).toBe(401);
        expect((await c.call('PATCH', '/user-auth/profile', { body: { ...patch, userId: b.id }, token: a.token })).status).toBe(403);
        const ok = await c.call('PATCH', '/user-auth/profile', { body: patch, token: a.token });
        expect(ok.status).toBe(200);
        // The number is kept in E.164, read in the shopper's (new) country.
        const saved = { ...patch, phoneNumber: '+27825550101' };
        expect(ok.body).toMatchObject({ status: true, message: 'Profile saved.', data: saved });
        expect((await c.call('GET', '/user-auth/get-user', { token: a.token })).body.data).toMatchObject(saved);
        for (const [bad, msg] of [
          [{ firstName: '' }, /First name is required/],
          [{ country: 'kenya' }, /Nigeria or South Africa/],
          [{ phoneNumber: 'abc' }, /valid phone number/],
          [{ phoneNumber: '082 555 010' }, /^Please enter a valid South African phone number, e\.g\. 082 123 4567$/],
          [{ phoneNumber: '+44 20 7946 0958' }, /^Please enter a Nigerian \(\+234\) or South African \(\+27\) phone number$/],
          [{}, /Nothing to update/],
        ] as const) {
          const res = await c.call('PATCH', '/user-auth/profile', { body: bad, token: a.token });
          expect(res.status, JSON.stringify(bad)).toBe(400);
          expect(res.body.message).toMatch(msg);
        }
      });
    });

    describe('profile picture', () => {
      const upload = (token: string | undefined, bytes: Uint8Array<ArrayBuffer>, name: string, type: string) => {
        const form = new FormData();
        form.append('image', new Blob([bytes], { type }), name);
        return fetch(server.baseUrl + '/api/v1/user-auth/upload-image', {
          method: 'PUT',
          body: form,
          headers: { origin: server.baseUrl, ...(token ? { authorization: `Bearer ${token}` } : {}) },
        });
      };

      it('re-encodes a real picture to a square WebP without metadata, served by hash with nosniff and long cache', async () => {
        const a = await c.verifiedUser('pic');
        const jpeg = await sharp({ create: { width: 900, height: 600, channels: 3, background: { r: 180, g: 140, b: 60 } } })
          .jpeg()
          .withExif({ IFD0: { Copyright: 'secret-location', Artist: 'camera' } })
          .toBuffer();
        expect((await sharp(jpeg).metadata()).exif).toBeDefined();
        const res = await upload(a.token, jpeg, 'me.jpg', 'image/jpeg');
        const body = await res.json();
        expect(res.status).toBe(200);
        expect(body.status).toBe(true);
        expect(body.data.image).toMatch(/^\/media\/[a-f0-9]{32}$/);

        const img = await fetch(server.baseUrl + body.data.image);
        expect(img.status).toBe(200);
        expect(img.headers.get('content-type')).toBe('image/webp');
        expect(img.headers.get('x-content-type-options')).toBe('nosniff');
        expect(img.headers.get('cache-control')).toMatch(/max-age=31536000/);
        const meta = await sharp(Buffer.from(await img.arrayBuffer())).metadata();
        expect(meta).toMatchObject({ format: 'webp', width: 512, height: 512 });
        expect(meta.exif).toBeUndefined();
        expect((await c.call('GET', '/user-auth/get-user', { token: a.token })).body.data.image).toBe(body.data.image);
      });

      it('refuses a non-image renamed .png, an SVG, an oversized file, a missing field and no session', async () => {
        const a = await c.verifiedUser('badpic');
        const text = new TextEncoder().encode('#!/bin/sh\necho this is not a picture\n'.repeat(20));
        const fake = await upload(a.token, text, 'holiday.png', 'image/png');
        expect(fake.status).toBe(400);
        expect((await fake.json()).message).toBe('The file is not a valid image');

        const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
        expect((await upload(a.token, svg, 'x.png', 'image/png')).status).toBe(400);

        const big = new Uint8Array(5 * 1024 * 1024 + 10);
        big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
        const tooBig = await upload(a.token, big, 'big.png', 'image/png');
        expect(tooBig.status).toBe(400);
        expect((await tooBig.json()).message).toBe('Image size should be less than 5MB');

        const form = new FormData();
        form.append('picture', new Blob([text]), 'a.png');
        const noField = await fetch(server.baseUrl + '/api/v1/user-auth/upload-image', {
          method: 'PUT',
          body: form,
          headers: { origin: server.baseUrl, authorization: `Bearer ${a.token}` },
        });
        expect(noField.status).toBe(400);
        expect((await noField.json()).message).toBe('Please select an image file');

        const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#000' } }).png().toBuffer();
        expect((await upload(undefined, png, 'a.png', 'image/png')).status).toBe(401);
        expect((await c.call('GET', '/user-auth/get-user', { token: a.token })).body.data.image).toBeNull();
      });

      it(`allows ${AVATAR_CHANGES_PER_DAY} picture changes a day (then 429 with Retry-After), and removes the picture each one replaces`, async () => {
        const a = await c.verifiedUser('pics');
        const picture = (i: number) => sharp({ create: { width: 40, height: 40, channels: 3, background: { r: 20 * i, g: 100, b: 200 - 10 * i } } }).png().toBuffer();
        let previous: string | null = null;
        for (let i = 0; i < AVATAR_CHANGES_PER_DAY; i++) {
          const res = await upload(a.token, await picture(i), `me-${i}.png`, 'image/png');
          expect(res.status, `upload ${i + 1}`).toBe(200);
          const image = (await res.json()).data.image as string;
          expect((await fetch(server.baseUrl + image)).status).toBe(200);
          // The picture it replaced is gone.
          if (previous) expect((await fetch(server.baseUrl + previous)).status).toBe(404);
          previous = image;
        }
        const refused = await upload(a.token, await picture(99), 'one-more.png', 'image/png');
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
        expect((await refused.json()).message).toMatch(
          new RegExp(`^You can change your profile picture up to ${AVATAR_CHANGES_PER_DAY} times a day\\. Please try again in \\d+ (hours|minutes)\\.$`),
        );
        // The picture in place stays.
        expect((await c.call('GET', '/user-auth/get-user', { token: a.token })).body.data.image).toBe(previous);
        expect((await fetch(server.baseUrl + previous!)).status).toBe(200);
      });

      it('stops reading a chunked upload (no Content-Length) once it passes the size limit', async () => {
        const a = await c.verifiedUser('chunked');
        const boundary = 'ml-test-boundary';
        const head = new TextEncoder().encode(
          `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
        );
        let sent = 0;
        const chunk = new Uint8Array(256 * 1024);
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(head);
          },
          pull(controller) {
            // An endless body: the server must cut it off rather than buffer it.
            sent += chunk.byteLength;
            if (sent > 64 * 1024 * 1024) controller.close();
            else controller.enqueue(chunk);
          },
        });
        const res = await fetch(server.baseUrl + '/api/v1/user-auth/upload-image', {
          method: 'PUT',
          body,
          duplex: 'half',
          headers: { origin: server.baseUrl, authorization: `Bearer ${a.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        } as RequestInit);
        expect(res.status).toBe(400);
        expect((await res.json()).message).toBe('Image size should be less than 5MB');
        expect(sent).toBeLessThan(64 * 1024 * 1024);
      });

      it('refuses a picture over 40 megapixels', async () => {
        const a = await c.verifiedUser('huge');
        // 7000 x 6000 = 42 MP of one colour compresses to a small PNG.
        const png = await sharp({ create: { width: 7000, height: 6000, channels: 3, background: '#fff' } })
          .png({ compressionLevel: 9 })
          .toBuffer();
        expect(png.length).toBeLessThan(5 * 1024 * 1024);
        const res = await upload(a.token, png, 'huge.png', 'image/png');
        expect(res.status).toBe(400);
        expect((await res.json()).message).toBe('Image dimensions are too large (at most 40 megapixels)');
      });
    });

    describe('passwords', () => {
      it('change-password: validation, 401/403, wrong old password, ends other sessions only', async () => {
        const a = await c.verifiedUser('chg');
        const b = await c.verifiedUser('chg-other');
        const other = (await c.call('POST', '/user-auth/login', { body: { email: a.email, password: a.password } })).body.data.token;
        const path = `/user-auth/change-password/${a.id}`;
        expect((await c.call('PATCH', path, { body: { oldPassword: a.password, newPassword: 'New-pass-2026' } })).status).toBe(401);
        expect((await c.call('PATCH', `/user-auth/change-password/${b.id}`, { body: { oldPassword: a.password, newPassword: 'New-pass-2026' }, token: a.token })).status).toBe(403);
        for (const body of [{ oldPassword: a.password }, { newPassword: 'New-pass-2026' }, { oldPassword: '', newPassword: '' }]) {
          const res = await c.call('PATCH', path, { body, token: a.token });
          expect(res.status).toBe(400);
          expect(res.body.message).toBe('Please fill in both password fields.');
        }
        const short = await c.call('PATCH', path, { body: { oldPassword: a.password, newPassword: 'short' }, token: a.token });
        expect(short.body.message).toBe('Password must be at least 8 characters');
        const wrongOld = await c.call('PATCH', path, { body: { oldPassword: 'Not-my-pass', newPassword: 'New-pass-2026' }, token: a.token });
        expect(wrongOld.status).toBe(400);
        expect(wrongOld.body.message).toBe('Current password is incorrect');

        const ok = await c.call('PATCH', path, { body: { oldPassword: a.password, newPassword: 'New-pass-2026' }, token: a.token });
        expect(ok.status).toBe(200);
        expect(ok.body).toMatchObject({ status: true, message: 'Password changed successfully!' });
        expect((await c.call('GET', '/user-auth/get-user', { token: a.token })).status).toBe(200);
        expect((await c.call('GET', '/user-auth/get-user', { token: other })).status).toBe(401);
        expect((await c.call('POST', '/user-auth/login', { body: { email: a.email, password: a.password } })).status).toBe(401);
        expect((await c.call('POST', '/user-auth/login', { body: { email: a.email, password: 'New-pass-2026' } })).status).toBe(200);
        expect((await c.lastMail(a.email)).subject).toMatch(/password was changed/);
      });

      it('forgot + reset password: e-mailed code, validation, single use, ends every session', async () => {
        const a = await c.verifiedUser('reset');
        const unknown = await c.call('POST', '/user-auth/forgot-password', { body: { email: c.uniqueEmail('missing') } });
        expect(unknown.status).toBe(404);
        expect(unknown.body.message).toBe('Email not found');
        expect((await c.call('POST', '/user-auth/forgot-password', { body: { email: 'bad' } })).status).toBe(400);

        const sent = await c.call('POST', '/user-auth/forgot-password', { body: { email: a.email } });
        expect(sent.status).toBe(200);
        expect(sent.body).toMatchObject({ success: true, statusCode: 200, message: 'OTP sent to your email!' });
        const mail = await c.lastMail(a.email);
        expect(mail.text).toMatch(/^Your Maison Luxe password reset code is \d{4}\./);
        const code = await c.lastCode(a.email);
        const again = await c.call('POST', '/user-auth/forgot-password', { body: { email: a.email } });
        expect(again.status).toBe(429);

        const body = { email: a.email, otp: code, newPassword: 'Reset-pass-2026', confirmPassword: 'Reset-pass-2026' };
        const mismatch = await c.call('POST', '/user-auth/reset-password', { body: { ...body, confirmPassword: 'Other-pass-2026' } });
        expect(mismatch.body.message).toBe('Passwords do not match!');
        expect((await c.call('POST', '/user-auth/reset-password', { body: { ...body, otp: '12' } })).body.message).toBe('Please enter a valid 4-digit OTP');
        expect((await c.call('POST', '/user-auth/reset-password', { body: { ...body, newPassword: 'short', confirmPassword: 'short' } })).body.message).toBe(
          'Password must be at least 8 characters',
        );
        const wrong = await c.call('POST', '/user-auth/reset-password', { body: { ...body, otp: otherCode(code) } });
        expect(wrong.status).toBe(400);
        expect(wrong.body.message).toMatch(/Invalid OTP/);

        const ok = await c.call('POST', '/user-auth/reset-password', { body });
        expect(ok.status).toBe(200);
        expect(ok.body).toMatchObject({ status: true, message: 'Password reset successful!' });
        expect((await c.call('GET', '/user-auth/get-user', { token: a.token })).status).toBe(401);
        expect((await c.call('POST', '/user-auth/reset-password', { body: { ...body, newPassword: 'Third-pass-2026', confirmPassword: 'Third-pass-2026' } })).status).toBe(400);
        expect((await c.call('POST', '/user-auth/login', { body: { email: a.email, password: 'Reset-pass-2026' } })).status).toBe(200);
        expect((await c.lastMail(a.email)).subject).toMatch(/password was changed/);
      });
    });

    it('answers plain HTML form posts (no scripts) with redirects: next page on success, back with ?error= on failure', async () => {
      const { email, password } = await c.verifiedUser('form');
      const post = (path: string, fields: Record<string, string>, referer: string) =>
        fetch(server.baseUrl + '/api/v1' + path, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', origin: server.baseUrl, referer: server.baseUrl + referer },
          body: new URLSearchParams(fields).toString(),
        });
      const bad = await post('/user-auth/login', { email, password: 'Wrong-pass-1' }, '/login');
      expect(bad.status).toBe(303);
      expect(bad.headers.get('location')).toBe('/login?error=invalid-credentials');
      const ok = await post('/user-auth/login', { email, password }, '/login');
      expect(ok.status).toBe(303);
      expect(ok.headers.get('location')).toBe('/?notice=logged-in');
      const cookie = ok.headers.get('set-cookie')!.split(';')[0]!;
      expect(cookie).toMatch(/^ml_session=.+/);
      const me = await c.call('GET', '/user-auth/get-user', { headers: { cookie } });
      expect(me.body.data.email).toBe(email);
      // A cross-site form post is refused by the origin check.
      const cross = await fetch(server.baseUrl + '/api/v1/user-auth/login', {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
        body: new URLSearchParams({ email, password }).toString(),
      });
      expect(cross.status).toBe(403);
    });

    it('dev outbox lists mail newest first, filtered by recipient', async () => {
      const email = c.uniqueEmail('outbox');
      await c.call('POST', '/user-auth/create', { body: c.registration(email) });
      await c.call('POST', '/user-auth/verify-otp', { body: { email, otp: await c.lastCode(email) } });
      await c.call('POST', '/user-auth/forgot-password', { body: { email } });
      const res = await c.call('GET', `/dev/outbox?to=${encodeURIComponent(email.toUpperCase())}`);
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(2);
      expect(res.body[0].subject).toMatch(/password reset code/);
      expect(res.body[1].subject).toMatch(/verification code/);
      for (const m of res.body) expect(Object.keys(m).sort()).toEqual(['createdAt', 'html', 'subject', 'text', 'to']);
      const page = await fetch(`${server.baseUrl}/dev/mailbox?to=${encodeURIComponent(email)}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('password reset code');
    });
  });
}

describe('a demo store on an https site', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer('pglite', { PUBLIC_SITE_URL: 'https://shop.example' });
  });
  afterAll(async () => {
    await server?.stop();
  });
  it('marks the session cookie Secure because the site URL is https', async () => {
    const res = await fetch(server.baseUrl + '/api/v1/user-auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'demo@maisonluxe.ng', password: 'LuxeDemo2026!' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/;\s*Secure/i);
  });
  it('keeps the dev outbox (how a demo user reads codes), which requires ?to=', async () => {
    expect((await fetch(server.baseUrl + '/api/v1/dev/outbox?to=demo%40maisonluxe.ng')).status).toBe(200);
    expect((await fetch(server.baseUrl + '/dev/mailbox')).status).toBe(200);
  });
});
