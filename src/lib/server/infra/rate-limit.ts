import { and, eq, gt, like, lte, or, sql } from 'drizzle-orm';
import { AVATAR_CHANGES_PER_DAY } from '@/lib/domain/account-rules';
import { RateLimited } from '@/lib/domain/errors';
import { fill } from '@/lib/domain/messages';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { rateLimits } from '@/lib/server/infra/tables';

export interface Limit {
  /** Most events allowed in one window. */
  max: number;
  windowSeconds: number;
}

/** The limits of sign-in, codes and sign-up (docs/security.md). Per-e-mail limits are strict; per-IP limits count failures and are generous. */
export const LIMITS = {
  loginFailuresPerEmail: { max: 5, windowSeconds: 15 * 60 },
  loginFailuresPerIp: { max: 100, windowSeconds: 15 * 60 },
  codeAttemptsPerEmail: { max: 10, windowSeconds: 15 * 60 },
  codeFailuresPerIp: { max: 100, windowSeconds: 15 * 60 },
  codeSendsPerMinute: { max: 1, windowSeconds: 60 },
  codeSendsPerHour: { max: 5, windowSeconds: 60 * 60 },
  codeSendsPerIp: { max: 200, windowSeconds: 60 * 60 },
  passwordChangeFailuresPerUser: { max: 10, windowSeconds: 15 * 60 },
  /** Wrong codes per account, across all its codes (registration and reset): a day and a month cap. */
  wrongCodesPerDay: { max: 10, windowSeconds: 24 * 60 * 60 },
  wrongCodesPerMonth: { max: 30, windowSeconds: 30 * 24 * 60 * 60 },
  /** Forgot-password and sign-up calls that only tell whether an e-mail has an account (failures only). */
  emailProbesPerIp: { max: 100, windowSeconds: 15 * 60 },
  /**
   * Sign-ups per client address, counted before the password is hashed: a burst of 10 a
   * minute and 50 an hour, enough for a carrier's shared address on a busy evening, while a
   * script gets one hash slot's worth. SIGNUPS_PER_ADDRESS_PER_MINUTE / _PER_HOUR change them.
   */
  signUpsPerAddressPerMinute: { max: 10, windowSeconds: 60 },
  signUpsPerAddressPerHour: { max: 50, windowSeconds: 60 * 60 },
  /** A newsletter confirm mail sent again to an address still waiting (a new opt-in always gets one). */
  newsletterConfirmMailsPerMinute: { max: 1, windowSeconds: 60 },
  newsletterConfirmMailsPerHour: { max: 5, windowSeconds: 60 * 60 },
  /**
   * Mails the home page's newsletter box may send one recipient (confirm or "already subscribed"):
   * anyone can type any address there, so an inbox hears from us at most once a day.
   */
  newsletterBoxMailsPerRecipient: { max: 1, windowSeconds: 24 * 60 * 60 },
  /** The newsletter box's subscribes per client address: generous (a carrier's shared address), yet no mail cannon. */
  newsletterSubscribesPerAddressPerMinute: { max: 10, windowSeconds: 60 },
  newsletterSubscribesPerAddressPerHour: { max: 30, windowSeconds: 60 * 60 },
  /**
   * Discount codes refused per account and per client address (a code that applies is not counted):
   * enough for a shopper mistyping a few, while guessing codes gets 10 tries an hour.
   */
  discountCodeFailuresPerUser: { max: 10, windowSeconds: 60 * 60 },
  discountCodeFailuresPerIp: { max: 100, windowSeconds: 60 * 60 },
  /** Profile-picture uploads per shopper. */
  avatarChangesPerUser: { max: AVATAR_CHANGES_PER_DAY, windowSeconds: 24 * 60 * 60 },
} satisfies Record<string, Limit>;

/** "45 seconds", "1 minute", "12 minutes", "3 hours", "12 days". */
export function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.ceil(seconds / 3600);
  if (hours < 48) return `${hours} hours`;
  return `${Math.ceil(seconds / 86_400)} days`;
}

export function tooManyAttempts(retryAfterSeconds: number): RateLimited {
  return new RateLimited(fill('too-many-attempts', describeWait(retryAfterSeconds)), retryAfterSeconds);
}

/**
 * Fixed-window counters in the rate_limits table, so every app server sees the same counts.
 * `hit` counts an event atomically (one upsert); `check` refuses once a window is full;
 * `reserve` takes a place in the window atomically (one upsert that refuses once it is full),
 * so parallel requests can never get more places than the limit; `release` gives one back.
 */
