import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';

interface Product {
  id: number;
  name: string;
  price: number;
  currency: string;
  images: string[];
  sizeNames: string[];
  colorNames: string[];
  categoryNames: string[];
  categoryId: number;
  subCategoryId: number;
}

for (const driver of ['pglite', 'pg'] as const) {
  describe(`catalogue API on ${driver}`, () => {
    let server: RunningServer;
    const get = async (path: string) => {
      const res = await fetch(server.baseUrl + path);
      return { res, body: (await res.json()) as any };
    };

    beforeAll(async () => {
      server = await startServer(driver);
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('reports database health', async () => {
      const { res, body } = await get('/api/v1/health');
      expect(res.status).toBe(200);
      expect(body).toEqual({ status: true, data: { database: 'up', instance: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
      expect(res.headers.get('x-request-id')).toBeTruthy();
    });

    it('lists parent categories with description and image', async () => {
      const { res, body } = await get('/api/v1/category/parent-categories');
      expect(res.status).toBe(200);
      expect(body.status).toBe(true);
      const parents = body.data.data;
      expect(parents.length).toBeGreaterThanOrEqual(4);
      for (const p of parents) {
        expect(p).toMatchObject({ id: expect.any(Number), name: expect.any(String), description: expect.any(String) });
        expect(p.image).toMatch(/^\/media\/[a-f0-9]{32}\/\d+\.webp$/);
      }
      const subs = parents.flatMap((p: any) => p.subCategories);
      expect(subs.length).toBeGreaterThanOrEqual(12);
      // Browsers revalidate (ETag); the server answers repeat requests from its route cache.
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('etag')).toMatch(/^".+"$/);
    });

    it('serves sub-categories and one category, 404 for unknown, 400 for malformed', async () => {
      const { body: cats } = await get('/api/v1/category/parent-categories');
      const bags = cats.data.data.find((c: any) => c.name === 'Bags');
      const { body } = await get(`/api/v1/category/sub-categories/${bags.id}`);
      expect(body.status).toBe(true);
      expect(body.data.docs.map((d: any) => d.name)).toContain('Totes');
      const one = await get(`/api/v1/categories/${bags.id}`);
      expect(one.body).toMatchObject({ status: true, data: { id: bags.id, name: 'Bags' } });
      expect((await get('/api/v1/categories/999999')).res.status).toBe(404);
      expect((await get('/api/v1/category/sub-categories/999999')).res.status).toBe(404);
      const bad = await get('/api/v1/categories/abc');
      expect(bad.res.status).toBe(400);
      expect(bad.body.status).toBe(false);
    });

    it('returns best sellers ordered by sales and latest products by date', async () => {
      const best = await get('/api/v1/products/organised/best-sellers');
      expect(best.body.status).toBe(true);
      expect(best.body.data.docs.length).toBeGreaterThan(5);
      const latest = await get('/api/v1/products/organised/latest');
      const dates = latest.body.data.docs.map((d: any) => Date.parse(d.createdAt));
      expect(dates).toEqual([...dates].sort((a, b) => b - a));
      expect(latest.body.data.docs.length).toBeGreaterThan(10);
    });

    it('filters by category, colour, size and sub-category with facets', async () => {
      const { body: cats } = await get('/api/v1/category/parent-categories');
      const clothing = cats.data.data.find((c: any) => c.name === 'Clothing');
      const all = await get(`/api/v1/products?categoryId=${clothing.id}&limit=100`);
      expect(all.res.status).toBe(200);
      const data = all.body.data;
      expect(data.docs.length).toBeGreaterThan(10);
      expect(data.docs.every((p: Product) => p.categoryNames[0] === 'Clothing')).toBe(true);
      expect(data.sizes.map((s: any) => s.name)).toEqual(['XS', 'S', 'M', 'L', 'XL']);
      expect(data.subCategories.map((s: any) => s.name)).toEqual(['Dresses', 'Shirts', 'Jackets', 'Trousers']);
      expect(data.colors.length).toBeGreaterThan(3);

      const color = data.colors[0];
      const byColor = await get(`/api/v1/products?categoryId=${clothing.id}&colorId=${color.id}&limit=100`);
      expect(byColor.body.data.docs.length).toBeGreaterThan(0);
      expect(byColor.body.data.docs.every((p: Product) => p.colorNames.includes(color.name))).toBe(true);

      const size = data.sizes[1];
      const bySize = await get(`/api/v1/products?categoryId=${clothing.id}&sizeId=${size.id}`);
      expect(bySize.body.data.docs.every((p: Product) => p.sizeNames.includes(size.name))).toBe(true);

      const sub = data.subCategories[0];
      const bySub = await get(`/api/v1/products?subCategoryId=${sub.id}`);
      expect(bySub.body.data.docs.length).toBe(10);
      expect(bySub.body.data.docs.every((p: Product) => p.subCategoryId === sub.id)).toBe(true);
    });

    it('sorts by price both ways and searches by text', async () => {
      const low = await get('/api/v1/products?sort=low-high&limit=50');
      const prices = low.body.data.docs.map((p: Product) => p.price);
      expect(prices).toEqual([...prices].sort((a: number, b: number) => a - b));
      const high = await get('/api/v1/products?sort=high-low&limit=50');
      const hp = high.body.data.docs.map((p: Product) => p.price);
      expect(hp).toEqual([...hp].sort((a: number, b: number) => b - a));
      expect(hp[0]).toBeGreaterThan(prices[0]);

      const found = await get('/api/v1/products?q=tote');
      expect(found.body.data.docs.length).toBeGreaterThan(0);
      expect(found.body.data.docs.every((p: Product) => /tote/i.test(p.name + p.categoryNames.join(' ')))).toBe(true);
      const none = await get('/api/v1/products?q=zzzznothing');
      expect(none.body.data.docs).toEqual([]);
      expect(none.body.data.totalDocs).toBe(0);
    });

    it('paginates with totals', async () => {
      const p1 = await get('/api/v1/products?limit=20&page=1');
      const p2 = await get('/api/v1/products?limit=20&page=2');
      expect(p1.body.data.totalDocs).toBeGreaterThanOrEqual(150);
      expect(p1.body.data.totalPages).toBe(Math.ceil(p1.body.data.totalDocs / 20));
      const ids1 = p1.body.data.docs.map((p: Product) => p.id);
      const ids2 = p2.body.data.docs.map((p: Product) => p.id);
      expect(ids1.filter((id: number) => ids2.includes(id))).toEqual([]);
    });

    it('rejects bad list input with 400 and a message', async () => {
      for (const q of ['sort=cheap', 'colorId=red', 'limit=1000', 'page=0']) {
        const { res, body } = await get(`/api/v1/products?${q}`);
        expect(res.status, q).toBe(400);
        expect(body.status).toBe(false);
        expect(typeof body.message).toBe('string');
      }
    });

    it('returns one product with the spec fields and variants; 404 for unknown', async () => {
      const list = await get('/api/v1/products?limit=1');
      const id = list.body.data.docs[0].id;
      const { res, body } = await get(`/api/v1/products/${id}`);
      expect(res.status).toBe(200);
      expect(body.status).toBe(true);
      expect(typeof body.message).toBe('string');
      const p = body.data;
      expect(p).toMatchObject({ id, name: expect.any(String), price: expect.any(Number), currency: 'NGN', description: expect.any(String) });
      expect(p.images.length).toBeGreaterThanOrEqual(2);
      expect(p.images.length).toBeLessThanOrEqual(6);
      expect(p.categoryNames).toHaveLength(2);
      expect(p.variants.length).toBeGreaterThan(0);
      for (const v of p.variants) expect(v.stock).toBeGreaterThanOrEqual(0);

      const missing = await get('/api/v1/products/999999');
      expect(missing.res.status).toBe(404);
      expect(missing.body).toMatchObject({ status: false, message: 'Product not found' });
      expect((await get('/api/v1/products/not-a-number')).res.status).toBe(400);
    });

    it('serves product images as AVIF and WebP with long cache headers', async () => {
      const list = await get('/api/v1/products?limit=1');
      const url: string = list.body.data.docs[0].images[0];
      const webp = await fetch(server.baseUrl + url);
      expect(webp.status).toBe(200);
      expect(webp.headers.get('content-type')).toBe('image/webp');
      expect(webp.headers.get('cache-control')).toContain('immutable');
      const avif = await fetch(server.baseUrl + url.replace(/\/\d+\.webp$/, '/320.avif'));
      expect(avif.headers.get('content-type')).toBe('image/avif');
      expect((await avif.arrayBuffer()).byteLength).toBeGreaterThan(500);
      expect((await fetch(server.baseUrl + url.replace(/\/\d+\.webp$/, '/333.webp'))).status).toBe(404);
    });
  });
}
