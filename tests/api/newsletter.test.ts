import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newsletterSubscriptions } from '@/lib/server/infra/db/schema';
import { startServer, type RunningServer } from '../support/server';
import { servicesFor } from '../support/services';

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

    it('subscribes a new address (201) and reports a repeat, in any letter case, as already subscribed (200)', async () => {
      const first = await post({ email: 'Ada.Nwosu@Example.com' });
      expect(first.status).toBe(201);
      const body = await first.json();
      expect(body).toMatchObject({ status: true, data: { email: 'ada.nwosu@example.com', alreadySubscribed: false } });
      expect(body.message).toContain('Thank you for subscribing!');

      const again = await post({ email: '  ADA.NWOSU@example.com ' });
      expect(again.status).toBe(200);
      expect(await again.json()).toMatchObject({
        status: true,
        data: { alreadySubscribed: true },
        message: 'You are already subscribed to our newsletter.',
      });
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
      expect(repeat.headers.get('location')).toBe('/?newsletter=already#newsletter');
      const invalid = await post('email=nope', form);
      expect(invalid.headers.get('location')).toBe('/?newsletter=invalid#newsletter');
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
  });
}
