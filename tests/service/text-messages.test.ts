import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '@/lib/server/accounts/tables';
import type { Services } from '@/lib/server/services';
import { DRIVERS, servicesFor } from '../support/services';

/**
 * Numbers stored before E.164 (they stay as typed: the migration does not rewrite them) are read in
 * the shopper's country when a text goes; an account whose number cannot be read cannot opt in.
 */
for (const driver of DRIVERS) {
  describe(`order texts and numbers stored before E.164 on ${driver}`, () => {
    let services: Services;
    let close: () => Promise<void>;
    let database: { close(): Promise<void> };

    beforeAll(async () => {
      ({ services, close, database } = await servicesFor(driver, { seed: false }));
    }, 120_000);
    afterAll(async () => {
      // Let pg's sockets close before the database is dropped (see back-office.test.ts).
      const end = database.close.bind(database);
      database.close = () => end().then(() => new Promise((r) => setTimeout(r, 300)));
      await close?.();
    });

    const shopper = async (email: string, phoneNumber: string, country: 'nigeria' | 'south_africa') => {
      const [u] = await services.db.insert(users).values({ firstName: 'Ada', lastName: 'Obi', email, passwordHash: 'x', phoneNumber, country, verifiedAt: new Date() }).returning();
      return u!;
    };
    const order = { id: '00000000-0000-4000-8000-000000000001', trackingNumber: 'ML-TEXT-1' };

    it('texts a legacy national number at its E.164 form, and only for placed and delivered (on its way is the courier\'s)', async () => {
      const za = await shopper(`za.${driver}@example.com`, '082 123 4567', 'south_africa');
      await services.notifications.orderUpdate(order, za.id, 'placed');
      expect(await services.textOutbox.list('+27821234567')).toEqual([]);
      expect(await services.accounts.setUpdatesChannel(za, 'text')).toBe('text');
      for (const event of ['placed', 'pending', 'processed', 'cancelled', 'delivered']) await services.notifications.orderUpdate(order, za.id, event);
      const texts = await services.textOutbox.list('+27821234567');
      expect(texts.map((t) => t.text).reverse()).toEqual([
        'Maison Luxe: your order ML-TEXT-1 has been placed.',
        'Maison Luxe: your order ML-TEXT-1 has been delivered.',
      ]);
      expect(await services.accounts.updatesChannel(za)).toBe('text');
    });

    it('refuses to opt in an account whose number is not a mobile number of the store\'s markets', async () => {
      const odd = await shopper(`odd.${driver}@example.com`, '+44 20 7946 0958', 'nigeria');
      await expect(services.accounts.setUpdatesChannel(odd, 'text')).rejects.toMatchObject({ code: 'invalid', message: 'Add a valid mobile number in your profile to get text messages.' });
      expect(await services.accounts.updatesChannel(odd)).toBe('none');
      // Opting out is always possible.
      expect(await services.accounts.setUpdatesChannel(odd, 'none')).toBe('none');
    });
  });
}
