import { and, eq, gt, sql } from 'drizzle-orm';
import { RateLimited } from '../domain/errors';
import type { Db } from './db/client';
import { rateLimits } from './db/schema';

export interface Limit {
  /** Most events allowed in one window. */
  max: number;
  windowSeconds: number;
}

/** The limits of DESIGN.md "Sessions and accounts". Per-e-mail limits are strict; per-IP limits count failures and are generous. */
export const LIMITS = {
  loginFailuresPerEmail: { max: 5, windowSeconds: 15 * 60 },
  loginFailuresPerIp: { max: 100, windowSeconds: 15 * 60 },
  codeAttemptsPerEmail: { max: 10, windowSeconds: 15 * 60 },
  codeFailuresPerIp: { max: 100, windowSeconds: 15 * 60 },
  codeSendsPerMinute: { max: 1, windowSeconds: 60 },
  codeSendsPerHour: { max: 5, windowSeconds: 60 * 60 },
  codeSendsPerIp: { max: 200, windowSeconds: 60 * 60 },
  passwordChangeFailuresPerUser: { max: 10, windowSeconds: 15 * 60 },
} satisfies Record<string, Limit>;

/** "45 seconds", "1 minute", "12 minutes". */
export function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

export function tooManyAttempts(retryAfterSeconds: number): RateLimited {
  return new RateLimited(`Too many attempts. Please try again in ${describeWait(retryAfterSeconds)}.`, retryAfterSeconds);
}

/**
 * Fixed-window counters in the rate_limits table, so every app server sees the same counts.
 * `hit` counts an event atomically (one upsert); `check` refuses once a window is full.
 */
export function createRateLimiter({ db, clock }: { db: Db; clock: () => Date }) {
  const secondsUntil = (end: Date) => Math.max(1, Math.ceil((end.getTime() - clock().getTime()) / 1000));

  return {
    /** Counts one event; returns whether it was within the limit and when the window ends. */
    async hit(key: string, limit: Limit): Promise<{ allowed: boolean; count: number; retryAfterSeconds: number }> {
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
        })
        .returning({ count: rateLimits.count, windowEnd: rateLimits.windowEnd });
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

    async reset(key: string): Promise<void> {
      await db.delete(rateLimits).where(eq(rateLimits.key, key));
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
