import { Invalid, RateLimited } from '@/lib/domain/errors';
import { fill } from '@/lib/domain/messages';
import { describeWait, LIMITS, type Limit, type RateLimiter } from '@/lib/server/infra/rate-limit';

const paused = (retryAfterSeconds: number) => new RateLimited(fill('code-tries-paused', describeWait(retryAfterSeconds)), retryAfterSeconds);

/**
 * Discount codes tried by a shopper, limited per account and per client address in the database
 * (every app server counts together). Each try takes a place first, atomically, so a burst in
 * parallel gets no more tries than the limit; a code that applies, or a try that failed for
 * another reason than the code, gives its place back. Guessing is bounded this way, so the
 * refusals can keep telling a shopper why a real code does not apply.
 */
export function createCodeTries(limiter: RateLimiter) {
  return async function tryCode<T>(userId: string, ip: string | null, work: () => Promise<T>): Promise<T> {
    const counters: [string, Limit][] = [[`discount-fail:${userId}`, LIMITS.discountCodeFailuresPerUser]];
    if (ip) counters.push([`discount-fail-ip:${ip}`, LIMITS.discountCodeFailuresPerIp]);
    const taken: string[] = [];
    const giveBack = () => Promise.all(taken.map((key) => limiter.release(key)));
    try {
      for (const [key, limit] of counters) {
        await limiter.reserve(key, limit, paused);
        taken.push(key);
      }
    } catch (err) {
      await giveBack();
      throw err;
    }
    try {
      const result = await work();
      await giveBack();
      return result;
    } catch (err) {
      // A refused code (Invalid) keeps its places; anything else was not a guess.
      if (!(err instanceof Invalid)) await giveBack();
      throw err;
    }
  };
}
export type CodeTries = ReturnType<typeof createCodeTries>;
