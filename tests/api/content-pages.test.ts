import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { accountClient } from './account-client';

/**
 * The content pages' editor over HTTP: the editor role (pages only, 403 elsewhere), drafts with the
 * refusal of a stale save, preview, publish live at once, schedule, restore, the XSS payloads, and
 * bad input as a 4xx, on PGlite and PostgreSQL.
 */
for (const driver of ['pglite', 'pg'] as const) {
  describe(`content pages API on ${driver}`, () => {
    let server: RunningServer;
    let api: ReturnType<typeof accountClient>;
    let owner: string;
    let editor: string;

    beforeAll(async () => {
      server = await startServer(driver);
      api = accountClient(server.baseUrl);
      owner = await api.signInOwner();
      const person = await api.verifiedUser('editor');
      const granted = await api.call('POST', '/admin/staff', { token: owner, body: { email: person.email, role: 'editor' } });
      expect(granted.status, JSON.stringify(granted.body)).toBe(200);
      const login = await api.call('POST', '/user-auth/login', { body: { email: person.email, password: person.password } });
      editor = login.body.data.token;
      expect(login.body.data.stepUp).toBe(true);
      const confirmed = await api.call('POST', '/user-auth/verify-device', { token: editor, body: { code: await api.lastCode(person.email) } });
      expect(confirmed.status).toBe(200);
    }, 180_000);
    afterAll(async () => {
      await server?.stop();
    });

    const page = async (path: string) => (await fetch(server.baseUrl + path)).text();
    const draftOf = (data: any, changes: Record<string, unknown>) => {
      const r = data.draft ?? data.published;
      return { title: r.title, description: r.description, updated: r.updated, contact: r.contact ?? undefined, body: r.body, baseRevision: data.headRevisionId, ...changes };
    };

    it('an editor reaches the pages only; every other back-office API answers 403', async () => {
      for (const path of ['/admin/orders', '/admin/promotions', '/admin/audit', '/admin/staff', '/admin/dashboard']) {
        const r = await api.call('GET', path, { token: editor });
        expect([path, r.status]).toEqual([path, 403]);
      }
      const list = await api.call('GET', '/admin/pages', { token: editor });
      expect(list.status).toBe(200);
      expect(list.body.data.map((p: { slug: string }) => p.slug)).toEqual(['about', 'privacy', 'contact']);
      const shopper = await api.verifiedUser('shopper');
      expect((await api.call('GET', '/admin/pages/about', { token: shopper.token })).status).toBe(403);
      expect((await api.call('GET', '/admin/pages/about')).status).toBe(401);
    });

    it('saves a draft, previews it, publishes it live at once (cached page dropped), and restores the earlier version', async () => {
      const before = await page('/about');
      expect(before).toContain('Thank you for shopping with us.');
      const got = await api.call('GET', '/admin/pages/about', { token: editor });
      expect(got.body.data.revisions[0]).toMatchObject({ kind: 'seed' });
      const seedId = got.body.data.revisions[0].id;
      const body = `${got.body.data.published.body}\nOur atelier opens in Abuja this spring.\n`;
      const saved = await api.call('PUT', '/admin/pages/about', { token: editor, body: draftOf(got.body.data, { body }) });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);

      const preview = await api.call('POST', '/admin/pages/about/preview', { token: editor, body: draftOf(got.body.data, { body }) });
      expect(preview.status).toBe(200);
      expect(preview.body.data.html).toContain('<p>Our atelier opens in Abuja this spring.</p>');
      expect(await page('/about')).not.toContain('Abuja this spring');

      const published = await api.call('POST', '/admin/pages/about/publish', { token: editor, body: {} });
      expect(published.status, JSON.stringify(published.body)).toBe(200);
      expect(await page('/about')).toContain('Our atelier opens in Abuja this spring.');
      const audit = await api.call('GET', '/admin/audit', { token: owner });
      expect(JSON.stringify(audit.body)).toContain('page.publish');

      const restored = await api.call('POST', `/admin/pages/about/revisions/${seedId}/restore`, { token: editor });
      expect(restored.status).toBe(200);
      expect((await api.call('POST', '/admin/pages/about/publish', { token: owner, body: {} })).status).toBe(200);
      expect(await page('/about')).not.toContain('Abuja this spring');
    });

    it('refuses the second of two saves on the same revision with who and when', async () => {
      const got = await api.call('GET', '/admin/pages/contact', { token: editor });
      const first = await api.call('PUT', '/admin/pages/contact', { token: editor, body: draftOf(got.body.data, { title: 'Contact us today' }) });
      expect(first.status).toBe(200);
      const second = await api.call('PUT', '/admin/pages/contact', { token: owner, body: draftOf(got.body.data, { title: 'Write to us' }) });
      expect(second.status).toBe(409);
      expect(second.body.message).toMatch(/^This page was changed by Ada Obi at \d\d:\d\d on \d{1,2} \w+ 20\d\d; your text is kept below$/);
    });

    it('schedules a publish for a time to come, and refuses one in the past', async () => {
      const got = await api.call('GET', '/admin/pages/contact', { token: editor });
      await api.call('PUT', '/admin/pages/contact', { token: editor, body: draftOf(got.body.data, {}) });
      const past = await api.call('POST', '/admin/pages/contact/publish', { token: editor, body: { at: '2020-01-01T10:00:00Z' } });
      expect([past.status, past.body.message]).toEqual([400, 'Choose a time in the future to publish']);
      const at = new Date(Date.now() + 86_400_000).toISOString();
      const scheduled = await api.call('POST', '/admin/pages/contact/publish', { token: editor, body: { at } });
      expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
      const state = await api.call('GET', '/admin/pages/contact', { token: editor });
      expect(state.body.data.scheduled).toMatchObject({ at });
    });

    it('refuses each XSS payload, and the live page carries none', async () => {
      const got = await api.call('GET', '/admin/pages/about', { token: editor });
      for (const payload of ['<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '[x](javascript:alert(1))', '<iframe src="https://example.com"></iframe>', '[y](data:text/html,<b>)']) {
        const r = await api.call('PUT', '/admin/pages/about', { token: editor, body: draftOf(got.body.data, { body: `Hello\n\n${payload}\n` }) });
        expect([payload, r.status]).toEqual([payload, 400]);
        const p = await api.call('POST', '/admin/pages/about/preview', { token: editor, body: draftOf(got.body.data, { body: `Hello\n\n${payload}\n` }) });
        expect(p.status).toBe(400);
      }
      // a link with a newline or a tab in its address is no link at all
      for (const body of ['[x](java\nscript:alert(1))', '[x](java\tscript:alert(1))']) {
        const split = await api.call('POST', '/admin/pages/about/preview', { token: editor, body: draftOf(got.body.data, { body }) });
        expect(split.status).toBe(200);
        expect(split.body.data.html).not.toContain('href');
      }
      const live = await fetch(server.baseUrl + '/about');
      expect(live.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(await live.text()).not.toMatch(/onerror|javascript:/);
    });

    it('takes a picture through sharp, alt text required, and answers its markdown', async () => {
      const jpeg = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#8a6d3b' } }).jpeg().toBuffer();
      const upload = async (alt: string | null, bytes: Uint8Array<ArrayBuffer> = new Uint8Array(jpeg), type = 'image/jpeg') => {
        const form = new FormData();
        form.append('image', new Blob([bytes], { type }), 'shop.jpg');
        if (alt !== null) form.append('alt', alt);
        const res = await fetch(`${server.baseUrl}/api/v1/admin/pages/about/pictures`, { method: 'POST', headers: { authorization: `Bearer ${editor}`, origin: server.baseUrl, accept: 'application/json' }, body: form });
        return { status: res.status, body: await res.json() };
      };
      expect((await upload(null)).status).toBe(400);
      const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
      expect((await upload('A drawing', svg, 'image/svg+xml')).status).toBe(400);
      const ok = await upload('The Rosebank boutique');
      expect(ok.status, JSON.stringify(ok.body)).toBe(201);
      expect(ok.body.data).toMatchObject({ width: 1200, height: 900 });
      expect(ok.body.data.markdown).toMatch(/^!\[The Rosebank boutique\]\(\/media\/[a-f0-9]+\/960\.webp\)$/);
      const image = await fetch(`${server.baseUrl}/media/${ok.body.data.hash}/640.avif`);
      expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/avif']);
    });

    it('answers bad input with a clear 4xx, never a 5xx', async () => {
      const got = await api.call('GET', '/admin/pages/privacy', { token: editor });
      const head = got.body.data.headRevisionId;
      const cases: [string, string, unknown, number, string?][] = [
        ['PUT', '/admin/pages/privacy', draftOf(got.body.data, { title: 'x'.repeat(200) }), 400, 'Keep the title to 120 characters'],
        ['PUT', '/admin/pages/privacy', draftOf(got.body.data, { body: 'a'.repeat(210 * 1024) }), 400, 'The page is longer than 200 KB'],
        ['PUT', '/admin/pages/privacy', draftOf(got.body.data, { updated: 'soon' }), 400],
        ['PUT', '/admin/pages/privacy', { title: 'Only a title' }, 400],
        ['PUT', '/admin/pages/privacy', 'not an object', 400],
        ['PUT', '/admin/pages/careers', draftOf(got.body.data, {}), 404],
        ['POST', '/admin/pages/privacy/publish', { at: 'tomorrow' }, 400],
        ['POST', `/admin/pages/about/revisions/${got.body.data.revisions.at(-1).id}/restore`, undefined, 404],
        ['POST', '/admin/pages/about/revisions/abc/restore', undefined, 400],
        ['GET', '/admin/pages/about/revisions/99999999', undefined, 404],
      ];
      for (const [method, path, body, status, text] of cases) {
        const r = await api.call(method, path, { token: editor, body });
        expect([method, path, r.status]).toEqual([method, path, status]);
        if (text) expect(r.body.message).toBe(text);
      }
      // a Privacy publish without a fixed sentence is refused naming it
      const cut = got.body.data.published.body.replace('**We do not share your data with third parties for marketing.**', 'We share carefully.');
      expect((await api.call('PUT', '/admin/pages/privacy', { token: editor, body: draftOf(got.body.data, { body: cut, baseRevision: head }) })).status).toBe(200);
      const refused = await api.call('POST', '/admin/pages/privacy/publish', { token: editor, body: {} });
      expect([refused.status, refused.body.message]).toEqual([400, 'The Privacy page must keep this sentence: We do not share your data with third parties for marketing.']);
    });
  });
}
