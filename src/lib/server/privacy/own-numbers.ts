import { and, eq, isNotNull, ne } from 'drizzle-orm';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { verifiedPhones } from '@/lib/server/accounts/tables';
import { orders } from '@/lib/server/orders/tables';

/**
 * The numbers whose texts are an account's own, for its data copy and its deletion: the number it
 * proved with a code, and the number it typed unless that is someone else's (another account holds
 * it, or another buyer's gift was sent to it). A typed number proves nothing: the texts another
 * person received on it are that person's, and stay.
 */
export async function ownNumbers(tx: Db | Tx, user: { id: string; phoneNumber: string; phoneVerifiedNumber: string | null }): Promise<string[]> {
  const numbers = new Set<string>();
  if (user.phoneVerifiedNumber) numbers.add(user.phoneVerifiedNumber);
  const typed = user.phoneNumber;
  if (typed && !numbers.has(typed)) {
    const [held] = await tx
      .select({ phone: verifiedPhones.phone })
      .from(verifiedPhones)
      .where(and(eq(verifiedPhones.phone, typed), isNotNull(verifiedPhones.userId), ne(verifiedPhones.userId, user.id)))
      .limit(1);
    const [gift] = held ? [] : await tx.select({ id: orders.id }).from(orders).where(and(eq(orders.giftRecipientPhone, typed), ne(orders.userId, user.id))).limit(1);
    if (!held && !gift) numbers.add(typed);
  }
  return [...numbers];
}
