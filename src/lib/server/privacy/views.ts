import { desc, eq } from 'drizzle-orm';
import type { Actor } from '@/lib/server/backoffice/audit';
import type { Db } from '@/lib/server/infra/db/client';
import { customerViews } from '@/lib/server/privacy/tables';

/**
 * Who in staff opened a customer's record, and when: written each time the back office's customer
 * page is shown, read by owners (a breach question: "who saw this shopper's details?"). The one
 * writer of customer_views.
 */
export function createCustomerViews({ db, clock }: { db: Db; clock: () => Date }) {
  return {
    async record(actor: Actor, customerId: string): Promise<void> {
      await db.insert(customerViews).values({ customerId, staffId: actor.id, staffEmail: actor.email, viewedAt: clock() });
    },

    /** The latest views of a customer's record, newest first. */
    async of(customerId: string, limit = 50): Promise<{ staffEmail: string; viewedAt: Date }[]> {
      return db
        .select({ staffEmail: customerViews.staffEmail, viewedAt: customerViews.viewedAt })
        .from(customerViews)
        .where(eq(customerViews.customerId, customerId))
        .orderBy(desc(customerViews.viewedAt), desc(customerViews.id))
        .limit(limit);
    },
  };
}
export type CustomerViews = ReturnType<typeof createCustomerViews>;
