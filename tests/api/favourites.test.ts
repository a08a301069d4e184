import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { buyingClient } from './buying-client';

for (const driver of ['pglite', 'pg'] as const) {
  describe(`favourites API on ${driver}`, () => {
    let server: RunningServer;
    let api: ReturnType<typeof buyingClient>;
    let demo: { token: string; id: string };
    let other: { token: string; id: string };

    beforeAll(async () => {
      server = await startServer(driver);
      api = buyingClient(server.baseUrl);
      demo = await api.login();
      other = await api.verifiedUser('fav');
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('needs a session', async () => {
      expect((await api.call('GET', '/favourites')).status).toBe(401);
      expect((await api.call('POST', '/favourites/add', { body: { productId: 1 } })).status).toBe(401);
      expect((await api.call('DELETE', '/favourites/remove', { body: { productId: 1 } })).status).toBe(401);
      const page = await fetch(`${server.baseUrl}/favourites`, { redirect: 'manual' });
      expect(page.status).toBe(302);
    });

    it('adds, lists per user and removes favourites', async () => {
      expect((await api.call('POST', '/favourites/add', { token: demo.token, body: { productId: 3 } })).status).toBe(200);
      expect((await api.call('POST', '/favourites/add', { token: demo.token, body: { productId: 5 } })).status).toBe(200);
      // adding twice is harmless
      expect((await api.call('POST', '/favourites/add', { token: demo.token, body: { productId: 5 } })).status).toBe(200);
      const list = await api.call('GET', '/favourites', { token: demo.token });
      expect(list.body.data.docs.map((d: any) => d.id).sort()).toEqual([3, 5]);
      expect(list.body.data.docs[0]).toMatchObject({ name: expect.any(String), price: expect.any(Number), image: expect.stringMatching(/^\/media\//) });
      const ids = await api.call('GET', '/favourites?ids=true', { token: demo.token });
      expect(ids.body.data.ids.sort()).toEqual([3, 5]);
      expect((await api.call('GET', '/favourites', { token: other.token })).body.data.docs).toEqual([]);
      expect((await api.call('GET', `/favourites?userId=${demo.id}`, { token: other.token })).status).toBe(403);
      expect((await api.call('POST', '/favourites/add', { token: other.token, body: { productId: 3, userId: demo.id } })).status).toBe(403);
      await api.call('DELETE', '/favourites/remove', { token: demo.token, body: { productId: 3 } });
      expect((await api.call('GET', '/favourites?ids=true', { token: demo.token })).body.data.ids).toEqual([5]);
      const page = await fetch(`${server.baseUrl}/favourites`, { headers: { authorization: `Bearer ${demo.token}` } });
      const html = await page.text();
      expect(html).toContain('My Favorites');
      expect(html).toContain('data-fav="5"');
    });

    it('rejects unknown and malformed products', async () => {
      expect((await api.call('POST', '/favourites/add', { token: demo.token, body: { productId: 999999 } })).status).toBe(404);
      expect((await api.call('POST', '/favourites/add', { token: demo.token, body: { productId: 'x' } })).status).toBe(400);
    });
  });
}
