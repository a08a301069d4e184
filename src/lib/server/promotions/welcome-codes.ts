import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { NEWSLETTER_WELCOME } from '@/lib/domain/promotions';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { pgError } from '@/lib/server/infra/db/pg-errors';
import { promotions } from '@/lib/server/promotions/tables';
import { insertCode } from './rows';

/** Codes issued to subscribers: 'WELCOME-' and 8 characters without look-alikes (no 0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const WELCOME_PREFIX = 'WELCOME-';

function randomCode(length = 8): string {
  // Rejection sampling keeps every character equally likely.
  const out: string[] = [];
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 256 - (256 % CODE_ALPHABET.length) && out.length < length) out.push(CODE_ALPHABET[byte % CODE_ALPHABET.length]!);
    }
  }
  return out.join('');
}

/** The newsletter's welcome: one code per subscriber, on the 'Newsletter welcome' promotion's terms of the day. */
export function createWelcomeCodes({ db, clock }: { db: Db; clock: () => Date }) {
  return {
    /** A new unique code of the 'Newsletter welcome' promotion bound to this e-mail, usage limit 1, valid code_valid_days. */
    async issueWelcomeCode(email: string, tx: Db | Tx = db): Promise<{ code: string; expiresAt: Date; percentOff: number }> {
      const [p] = await tx.select().from(promotions).where(eq(promotions.systemKey, NEWSLETTER_WELCOME)).limit(1);
      if (!p) throw new Error('the Newsletter welcome promotion is missing (migration 0006)');
      const expiresAt = new Date(clock().getTime() + (p.codeValidDays ?? 30) * 86_400_000);
      for (let attempt = 0; ; attempt++) {
        const code = WELCOME_PREFIX + randomCode();
        try {
          // A savepoint (or a transaction of its own): a collision is retried without aborting the caller's transaction.
          await tx.transaction(async (sp) => {
            await insertCode(sp, {
              promotionId: p.id,
              code,
              email: email.trim().toLowerCase(),
              expiresAt,
              usageLimit: 1,
              createdAt: clock(),
            });
          });
          return { code, expiresAt, percentOff: p.percentOff ?? 0 };
        } catch (err) {
          if (pgError(err).code !== '23505' || attempt >= 4) throw err;
        }
      }
    },
  };
}
