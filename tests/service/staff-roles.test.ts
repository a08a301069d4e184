import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '@/lib/server/accounts/tables';
import type { Services } from '@/lib/server/services';
import { LAST_OWNER_MESSAGE } from '@/lib/server/backoffice/staff';
import { DRIVERS, servicesFor } from '../support/services';

for (const driver of DRIVERS) {
  describe(`the last owner on ${driver}`, () => {
    let services: Services;
    let close: () => Promise<void>;
    let database: { close(): Promise<void> };
    const OWNER = 'owner@maisonluxe.ng';
    const command = { id: null, email: 'staff command' };

    beforeAll(async () => {
      ({ services, close, database } = await servicesFor(driver));
    }, 120_000);
    afterAll(async () => {
      // Let pg's sockets close before the database is dropped (see back-office.test.ts).
      const end = database.close.bind(database);
      database.close = () => end().then(() => new Promise((r) => setTimeout(r, 300)));
      await close?.();
    });

    const owners = async () => (await services.db.select({ email: users.email }).from(users).where(eq(users.role, 'owner'))).map((u) => u.email).sort();
    const addVerified = async (email: string) => {
      await services.db.insert(users).values({ firstName: 'Test', lastName: 'Owner', email, passwordHash: 'x', phoneNumber: '+2348000000000', country: 'nigeria', verifiedAt: new Date() });
      return email;
    };

    it('the only owner cannot demote themselves (revoke, or grant staff): 409 with a clear message', async () => {
      expect(await owners()).toEqual([OWNER]);
      const [me] = await services.db.select().from(users).where(eq(users.email, OWNER));
      const self = { id: me!.id, email: OWNER };
      await expect(services.staff.revoke(self, OWNER)).rejects.toMatchObject({ code: 'conflict', message: LAST_OWNER_MESSAGE });
      await expect(services.staff.grant(self, OWNER, 'staff')).rejects.toMatchObject({ code: 'conflict', message: LAST_OWNER_MESSAGE });
      await expect(services.staff.revoke(command, OWNER)).rejects.toMatchObject({ code: 'conflict' });
      expect(await owners()).toEqual([OWNER]);
      // Granting owner again to the owner is no demotion.
      await expect(services.staff.grant(self, OWNER, 'owner')).resolves.toMatchObject({ to: 'owner' });
    });

    it('with a second owner, one may step down; owners demoting each other at once never leave none', async () => {
      const second = await addVerified(`second.${driver}@example.com`);
      await services.staff.grant(command, second, 'owner');
      await services.staff.grant(command, second, 'staff');
      expect(await owners()).toEqual([OWNER]);

      for (let round = 0; round < 4; round++) {
        const others = await Promise.all([1, 2].map((i) => addVerified(`owner${i}.${round}.${driver}@example.com`)));
        for (const email of others) await services.staff.grant(command, email, 'owner');
        const all = await owners();
        expect(all).toHaveLength(3);
        // Every owner steps down at once (each revoking the next one's role, and the last its own).
        const results = await Promise.allSettled(all.map((email, i) => (i % 2 ? services.staff.revoke(command, email) : services.staff.grant(command, email, 'staff'))));
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
        const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
        expect(refused).toHaveLength(1);
        expect(refused[0]!.reason).toMatchObject({ code: 'conflict', message: LAST_OWNER_MESSAGE });
        const left = await owners();
        expect(left).toHaveLength(1);
        // Put the store's owner back for the next round.
        if (left[0] !== OWNER) {
          await services.staff.grant(command, OWNER, 'owner');
          await services.staff.revoke(command, left[0]!);
        }
        expect(await owners()).toEqual([OWNER]);
      }
    });

    it('two owners demoting each other while another transaction holds the owners: one is refused', async () => {
      const other = await addVerified(`rival.${driver}@example.com`);
      await services.staff.grant(command, other, 'owner');
      // Hold the owners' rows, so both demotions start before either can finish (on PostgreSQL
      // they run on their own connections; PGlite has one and runs them in turn).
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let taken!: () => void;
      const lockTaken = new Promise<void>((r) => (taken = r));
      const blocker = services.db.transaction(async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.role, 'owner')).for('update');
        taken();
        await held;
      });
      await lockTaken;
      const both = Promise.allSettled([services.staff.revoke(command, OWNER), services.staff.grant(command, other, 'staff')]);
      await new Promise((r) => setTimeout(r, 300));
      release();
      await blocker;
      const results = await both;
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ code: 'conflict', message: LAST_OWNER_MESSAGE });
      expect(await owners()).toHaveLength(1);
    });
  });
}
