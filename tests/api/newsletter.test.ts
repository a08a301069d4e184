import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimited } from '@/lib/domain/errors';
import { newsletterSubscriptions } from '@/lib/server/newsletter/tables';
import { promotionCodes } from '@/lib/server/promotions/tables';
import { startServer, type RunningServer } from '../support/server';
import { servicesFor } from '../support/services';
import { accountClient } from './account-client';

/** The one-click links of a newsletter mail's text. */
const confirmLink = (text: string) => /(https?:\/\/\S+\/newsletter\/confirm\?token=[\w.-]+)/.exec(text)?.[1] ?? null;
const unsubscribeLink = (text: string) => /(https?:\/\/\S+\/newsletter\/unsubscribe\?token=[\w.-]+)/.exec(text)?.[1] ?? null;
const welcomeCode = (text: string) => /\b(WELCOME-[A-Z0-9]{8})\b/.exec(text)?.[1] ?? null;

for (const driver of ['pglite', 'pg'] as const) {
  describe(`newsletter API on ${driver}`, () => {
    let server: RunningServer;
    const post = async (body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) => {
      const res = await fetch(`${server.baseUrl}/api/v1/newsletter/subscribe`, {
        method: 'POST',
        headers: { origin: server.baseUrl, ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
        redirect: 'manual',
      });
      return res;
    };

    beforeAll(async () => {
      server = await startServer(driver);
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('answers a new, a waiting and a confirmed address alike (202, same body): the box tells nobody who is subscribed', async () => {
      const c = accountClient(server.baseUrl);
      const first = await post({ email: 'Ada.Nwosu@Example.com' });
      expect(first.status).toBe(202);
      const body = await first.json();
      expect(body).toEqual({ status: true, data: { email: 'ada.nwosu@example.com' }, message: 'Thank you for subscribing. Our e-mail has the next step.' });
      const again = await post({ email: '  ADA.NWOSU@example.com ' });
      expect(again.status).toBe(202);
      expect(await again.json()).toEqual(body);

      // A confirmed address: the same answer; only its inbox learns it was already subscribed.
      const confirmed = c.uniqueEmail('confirmed');
      await post({ email: confirmed });
      expect((await fetch(confirmLink((await c.lastMail(confirmed)).text)!)).status).toBe(200);
      const repeat = await post({ email: confirmed.toUpperCase() });
      const fresh = await post({ email: c.uniqueEmail('fresh') });
      expect(repeat.status).toBe(fresh.status);
      const { data: repeatData, ...repeatRest } = await repeat.json();
      const { data: freshData, ...freshRest } = await fresh.json();
      expect(repeatRest).toEqual(freshRest);
      expect(Object.keys(repeatData)).toEqual(Object.keys(freshData));
    });

    it('rejects a missing or malformed e-mail and a body that is not JSON with 400', async () => {
      for (const payload of [{}, { email: '' }, { email: 'not-an-email' }, { email: 42 }]) {
        const res = await post(payload);
        expect(res.status).toBe(400);
        const body = await res.json();
        expect(body.status).toBe(false);
        expect(body.message).toMatch(/email/i);
      }
      const broken = await post('{"email":');
      expect(broken.status).toBe(400);
      expect((await broken.json()).message).toBe('The request body must be JSON');
    });

    it('answers a plain form post (before the island loads) with a redirect back to the box', async () => {
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      const created = await post('email=form-user%40example.com', form);
      expect(created.status).toBe(303);
      expect(created.headers.get('location')).toBe('/?newsletter=subscribed#newsletter');
      const repeat = await post('email=FORM-user%40example.com', form);
      expect(repeat.headers.get('location')).toBe('/?newsletter=subscribed#newsletter');
      const invalid = await post('email=nope', form);
      expect(invalid.headers.get('location')).toBe('/?newsletter=invalid#newsletter');
    });

    it('double opt-in: the confirm mail\'s link (no login) confirms and mails one welcome code; again, or subscribing again, issues none', async () => {
      const c = accountClient(server.baseUrl);
      const email = c.uniqueEmail('optin');
      const res = await post({ email });
      expect(res.status).toBe(202);
      expect((await res.json()).message).toBe('Thank you for subscribing. Our e-mail has the next step.');
      const confirmMail = await c.lastMail(email);
      expect(confirmMail.subject).toContain('Confirm your subscription');
      const link = confirmLink(confirmMail.text)!;
      expect(link.startsWith(`${server.baseUrl}/newsletter/confirm?token=`)).toBe(true);
      expect(confirmMail.html).toContain('Confirm your subscription');
      expect(unsubscribeLink(confirmMail.text)).toBeTruthy();

      // Following the link: a real page, no cookie, no script.
      const page = await fetch(link);
      expect(page.status).toBe(200);
      expect(page.headers.get('cache-control')).toContain('no-store');
      const html = await page.text();
      expect(html).toMatch(/<h1[^>]*>Subscription confirmed<\/h1>/);
      expect(html).toContain('Your subscription is confirmed. Your 20% off code is on its way to your inbox.');
      const welcome = await c.lastMail(email);
      const code = welcomeCode(welcome.text)!;
      expect(code).toBeTruthy();
      expect(welcome.subject).toContain(code);
      expect(welcome.text).toContain('20% off your order subtotal (not delivery), for one order, valid 30 days');
      expect(welcome.text).toContain(email);
      expect(unsubscribeLink(welcome.text)).toBeTruthy();

      // A second visit (or a mail scanner's), and subscribing again: same page, no new mail, no new code.
      expect((await fetch(link)).status).toBe(200);
      const again = await post({ email: email.toUpperCase() });
      expect(again.status).toBe(202);
      expect((await again.json()).message).toBe('Thank you for subscribing. Our e-mail has the next step.');
      const mails = (await c.call('GET', `/dev/outbox?to=${encodeURIComponent(email)}`)).body as { subject: string }[];
      expect(mails.map((m) => m.subject)).toEqual([welcome.subject, confirmMail.subject]);
    });

    it('a tampered or foreign token shows the link-invalid page (400), never a 500; the unsubscribe link works by GET and by one-click POST', async () => {
      const c = accountClient(server.baseUrl);
      const email = c.uniqueEmail('unsub');
      expect((await post({ email })).status).toBe(202);
      const mail = await c.lastMail(email);
      const link = new URL(confirmLink(mail.text)!);
      const token = link.searchParams.get('token')!;
      const [subject, signature] = token.split('.');
      const otherSubject = Buffer.from('someone@example.com').toString('base64url');
      for (const bad of [`${otherSubject}.${signature}`, `${subject}.${signature!.slice(0, -2)}AA`, 'nonsense', '', `${subject}`, '%00'.repeat(600)]) {
        const res = await fetch(`${server.baseUrl}/newsletter/confirm?token=${bad}`);
        expect(res.status).toBe(400);
        const html = await res.text();
        expect(html).toContain('This link is not valid. Please subscribe again from the home page.');
        expect(html).toMatch(/<h1[^>]*>This link is not valid<\/h1>/);
      }
      expect((await fetch(`${server.baseUrl}/newsletter/confirm`)).status).toBe(400);
      // A confirm token is not an unsubscribe token, nor the other way round.
      expect((await fetch(`${server.baseUrl}/newsletter/unsubscribe?token=${token}`)).status).toBe(400);
      const unsubscribe = unsubscribeLink(mail.text)!;
      expect((await fetch(link.toString().replace(/token=.*/, `token=${new URL(unsubscribe).searchParams.get('token')}`))).status).toBe(400);

      const out = await fetch(unsubscribe);
      expect(out.status).toBe(200);
      expect(await out.text()).toContain('You have been unsubscribed from our newsletter.');
      // The confirm link of an address that has since unsubscribed does not subscribe it again.
      expect((await fetch(link)).status).toBe(400);
      // RFC 8058: the mail client posts List-Unsubscribe=One-Click to the same URL (no cookie, no Origin).
      const oneClick = await fetch(unsubscribe, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
      expect(oneClick.status).toBe(200);
    });

    it('the settings form subscribes the signed-in shopper (double opt-in) and unsubscribes them, with JSON and as a plain form', async () => {
      const c = accountClient(server.baseUrl);
      const user = await c.verifiedUser('settings');
      const settings = async () => (await fetch(`${server.baseUrl}/settings`, { headers: { authorization: `Bearer ${user.token}` } })).text();
      const on = await c.call('POST', '/newsletter/preference', { token: user.token, body: { newsletter: 'yes' } });
      expect(on.status).toBe(200);
      expect(on.body).toMatchObject({ status: true, data: { newsletter: 'pending' }, message: 'Almost done: we e-mailed you a link to confirm your subscription.' });
      const mail = await c.lastMail(user.email);
      expect(mail.subject).toContain('Confirm your subscription');
      expect((await fetch(confirmLink(mail.text)!)).status).toBe(200);
      expect(welcomeCode((await c.lastMail(user.email)).text)).toBeTruthy();

      const off = await c.call('POST', '/newsletter/preference', { token: user.token, body: {} });
      expect(off.body).toMatchObject({ status: true, data: { newsletter: 'unsubscribed' }, message: 'You have been unsubscribed from our newsletter.' });
      const none = await c.call('POST', '/newsletter/preference', { token: user.token, body: { newsletter: false } });
      expect(none.body.message).toBe('You are not subscribed to our newsletter.');
      // Without a session: 401.
      expect((await c.call('POST', '/newsletter/preference', { body: { newsletter: 'yes' } })).status).toBe(401);

      // A plain form post (a browser without scripts) is answered with a redirect back to /settings.
      const form = await fetch(`${server.baseUrl}/api/v1/newsletter/preference`, {
        method: 'POST',
        headers: { origin: server.baseUrl, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${user.token}` },
        body: 'newsletter=yes',
        redirect: 'manual',
      });
      expect(form.status).toBe(303);
      expect(form.headers.get('location')).toBe('/settings?notice=newsletter-confirm-sent');
      const mails = (await c.call('GET', `/dev/outbox?to=${encodeURIComponent(user.email)}`)).body as { subject: string; text: string }[];
      expect(mails[0]!.subject).toContain('Confirm your subscription');
      // The settings page shows the choice: a checkbox labelled Newsletter.
      expect(await settings()).toMatch(/<input[^>]*id="set-newsletter"[^>]*type="checkbox"[^>]*name="newsletter"/);
      // Confirming again after unsubscribing keeps the one code: the same code is mailed again.
      const firstCode = welcomeCode(mails.find((m) => welcomeCode(m.text))!.text);
      expect((await fetch(confirmLink(mails[0]!.text)!)).status).toBe(200);
      expect(welcomeCode((await c.lastMail(user.email)).text)).toBe(firstCode);
    });
  });

  describe(`newsletter service on ${driver}`, () => {
    it('stores each address once, lower-cased, even when two sign-ups race', async () => {
      const { services, database, close } = await servicesFor(driver, { seed: false });
      try {
        const results = await Promise.all([
          services.newsletter.subscribe('Race@Example.com'),
          services.newsletter.subscribe('race@example.com'),
          services.newsletter.subscribe('RACE@EXAMPLE.COM'),
        ]);
        expect(results.filter((r) => r.created)).toHaveLength(1);
        const rows = await database.db.select().from(newsletterSubscriptions);
        expect(rows.map((r) => r.email)).toEqual(['race@example.com']);
      } finally {
        await close();
      }
    });

    it('records consent, issues exactly one welcome code under concurrent confirms, keeps it across unsubscribing, and exports the state', async () => {
      const { services, database, close } = await servicesFor(driver, { seed: false });
      try {
        const email = 'consent@example.com';
        expect(await services.newsletter.subscribe('Consent@Example.com', { source: 'home' })).toEqual({ created: true, status: 'pending' });
        const [confirmMail] = await services.outbox.list(email);
        const token = new URL(confirmLink(confirmMail!.text)!).searchParams.get('token')!;
        expect(confirmLink(confirmMail!.text)!.startsWith(services.config.PUBLIC_SITE_URL)).toBe(true);

        // Five confirms at once (a prefetcher and the shopper's clicks): one code, one welcome mail.
        const outcomes = await Promise.all(Array.from({ length: 5 }, () => services.newsletter.confirm(token)));
        expect(outcomes.every((o) => o.ok)).toBe(true);
        expect(outcomes.filter((o) => o.ok && o.welcomeMailed)).toHaveLength(1);
        const codes = await database.db.select().from(promotionCodes).where(eq(promotionCodes.email, email));
        expect(codes).toHaveLength(1);
        const [sub] = await database.db.select().from(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, email));
        expect(sub).toMatchObject({ status: 'confirmed', source: 'home', welcomeCodeId: codes[0]!.id });
        expect(sub!.confirmedAt).toBeInstanceOf(Date);
        const welcome = (await services.outbox.list(email)).filter((m) => welcomeCode(m.text));
        expect(welcome.map((m) => welcomeCode(m.text))).toEqual([codes[0]!.code]);

        // Unsubscribe (mail link), subscribe again (settings), confirm again: still one code.
        const unsubscribe = new URL(unsubscribeLink(welcome[0]!.text)!).searchParams.get('token')!;
        expect(await services.newsletter.unsubscribeByToken(unsubscribe)).toBe(true);
        expect(await services.newsletter.unsubscribeByToken(unsubscribe)).toBe(true);
        expect(await services.newsletter.statusOf(email)).toBe('unsubscribed');
        expect((await services.newsletter.confirm(token)).ok).toBe(false);
        expect(await services.newsletter.subscribe(email, { source: 'settings' })).toEqual({ created: true, status: 'pending' });
        await Promise.all([services.newsletter.confirm(token), services.newsletter.confirm(token)]);
        expect(await database.db.select().from(promotionCodes).where(eq(promotionCodes.email, email))).toHaveLength(1);
        expect((await services.newsletter.subscribe(email)).created).toBe(false);

        const history = await services.newsletter.consentHistory(email);
        expect(history.map((h) => [h.action, h.source])).toEqual([
          ['subscribed', 'home'],
          ['confirmed', 'mail-link'],
          ['unsubscribed', 'mail-link'],
          ['resubscribed', 'settings'],
          ['confirmed', 'mail-link'],
        ]);

        // Tampered tokens change nothing.
        expect(await services.newsletter.confirm(token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'))).toEqual({ ok: false });
        expect(await services.newsletter.unsubscribeByToken(token)).toBe(false);
        expect(await services.newsletter.confirm(null)).toEqual({ ok: false });

        const csv = (await services.newsletter.exportCsv()).split('\r\n');
        expect(csv[0]).toBe('email,subscribed_at,status,source,confirmed_at,unsubscribed_at');
        const row = csv[1]!.split(',');
        expect(row.slice(0, 1).concat(row.slice(2, 4))).toEqual([email, 'confirmed', 'settings']);
        expect(row[4]).toMatch(/^\d{4}-\d{2}-\d{2}T/);
        expect(row[5]).toBe('');
      } finally {
        await close();
      }
    });

    it('sends a waiting address its confirm link again at most once a minute', async () => {
      const { services, close } = await servicesFor(driver, { seed: false });
      try {
        await services.newsletter.subscribe('again@example.com');
        await services.newsletter.subscribe('again@example.com');
        await services.newsletter.subscribe('again@example.com');
        expect(await services.outbox.list('again@example.com')).toHaveLength(1);
      } finally {
        await close();
      }
    });

    it('the box mails a recipient at most once a day, whoever asks, and takes a bounded number of subscribes per client address', async () => {
      let now = new Date('2026-11-26T08:00:00Z');
      const { services, close } = await servicesFor(driver, { seed: false, clock: () => now });
      try {
        // One client, 30 addresses at once: the first 10 are taken (10 mails), the rest refused with 429.
        const outcomes = await Promise.allSettled(
          Array.from({ length: 30 }, (_, i) => services.newsletter.subscribe(`victim${i}@example.com`, { clientIp: '203.0.113.7' })),
        );
        const refused = outcomes.filter((o) => o.status === 'rejected');
        expect(refused.every((o) => o.reason instanceof RateLimited)).toBe(true);
        expect(refused).toHaveLength(20);
        let mailed = 0;
        for (let i = 0; i < 30; i++) mailed += (await services.outbox.list(`victim${i}@example.com`)).length;
        expect(mailed).toBe(10);
        // Another client is not held back by that one.
        await services.newsletter.subscribe('other@example.com', { clientIp: '198.51.100.9' });
        expect(await services.outbox.list('other@example.com')).toHaveLength(1);

        // One recipient from many clients, over hours: one confirm mail a day.
        for (let i = 0; i < 5; i++) {
          now = new Date(now.getTime() + 2 * 3_600_000);
          await services.newsletter.subscribe('target@example.com', { clientIp: `192.0.2.${i + 1}` });
        }
        expect(await services.outbox.list('target@example.com')).toHaveLength(1);
        now = new Date(now.getTime() + 24 * 3_600_000);
        await services.newsletter.subscribe('target@example.com', { clientIp: '192.0.2.99' });
        expect(await services.outbox.list('target@example.com')).toHaveLength(2);

        // A confirmed address hears that it is already subscribed, within the same daily limit.
        const [confirmMail] = await services.outbox.list('other@example.com');
        expect((await services.newsletter.confirm(new URL(confirmLink(confirmMail!.text)!).searchParams.get('token'))).ok).toBe(true);
        now = new Date(now.getTime() + 25 * 3_600_000);
        for (let i = 0; i < 3; i++) await services.newsletter.subscribe('Other@Example.com', { clientIp: `192.0.2.${i + 1}` });
        const mails = await services.outbox.list('other@example.com');
        expect(mails.map((m) => m.subject)).toEqual([
          'You are already subscribed to Maison Luxe',
          expect.stringContaining('Your 20% off code is'),
          'Confirm your subscription to Maison Luxe',
        ]);
        expect(mails[0]!.text).toContain('You are already subscribed, so there is nothing to do.');
        expect(unsubscribeLink(mails[0]!.text)).toBeTruthy();
        expect(await services.newsletter.statusOf('other@example.com')).toBe('confirmed');
      } finally {
        await close();
      }
    });
  });
}
