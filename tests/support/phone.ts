import { eq } from 'drizzle-orm';
import type { Db } from '@/lib/server/infra/db/client';
import { users } from '@/lib/server/accounts/tables';

/**
 * Test-only: marks the account's phone as verified (what the texted code proves), or sets its
 * refused deliveries, straight in the database, for tests of pay on delivery that are not about
 * verifying the phone itself.
 */
export async function setPhoneStanding(db: Db, email: string, standing: { verified?: boolean; refusedDeliveries?: number }): Promise<void> {
  const [u] = await db.select({ phone: users.phoneNumber }).from(users).where(eq(users.email, email.toLowerCase()));
  if (!u) throw new Error(`no account ${email}`);
  await db
    .update(users)
    .set({
      ...(standing.verified === undefined ? {} : { phoneVerifiedNumber: standing.verified ? u.phone : null }),
      ...(standing.refusedDeliveries === undefined ? {} : { refusedDeliveries: standing.refusedDeliveries }),
    })
    .where(eq(users.email, email.toLowerCase()));
}
