import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_DESIGNERS } from '@/lib/server/demo/seed';
import { designerSlug } from '@/lib/domain/designers';
import { startServer, type RunningServer } from '../support/server';
import { accountClient } from './account-client';

/** Designers through the built server: the API's designer and facet, the collection's filter, the A–Z page (cached), search by a misspelt name, JSON-LD's brand, staff's changes. */
for (const driver of ['pglite', 'pg'] as const) {
  describe(`designers on ${driver}`, () => {
    let server: RunningServer;
    let api: ReturnType<typeof accountClient>;
    let owner: string;

    beforeAll(async () => {
      server = await startServer(driver);
      api = accountClient(server.baseUrl);
      owner = await api.signInOwner();
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
    });

    const page = async (path: string) => {
      const res = await fetch(server.baseUrl + path);
      return { status: res.status, cache: res.headers.get('x-cache'), body: await res.text() };
    };

    it('every product carries its designer (id, name, slug); a list carries the designers facet', async () => {
      const list = await api.call('GET', '/products?limit=100');
      expect(list.status).toBe(200);
      const docs = list.body.data.docs as { designer: { id: number; name: string; slug: string } | null }[];
      expect(docs.every((p) => p.designer && Object.keys(p.designer).sort().join() === 'id,name,slug')).toBe(true);
      const facet = list.body.data.designers as { id: number; name: string; slug: string }[];
      expect(facet.map((d) => d.name).sort()).toEqual(SEED_DESIGNERS.map((d) => d.name).sort());
      const one = await api.call('GET', `/products/${(list.body.data.docs[0] as { id: number }).id}`);
      expect(one.body.data.designer).toEqual(list.body.data.docs[0].designer);
    });

    it('/collection?designer={slug} and the API filter show only that designer’s pieces, the name above each card’s', async () => {
      const slug = designerSlug(SEED_DESIGNERS[0]!.name);
      const filtered = await api.call('GET', `/products?designer=${slug}&limit=100`);
      const docs = filtered.body.data.docs as { designer: { slug: string; name: string } }[];
      expect(docs.length).toBeGreaterThan(3);
      expect(docs.every((p) => p.designer.slug === slug)).toBe(true);
      expect(filtered.body.data.totalDocs).toBe(docs.length);
      const html = await page(`/collection?designer=${slug}`);
      expect(html.status).toBe(200);
      expect(html.body).toContain(`<h1>${SEED_DESIGNERS[0]!.name}</h1>`);
      const cards = html.body.match(/<article class="card"/g) ?? [];
      expect(cards.length).toBe(Math.min(docs.length, 48));
      expect((html.body.match(/<p class="cd">([^<]*)<\/p>/g) ?? []).every((c) => c === `<p class="cd">${SEED_DESIGNERS[0]!.name}</p>`)).toBe(true);
      // The spec's product id stays on collection cards.
      expect(html.body).toMatch(/class="card-id">Ref\. \d+/);
      // The filter panel offers every designer, the chosen one marked.
      expect(html.body).toContain(`data-filter="designer" data-value="${slug}"`);
      const unknown = await api.call('GET', '/products?designer=nobody-at-all');
      expect(unknown.body.data.totalDocs).toBe(0);
    });

    it('the A–Z page lists every designer, linked to their pieces, from the route cache', async () => {
      const first = await page('/designers');
      expect(first.status).toBe(200);
      for (const d of SEED_DESIGNERS) expect(first.body).toContain(`href="/collection?designer=${designerSlug(d.name)}"`);
      expect(first.body).not.toMatch(/<script[^>]*src=[^>]*designers/);
      const again = await page('/designers');
      expect(again.cache).toBe('HIT');
      // The side menu links it on every page.
      expect((await page('/')).body).toContain('<a href="/designers">Designers');
    });

    it('search finds a designer by a misspelt name', async () => {
      const found = await api.call('GET', `/products?q=${encodeURIComponent('Asantewa')}&limit=50`);
      expect(found.body.data.totalDocs).toBeGreaterThan(0);
      expect((found.body.data.docs as { designer: { name: string } }[]).every((p) => p.designer.name === 'Nana Asantewaa')).toBe(true);
      const typo = await api.call('GET', `/products?q=${encodeURIComponent('Kwabenna Boateng')}&limit=50`);
      expect(typo.body.data.search.corrected).toBe('kwabena boateng');
      expect(typo.body.data.docs.length).toBeGreaterThan(0);
      expect((typo.body.data.docs as { designer: { name: string } }[]).every((p) => p.designer.name === 'Kwabena Boateng')).toBe(true);
    });

    it('the product page shows the designer above the name and tells search engines it is the brand', async () => {
      const list = await api.call('GET', '/products?limit=1');
      const product = list.body.data.docs[0] as { id: number; designer: { name: string; slug: string } };
      const html = await page(`/product/${product.id}`);
      expect(html.body).toContain(`<p class="pd"><a href="/collection?designer=${product.designer.slug}">${product.designer.name.replace(/&/g, '&amp;')}</a></p>`);
      expect(html.body.indexOf('class="pd"')).toBeLessThan(html.body.indexOf('<h1'));
      const ld = [...html.body.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) => JSON.parse(m[1]!)).flat();
      const group = ld.find((x: { '@type'?: string }) => x['@type'] === 'ProductGroup');
      expect(group.brand).toEqual({ '@type': 'Brand', name: product.designer.name });
    });

    it('staff add and rename a designer, set it on a product; pages, search and the audit log follow', async () => {
      const created = await api.call('POST', '/admin/designers', { token: owner, body: { name: 'Yaba Threadworks', slug: '', about: 'A test house.' } });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const id = created.body.data.id as number;
      const listed = await api.call('GET', '/admin/designers', { token: owner });
      expect(listed.body.data.find((d: { id: number }) => d.id === id)).toMatchObject({ name: 'Yaba Threadworks', slug: 'yaba-threadworks', products: 0 });
      const taken = await api.call('POST', '/admin/designers', { token: owner, body: { name: 'yaba threadworks' } });
      expect([taken.status, taken.body.message]).toEqual([409, 'Another designer already has this name or slug']);
      expect((await api.call('POST', '/admin/designers', { body: { name: 'Nobody' } })).status).toBe(401);

      const product = (await api.call('GET', '/products?limit=1')).body.data.docs[0] as { id: number };
      const edit = (await api.call('GET', `/admin/products/${product.id}`, { token: owner })).body.data.product as Record<string, unknown>;
      const saved = await api.call('POST', `/admin/products/${product.id}`, { token: owner, body: { name: edit.name, description: edit.description, categoryId: edit.categoryId, active: 'on', designerId: id } });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect((await api.call('GET', `/products/${product.id}`)).body.data.designer).toEqual({ id, name: 'Yaba Threadworks', slug: 'yaba-threadworks' });
      expect((await page('/designers')).body).toContain('Yaba Threadworks');

      const renamed = await api.call('POST', '/admin/designers', { token: owner, body: { id, name: 'Yaba Thread House', slug: 'yaba-thread-house', about: '' } });
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
      const after = await page('/designers');
      expect(after.cache).not.toBe('HIT');
      expect(after.body).toContain('href="/collection?designer=yaba-thread-house">Yaba Thread House</a>');
      expect((await page(`/product/${product.id}`)).body).toContain('Yaba Thread House');
      expect((await api.call('GET', '/products?q=threadhouse%20yaba')).body.data.docs.length + (await api.call('GET', '/products?q=Yaba%20Thred')).body.data.docs.length).toBeGreaterThan(0);
      const audit = await api.call('GET', '/admin/audit', { token: owner });
      expect(JSON.stringify(audit.body)).toContain('designer.update');
    }, 120_000);
  });
}