export function createRateLimiter({ db, clock }: { db: Db; clock: () => Date }) {
  const secondsUntil = (end: Date) => Math.max(1, Math.ceil((end.getTime() - clock().getTime()) / 1000));

  /**
   * One atomic upsert: counts an event in the key's window, starting a new window when the old
   * one has ended. With `onlyWithRoom`, a full window is left alone and no row comes back.
   */
  async function count(key: string, limit: Limit, onlyWithRoom: boolean) {
    const now = clock();
    const nowIso = now.toISOString();
    const end = new Date(now.getTime() + limit.windowSeconds * 1000);
    const expired = sql`${rateLimits.windowEnd} <= ${nowIso}::timestamptz`;
    const [row] = await db
      .insert(rateLimits)
      .values({ key, count: 1, windowStart: now, windowEnd: end })
      .onConflictDoUpdate({
        target: rateLimits.key,
        set: {
          count: sql`case when ${expired} then 1 else ${rateLimits.count} + 1 end`,
          windowStart: sql`case when ${expired} then ${nowIso}::timestamptz else ${rateLimits.windowStart} end`,
          windowEnd: sql`case when ${expired} then ${end.toISOString()}::timestamptz else ${rateLimits.windowEnd} end`,
        },
        ...(onlyWithRoom ? { setWhere: sql`(${expired} or ${rateLimits.count} < ${limit.max})` } : {}),
      })
      .returning({ count: rateLimits.count, windowEnd: rateLimits.windowEnd });
    return { row, end };
  }

  return {
    /** Counts one event; returns whether it was within the limit and when the window ends. */
    async hit(key: string, limit: Limit): Promise<{ allowed: boolean; count: number; retryAfterSeconds: number }> {
      const { row } = await count(key, limit, false);
      return { allowed: row!.count <= limit.max, count: row!.count, retryAfterSeconds: secondsUntil(row!.windowEnd) };
    },

    /** Counts one event and throws 429 when it goes over the limit. */
    async consume(key: string, limit: Limit, error: (retryAfterSeconds: number) => RateLimited = tooManyAttempts): Promise<void> {
      const result = await this.hit(key, limit);
      if (!result.allowed) throw error(result.retryAfterSeconds);
    },

    /** Throws 429 when the window is already full, without counting (used before failure-only counters). */
    async check(key: string, limit: Limit, error: (retryAfterSeconds: number) => RateLimited = tooManyAttempts): Promise<void> {
      const [row] = await db
        .select({ count: rateLimits.count, windowEnd: rateLimits.windowEnd })
        .from(rateLimits)
        .where(and(eq(rateLimits.key, key), gt(rateLimits.windowEnd, clock())))
        .limit(1);
      if (row && row.count >= limit.max) throw error(secondsUntil(row.windowEnd));
    },

    /**
     * Takes one place in the window before the work it guards (a password check, a code
     * comparison), or throws 429 when the window is full. One statement: the upsert only
     * updates a row whose window has ended or still has room, so concurrent callers on any
     * app server cannot overbook it.
     */
    async reserve(key: string, limit: Limit, error: (retryAfterSeconds: number) => RateLimited = tooManyAttempts): Promise<{ count: number; retryAfterSeconds: number }> {
      const { row, end } = await count(key, limit, true);
      if (row) return { count: row.count, retryAfterSeconds: secondsUntil(row.windowEnd) };
      const [full] = await db.select({ windowEnd: rateLimits.windowEnd }).from(rateLimits).where(eq(rateLimits.key, key)).limit(1);
      throw error(secondsUntil(full?.windowEnd ?? end));
    },

    /** Gives back a place taken by `reserve` (the guarded work turned out not to count). */
    async release(key: string): Promise<void> {
      await db
        .update(rateLimits)
        .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
        .where(and(eq(rateLimits.key, key), gt(rateLimits.windowEnd, clock())));
    },

    async reset(key: string): Promise<void> {
      await db.delete(rateLimits).where(eq(rateLimits.key, key));
    },

    /** Deletes counters whose window has ended (housekeeping); returns how many. */
    async purgeExpired(): Promise<number> {
      const gone = await db.delete(rateLimits).where(lte(rateLimits.windowEnd, clock())).returning({ key: rateLimits.key });
      return gone.length;
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** An account's deletion drops the counters keyed by its e-mail or id (their keys name the person). */
export async function eraseCountersOf(tx: Db | Tx, email: string, userId: string): Promise<void> {
  const within = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  await tx.delete(rateLimits).where(or(like(rateLimits.key, within(email)), like(rateLimits.key, within(userId))));
}
