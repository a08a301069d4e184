import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Conflict, Invalid, NotFound } from '@/lib/domain/errors';
import { PRIVACY_FIXED_SENTENCES, type PageSlug } from '@/lib/domain/content-pages';
import { createContentPages, pageTag, SITEMAP_TAG, type Editor } from '@/lib/server/content/pages';
import { parsePageFile, pageFileText, readPageFiles } from '@/lib/server/content/files';
import { checkMarkdown, renderMarkdown } from '@/lib/server/content/render';
import { DRIVERS, servicesFor, testClock } from '../support/services';

const ada: Editor = { id: null, email: 'ada@example.com', name: 'Ada Obi' };
const bola: Editor = { id: null, email: 'bola@example.com', name: 'Bola Ade' };

/** The seeded bodies as Astro rendered them from the files before the pages came from the database (satteri, no highlighting). */
const ASTRO_ABOUT_START = '<h2 id="our-mission">Our mission</h2>\n<p>Maison Luxe exists to bring';

for (const driver of DRIVERS) {
  describe(`content pages on ${driver}`, () => {
    const clock = testClock(new Date('2026-12-01T09:00:00Z'));
    const dropped: string[][] = [];
    let env: Awaited<ReturnType<typeof servicesFor>>;
    let pages: ReturnType<typeof createContentPages>;

    beforeAll(async () => {
      env = await servicesFor(driver, { clock, seed: false });
      pages = createContentPages({
        db: env.database.db,
        clock,
        pageCache: { invalidate: async (tags) => void dropped.push([...tags]) },
        audit: env.services.audit,
        seeds: () => readPageFiles(),
        timeZone: 'Africa/Lagos',
        media: env.services.media,
      });
    }, 120_000);
    afterAll(async () => {
      await env?.close();
    });

    const fieldsOf = async (slug: PageSlug) => {
      const s = await pages.state(slug);
      const r = s.draft ?? s.published;
      return { title: r.title, description: r.description, updated: r.updated, contact: r.contact ?? undefined, body: r.body };
    };

    it('seeds each page from its markdown file on first use, rendered as the files were', async () => {
      const about = await pages.published('about');
      const file = parsePageFile('about', readFileSync('src/content/pages/about.md', 'utf8'));
      expect(about).toMatchObject({ title: 'About Us', updated: '2026-11-01', body: file.body });
      expect(about.html.startsWith(ASTRO_ABOUT_START)).toBe(true);
      const contact = await pages.published('contact');
      expect(contact.contact).toEqual({ phone: '+234 1 700 5866', email: 'care@maisonluxe.ng', hours: 'Customer support 24/7' });
      const privacy = await pages.published('privacy');
      expect(privacy.html).toContain('<h2 id="payment-details">Payment details</h2>');
      expect(privacy.html).toContain('<strong>We do not store your payment details</strong>');
      // a second server's first read finds the pages and seeds nothing more
      const state = await pages.state('about');
      expect(state.revisions.map((r) => r.kind)).toEqual(['seed']);
    });

    it('saves drafts as revisions, refuses a save written on an older revision naming who changed it, publishes with an audit entry', async () => {
      const start = await pages.state('about');
      const base = start.headRevisionId;
      const fields = { ...(await fieldsOf('about')), body: `${start.published.body}\nA new closing line.\n` };
      const mine = await pages.saveDraft(ada, 'about', fields, base);
      expect(mine.kind).toBe('draft');

      // Bola opened the page before Ada saved: their save is refused and names Ada
      const refused = await pages.saveDraft(bola, 'about', { ...fields, body: 'Bola text' }, base).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(Conflict);
      expect((refused as Conflict).message).toBe('This page was changed by Ada Obi at 10:00 on 1 December 2026; your text is kept below');

      dropped.length = 0;
      const { revision, at } = await pages.publish(ada, 'about');
      expect(at).toBeNull();
      expect(revision.kind).toBe('publish');
      expect(dropped).toEqual([[pageTag('about'), SITEMAP_TAG]]);
      const live = await pages.published('about');
      expect(live.html).toContain('<p>A new closing line.</p>');
      const state = await pages.state('about');
      expect(state.draft).toBeNull();
      expect(state.publishedBy).toBe('Ada Obi');
      expect(state.revisions.map((r) => r.kind)).toEqual(['publish', 'draft', 'seed']);
      const audit = await env.services.audit.list({});
      expect(audit.rows.find((r) => r.action === 'page.publish')).toMatchObject({ entity: 'content_page', entityId: 'about', actorEmail: 'ada@example.com' });

      // restoring the first version makes it the newest draft; publishing it brings the old text back
      const seed = state.revisions.find((r) => r.kind === 'seed')!;
      const restored = await pages.restore(bola, 'about', seed.id);
      expect(restored.body).toBe(start.published.body);
      await pages.publish(bola, 'about');
      expect((await pages.published('about')).html).not.toContain('A new closing line.');
    });

    it('refuses a revision of another page, a 200-character title, a body over 200 KB, a schedule in the past, nothing to publish', async () => {
      const privacySeed = (await pages.state('privacy')).published.id;
      await expect(pages.restore(ada, 'about', privacySeed)).rejects.toBeInstanceOf(NotFound);
      await expect(pages.revision('about', privacySeed)).rejects.toBeInstanceOf(NotFound);
      const head = (await pages.state('about')).headRevisionId;
      const fields = await fieldsOf('about');
      await expect(pages.saveDraft(ada, 'about', { ...fields, title: 'x'.repeat(200) }, head)).rejects.toThrow('Keep the title to 120 characters');
      await expect(pages.saveDraft(ada, 'about', { ...fields, body: 'a'.repeat(200 * 1024 + 1) }, head)).rejects.toThrow('The page is longer than 200 KB');
      await expect(pages.saveDraft(ada, 'about', { ...fields, updated: 'yesterday' }, head)).rejects.toBeInstanceOf(Invalid);
      await expect(pages.saveDraft(ada, 'contact', { ...fields, contact: undefined }, (await pages.state('contact')).headRevisionId)).rejects.toThrow(
        "The Contact page needs customer care's phone and e-mail",
      );
      await expect(pages.publish(ada, 'about')).rejects.toThrow('Save a draft before publishing');
      await expect(pages.publish(ada, 'about', new Date(clock().getTime() - 60_000))).rejects.toThrow('Choose a time in the future to publish');
    });

    it('publishes a scheduled version when its time comes, not before', async () => {
      const state = await pages.state('contact');
      const fields = { ...(await fieldsOf('contact')), title: 'Contact the boutique', updated: '2026-12-24' };
      await pages.saveDraft(ada, 'contact', fields, state.headRevisionId);
      const at = new Date(clock().getTime() + 3_600_000);
      expect((await pages.publish(ada, 'contact', at)).at).toEqual(at);
      expect(await pages.publishDue()).toEqual([]);
      expect((await pages.published('contact')).title).toBe('Contact Us');
      clock.advance(3_600_000);
      dropped.length = 0;
      expect((await pages.published('contact')).title).toBe('Contact the boutique');
      expect(dropped).toEqual([[pageTag('contact'), SITEMAP_TAG]]);
      expect((await pages.lastUpdated()).contact).toBe('2026-12-24');
      expect((await pages.state('contact')).scheduled).toBeNull();
    });

    it('takes a picture (JPEG, PNG or WebP), alt text required, and renders it with its sizes in AVIF and WebP', async () => {
      const png = new Uint8Array(await sharp({ create: { width: 2400, height: 1200, channels: 3, background: '#c9a96e' } }).png().toBuffer());
      const gif = new Uint8Array(await sharp({ create: { width: 40, height: 40, channels: 3, background: '#000' } }).gif().toBuffer());
      await expect(pages.addPicture(ada, 'about', png, '  ')).rejects.toThrow('Describe the picture in a few words (its alt text)');
      await expect(pages.addPicture(ada, 'about', gif, 'A square')).rejects.toThrow('Choose a JPEG, PNG or WebP picture');
      const added = await pages.addPicture(ada, 'about', png, 'The Ikoyi boutique [front]');
      expect(added).toMatchObject({ width: 1600, height: 800 });
      expect(added.markdown).toBe(`![The Ikoyi boutique front](/media/${added.hash}/960.webp)`);
      const preview = await pages.preview('about', { ...(await fieldsOf('about')), body: `Hello\n\n${added.markdown}\n` });
      expect(preview.html).toContain('<picture><source type="image/avif" srcset="');
      expect(preview.html).toContain(`/media/${added.hash}/1600.avif 1600w`);
      expect(preview.html).toMatch(new RegExp(`<img src="/media/${added.hash}/1600.webp" alt="The Ikoyi boutique front" width="1600" height="800" loading="lazy" decoding="async">`));
      expect((await env.services.media.original(added.hash)).contentType).toBe('image/webp');
    });

    it("refuses a Privacy publish that drops one of its fixed sentences, naming it", async () => {
      for (const sentence of PRIVACY_FIXED_SENTENCES) {
        const state = await pages.state('privacy');
        const fields = { ...(await fieldsOf('privacy')), body: state.published.body.replace(sentence, 'Something else.') };
        await pages.saveDraft(ada, 'privacy', fields, state.headRevisionId);
        await expect(pages.publish(ada, 'privacy')).rejects.toThrow(`The Privacy page must keep this sentence: ${sentence.replaceAll('**', '')}`);
      }
      // wrapped onto two lines, a sentence is still there
      const state = await pages.state('privacy');
      const wrapped = state.published.body.replace('on our servers', '\non our servers').replace('**We do not store your payment details**', '**We do not store your\npayment details**');
      await pages.saveDraft(ada, 'privacy', { ...(await fieldsOf('privacy')), body: state.published.body.replace('on our servers', 'on our own servers') }, state.headRevisionId);
      await expect(pages.publish(ada, 'privacy')).rejects.toThrow('The Privacy page must keep this sentence');
      await pages.saveDraft(ada, 'privacy', { ...(await fieldsOf('privacy')), body: wrapped }, (await pages.state('privacy')).headRevisionId);
      await expect(pages.publish(ada, 'privacy')).resolves.toMatchObject({ at: null });
    });
  });
}

