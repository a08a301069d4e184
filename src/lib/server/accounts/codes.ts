import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { Invalid, RateLimited } from '@/lib/domain/errors';
import { fill, MESSAGES } from '@/lib/domain/messages';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { oneTimeCodes } from '@/lib/server/accounts/tables';
import { describeWait, LIMITS, type RateLimiter } from '@/lib/server/infra/rate-limit';

/**
 * verify-phone: a code texted to a shopper's mobile number (accounts/phone-verification.ts); confirm:
 * a signed-in holder proving the e-mail again (privacy); gift-return: a code texted to a gift's
 * recipient, keyed by their number (aftersales/gift-return-access.ts).
 */
export type CodePurpose = 'verify' | 'reset' | 'staff-device' | 'verify-phone' | 'confirm' | 'gift-return';

export const CODE_TTL_MS = 10 * 60 * 1000;
export const MAX_CODE_ATTEMPTS = 5;

export type GuessCap = 'day' | 'month';

/** Code entry for an account is paused: too many wrong codes (verify and reset alike) in a day or a month. */
export class CodeEntryPaused extends RateLimited {
  constructor(
    readonly cap: GuessCap,
    retryAfterSeconds: number,
  ) {
    super(
      fill('code-entry-paused', describeWait(retryAfterSeconds)),
      retryAfterSeconds,
    );
  }
}

/** A wrong code; `paused` is set when this guess used up the account's last allowed one. */
export class WrongCode extends Invalid {
  constructor(
    message: string,
    readonly paused?: { cap: GuessCap; retryAfterSeconds: number },
  ) {
    super(message);
  }
}

const GUESS_CAPS = [
  { cap: 'month', limit: LIMITS.wrongCodesPerMonth, key: (email: string) => `code-wrong-month:${email}` },
  { cap: 'day', limit: LIMITS.wrongCodesPerDay, key: (email: string) => `code-wrong-day:${email}` },
] as const;

function hashCode(code: string, salt: string): string {
  return createHmac('sha256', salt).update(code).digest('hex');
}

/**
 * 4-digit one-time codes (registration, password reset, staff devices, and a mobile number's
 * check, texted). Only 13 bits, so they are
 * made safe by rules: CSPRNG, stored as a salted HMAC, single use, 10-minute expiry,
 * void after 5 tries, send limits per e-mail (once a minute, 5 an hour), and a cap on
 * wrong guesses per account across all its codes (10 a day, 30 in 30 days).
 */
