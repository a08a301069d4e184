import { asc } from 'drizzle-orm';
import { newsletterSubscriptions } from '@/lib/server/infra/db/schema';
import { csvCell } from '@/lib/server/orders/orders';
import type { Db } from '@/lib/server/infra/db/client';

/**
 * Newsletter sign-ups from the home page box ('Sunscribe now & get 20% off').
 * Addresses are stored lower-cased; signing up twice is harmless and reported as such.
 */
export function createNewsletterService({ db }: { db: Db }) {
  return {
    async subscribe(email: string): Promise<{ created: boolean }> {
      const rows = await db
        .insert(newsletterSubscriptions)
        .values({ email: email.trim().toLowerCase() })
        .onConflictDoNothing({ target: newsletterSubscriptions.email })
        .returning({ id: newsletterSubscriptions.id });
      return { created: rows.length > 0 };
    },

    /** Back office: every subscriber as CSV (email, subscribed_at). */
    async exportCsv(): Promise<string> {
      const rows = await db.select().from(newsletterSubscriptions).orderBy(asc(newsletterSubscriptions.createdAt), asc(newsletterSubscriptions.id));
      return ['email,subscribed_at', ...rows.map((r) => [r.email, r.createdAt.toISOString()].map(csvCell).join(','))].join('\r\n') + '\r\n';
    },
  };
}
export type NewsletterService = ReturnType<typeof createNewsletterService>;