describe('safe markdown', () => {
  const payloads: [string, string][] = [
    ['<script>alert(1)</script>', 'script'],
    ['<img src=x onerror=alert(1)>', 'img onerror'],
    ['<iframe src="https://example.com"></iframe>', 'iframe'],
  ];
  it.each(payloads)('refuses raw HTML (%s) and renders none of it', async (payload) => {
    expect(() => checkMarkdown(`Hello\n\n${payload}\n`)).toThrow('Write the page in markdown: HTML tags are not allowed');
    expect(() => checkMarkdown(`Inline ${payload} too`)).toThrow(Invalid);
    const html = await renderMarkdown(`Hello\n\n${payload}\n\nand inline ${payload}.`);
    expect(html).not.toMatch(/<script|onerror|<iframe|alert\(1\)<\/script/i);
  });

  it.each(['[x](javascript:alert(1))', '[x](JaVaScRiPt:alert(1))', '[x](data:text/html;base64,PHNjcmlwdD4=)', '![x](data:image/svg+xml,<svg onload=alert(1)>)', '[x]: javascript:alert(1)\n\n[y][x]', '[x](<java\nscript:alert(1)>)', '[x](java%0ascript:alert(1))'])(
    'refuses or defuses the link %j',
    async (link) => {
      let refused = false;
      try {
        checkMarkdown(link);
      } catch (err) {
        refused = err instanceof Invalid && err.message === 'A link may open a web page, an e-mail or a phone number, never a script or data';
      }
      const html = await renderMarkdown(link);
      expect(html).not.toMatch(/href="\s*(javascript|data):/i);
      expect(html).not.toMatch(/src="\s*(javascript|data):/i);
      // what is not refused is not a link at all
      if (!refused) expect(html).not.toMatch(/href="[^"]*script:/i);
    },
  );

  it('keeps ordinary links, pictures, lists and headings with their anchors', async () => {
    checkMarkdown('[Settings](/settings) [mail](mailto:care@maisonluxe.ng) [call](tel:+2341700) [site](https://example.com)\n\n![A bag](/media/abc.webp)');
    const html = await renderMarkdown('## Our story\n\n- **one**\n\n[Settings](/settings) ![A bag](/media/abc.webp)');
    expect(html).toBe('<h2 id="our-story">Our story</h2>\n<ul>\n<li><strong>one</strong></li>\n</ul>\n<p><a href="/settings">Settings</a> <img src="/media/abc.webp" alt="A bag"></p>\n');
  });

  it('writes a page back as its file: frontmatter and body read back the same', async () => {
    const files = await readPageFiles();
    for (const slug of ['about', 'privacy', 'contact'] as const) {
      expect(parsePageFile(slug, pageFileText(files[slug]))).toEqual(files[slug]);
      expect(pageFileText(files[slug])).toBe(readFileSync(`src/content/pages/${slug}.md`, 'utf8'));
    }
  });
});
