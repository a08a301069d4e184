import { and, eq } from 'drizzle-orm';
import { AppError, Conflict, Invalid, Unauthorized } from '@/lib/domain/errors';
import { message, phoneCodeText } from '@/lib/domain/messages';
import { normalisePhone } from '@/lib/domain/phone';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { users } from '@/lib/server/infra/db/schema';
import type { Logger } from '@/lib/server/infra/log';
import { LIMITS, type RateLimiter } from '@/lib/server/infra/rate-limit';
import { TextRefused, type TextSender } from '@/lib/server/notifications/port';
import { CODE_TTL_MS, type CodeService } from './codes';
import type { SessionUser } from './sessions';

const PURPOSE = 'verify-phone';

/**
 * "Is the phone verified" (issue 19, pay on delivery): the shopper proved, with a texted code, the
 * number the account has now. Changing the number in the profile makes it unverified by itself.
 */
export function phoneVerified(user: Pick<SessionUser, 'phoneNumber' | 'phoneVerifiedNumber'>): boolean {
  return user.phoneVerifiedNumber !== null && user.phoneVerifiedNumber === user.phoneNumber;
}

/**
 * The number a code would be texted to: the account's own, which must already be in E.164 (numbers
 * are stored so since issue 19; an older one is put right by saving the profile), else null.
 */
export function phoneToVerify(user: Pick<SessionUser, 'phoneNumber' | 'country'>): string | null {
  const phone = normalisePhone(user.phoneNumber, user.country);
  return phone.ok && phone.e164 === user.phoneNumber ? phone.e164 : null;
}

/**
 * Verifies a shopper's mobile number with a 4-digit code sent by text message, under the rules of
 * the e-mailed codes (accounts/codes.ts: hashed, single use, 10-minute expiry, 5 tries, the same
 * send limits and the account's wrong-guess caps), plus the per-e-mail and per-IP try limits of
 * e-mail verification. The one writer of users.phone_verified_number.
 */
export function createPhoneVerification({ db, codes, limiter, sender, log }: { db: Db; codes: CodeService; limiter: RateLimiter; sender: TextSender; log: Logger }) {
  async function reload(userId: string): Promise<SessionUser> {
    const [u] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
    if (!u) throw new Unauthorized(message('session-expired'));
    return u;
  }

  return {
    /** Whether the shopper's current number is the one they verified. */
    async isPhoneVerified(userId: string): Promise<boolean> {
      const [u] = await db.select({ phoneNumber: users.phoneNumber, phoneVerifiedNumber: users.phoneVerifiedNumber }).from(users).where(eq(users.id, userId)).limit(1);
      return u !== undefined && phoneVerified(u);
    },

    /**
     * Texts a new code to the shopper's number (earlier unused ones stop working); returns the
     * number. Refused (429) within the send limits; 409 when the number is already verified; 400
     * when the provider refuses the number, 503 when it cannot be reached.
     */
    async sendCode(user: SessionUser, ip: string | null): Promise<{ phone: string }> {
      const current = await reload(user.id);
      if (phoneVerified(current)) throw new Conflict(message('phone-already-verified'));
      const phone = phoneToVerify(current);
      if (!phone) throw new Invalid(message('phone-verify-need-phone'));
      await codes.allowSend(current.email, PURPOSE, ip);
      const code = await codes.issue(current.email, PURPOSE, { phone });
      let messageId: string | null;
      try {
        ({ messageId } = await sender.send({ to: phone, body: phoneCodeText(code, CODE_TTL_MS / 60_000) }));
      } catch (err) {
        log.warn('phone verification code not sent', { err, userId: current.id, provider: sender.name });
        if (err instanceof TextRefused) throw new Invalid(message('phone-code-refused'));
        throw new AppError('unavailable', message('phone-code-not-sent'));
      }
      log.info('phone verification code sent', { userId: current.id, provider: sender.name, messageId });
      return { phone };
    },

    /**
     * Uses up the code and marks the number it was texted to as verified, provided the account
     * still has that number (a number changed since is not proven by it).
     */
    async verify(user: SessionUser, code: string, ip: string | null): Promise<{ phone: string }> {
      const current = await reload(user.id);
      if (ip) await limiter.check(`code-fail-ip:${ip}`, LIMITS.codeFailuresPerIp);
      await limiter.consume(`code-try:${PURPOSE}:${current.email}`, LIMITS.codeAttemptsPerEmail);
      let phone: string | null;
      try {
        ({ phone } = await codes.consume(current.email, PURPOSE, code));
      } catch (err) {
        if (ip) await limiter.hit(`code-fail-ip:${ip}`, LIMITS.codeFailuresPerIp);
        throw err;
      }
      if (!phone) throw new Invalid(message('otp-expired'));
      const [done] = await db
        .update(users)
        .set({ phoneVerifiedNumber: phone })
        .where(and(eq(users.id, current.id), eq(users.phoneNumber, phone)))
        .returning({ id: users.id });
      if (!done) throw new Invalid(message('phone-changed-since-code'));
      log.info('phone verified', { userId: current.id });
      return { phone };
    },
  };
}
export type PhoneVerification = ReturnType<typeof createPhoneVerification>;

/** An account's deletion forgets the number it proved. */
export async function forgetVerifiedNumber(tx: Db | Tx, userId: string): Promise<void> {
  await tx.update(users).set({ phoneVerifiedNumber: null }).where(eq(users.id, userId));
}