export function createCodeService({ db, clock, limiter }: { db: Db; clock: () => Date; limiter: RateLimiter }) {
  /** Refuses (CodeEntryPaused) while either guess cap is full, without counting. */
  async function checkGuessCaps(email: string): Promise<void> {
    for (const g of GUESS_CAPS) await limiter.check(g.key(email), g.limit, (s) => new CodeEntryPaused(g.cap, s));
  }

  /**
   * Books one guess in both caps before the code is compared (atomic, so parallel guesses
   * cannot overshoot). Returns the pause the guess would cause if it turns out wrong.
   */
  async function reserveGuess(email: string): Promise<{ cap: GuessCap; retryAfterSeconds: number } | undefined> {
    const taken: string[] = [];
    let paused: { cap: GuessCap; retryAfterSeconds: number } | undefined;
    try {
      for (const g of GUESS_CAPS) {
        const { count, retryAfterSeconds } = await limiter.reserve(g.key(email), g.limit, (s) => new CodeEntryPaused(g.cap, s));
        taken.push(g.key(email));
        if (count >= g.limit.max && !paused) paused = { cap: g.cap, retryAfterSeconds };
      }
    } catch (err) {
      for (const key of taken) await limiter.release(key);
      throw err;
    }
    return paused;
  }

  async function releaseGuess(email: string): Promise<void> {
    for (const g of GUESS_CAPS) await limiter.release(g.key(email));
  }

  return {
    /** Refuses (429) when a new code for this e-mail would break the send limits; counts the send otherwise. */
    async allowSend(email: string, purpose: CodePurpose, ip: string | null): Promise<void> {
      const wait = (seconds: number) =>
        new RateLimited(fill('code-wait', describeWait(seconds)), seconds);
      await limiter.consume(`code-send-minute:${purpose}:${email}`, LIMITS.codeSendsPerMinute, wait);
      await limiter.consume(`code-send-hour:${purpose}:${email}`, LIMITS.codeSendsPerHour, wait);
      if (ip) await limiter.consume(`code-send-ip:${ip}`, LIMITS.codeSendsPerIp, wait);
    },

    /** Whether the newest code for this e-mail and purpose is still unused and unexpired (it may still be entered). */
    async hasUnusedCode(email: string, purpose: CodePurpose): Promise<boolean> {
      const [live] = await db
        .select({ id: oneTimeCodes.id })
        .from(oneTimeCodes)
        .where(and(eq(oneTimeCodes.email, email), eq(oneTimeCodes.purpose, purpose), isNull(oneTimeCodes.consumedAt), gt(oneTimeCodes.expiresAt, clock())))
        .limit(1);
      return live !== undefined;
    },

    /**
     * Makes a new code (voiding earlier unused ones of the account and purpose) and returns it in
     * clear for the mail or text. `phone`: the E.164 number a verify-phone code is texted to, kept
     * with it so that using the code proves that number.
     */
    async issue(email: string, purpose: CodePurpose, opts: { phone?: string } = {}): Promise<string> {
      const code = String(randomInt(0, 10_000)).padStart(4, '0');
      const salt = randomBytes(16).toString('hex');
      const now = clock();
      await db.transaction(async (tx) => {
        await tx
          .update(oneTimeCodes)
          .set({ consumedAt: now })
          .where(and(eq(oneTimeCodes.email, email), eq(oneTimeCodes.purpose, purpose), isNull(oneTimeCodes.consumedAt)));
        await tx.insert(oneTimeCodes).values({
          email,
          purpose,
          phone: opts.phone ?? null,
          codeHash: `${salt}$${hashCode(code, salt)}`,
          expiresAt: new Date(now.getTime() + CODE_TTL_MS),
          createdAt: now,
        });
      });
      return code;
    },

    /**
     * Checks a code and uses it up. Each try is claimed atomically before comparing, so
     * parallel guesses cannot exceed the 5-try limit, and each comparison is booked against
     * the account's guess caps first; a right code gives its booking back. While a cap is
     * full every try is refused with CodeEntryPaused (429). Returns the number the code was
     * texted to (verify-phone; null for the others).
     */
    async consume(email: string, purpose: CodePurpose, code: string): Promise<{ phone: string | null }> {
      await checkGuessCaps(email);
      const now = clock();
      const [latest] = await db
        .select()
        .from(oneTimeCodes)
        .where(and(eq(oneTimeCodes.email, email), eq(oneTimeCodes.purpose, purpose)))
        .orderBy(desc(oneTimeCodes.createdAt), desc(oneTimeCodes.id))
        .limit(1);
      if (!latest || latest.consumedAt || latest.expiresAt.getTime() <= now.getTime()) throw new Invalid(MESSAGES['otp-expired']);
      const paused = await reserveGuess(email);
      let wrong = false;
      try {
        const [claimed] = await db
          .update(oneTimeCodes)
          .set({ attempts: sql`${oneTimeCodes.attempts} + 1` })
          .where(
            and(
              eq(oneTimeCodes.id, latest.id),
              isNull(oneTimeCodes.consumedAt),
              lt(oneTimeCodes.attempts, MAX_CODE_ATTEMPTS),
              gt(oneTimeCodes.expiresAt, now),
            ),
          )
          .returning({ attempts: oneTimeCodes.attempts });
        if (!claimed) throw new Invalid(latest.attempts >= MAX_CODE_ATTEMPTS ? MESSAGES['otp-exhausted'] : MESSAGES['otp-expired']);
        const [salt, expected] = latest.codeHash.split('$');
        const given = Buffer.from(hashCode(code, salt!), 'hex');
        const match = given.length === Buffer.from(expected!, 'hex').length && timingSafeEqual(given, Buffer.from(expected!, 'hex'));
        if (!match) {
          wrong = true;
          const left = MAX_CODE_ATTEMPTS - claimed.attempts;
          throw new WrongCode(left > 0 ? (left === 1 ? MESSAGES['otp-wrong-last'] : fill('otp-wrong', left)) : MESSAGES['otp-exhausted'], paused);
        }
        const [used] = await db
          .update(oneTimeCodes)
          .set({ consumedAt: now })
          .where(and(eq(oneTimeCodes.id, latest.id), isNull(oneTimeCodes.consumedAt)))
          .returning({ id: oneTimeCodes.id });
        if (!used) throw new Invalid(MESSAGES['otp-expired']);
        return { phone: latest.phone };
      } finally {
        if (!wrong) await releaseGuess(email);
      }
    },

    /** Deletes used and expired codes (housekeeping); returns how many. */
    async purgeExpired(): Promise<number> {
      const gone = await db
        .delete(oneTimeCodes)
        .where(or(isNotNull(oneTimeCodes.consumedAt), lte(oneTimeCodes.expiresAt, clock())))
        .returning({ id: oneTimeCodes.id });
      return gone.length;
    },
  };
}
export type CodeService = ReturnType<typeof createCodeService>;

/** An account's deletion drops every code sent to its e-mail or texted to its phone. */
export async function eraseCodesOf(tx: Db | Tx, email: string, phone: string): Promise<void> {
  await tx.delete(oneTimeCodes).where(phone ? or(eq(oneTimeCodes.email, email), eq(oneTimeCodes.phone, phone)) : eq(oneTimeCodes.email, email));
}
