import { and, eq, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { AppError, Conflict, Invalid, NotFound, Unauthorized } from '@/lib/domain/errors';
import { message, phoneCodeText } from '@/lib/domain/messages';
import { normalisePhone } from '@/lib/domain/phone';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { users, verifiedPhones } from '@/lib/server/accounts/tables';
import type { Actor, AuditLog } from '@/lib/server/backoffice/audit';
import type { Logger } from '@/lib/server/infra/log';
import { LIMITS, type RateLimiter } from '@/lib/server/infra/rate-limit';
import { TextRefused, type TextSender } from '@/lib/server/notifications/port';
import { CODE_TTL_MS, type CodeService } from './codes';
import type { SessionUser } from './sessions';
import { UUID } from '@/lib/domain/validation';

const PURPOSE = 'verify-phone';

/**
 * "Is the phone verified" (pay on delivery): the shopper proved, with a texted code, the
 * number the account has now. Changing the number in the profile makes it unverified by itself.
 */
export function phoneVerified(user: Pick<SessionUser, 'phoneNumber' | 'phoneVerifiedNumber'>): boolean {
  return user.phoneVerifiedNumber !== null && user.phoneVerifiedNumber === user.phoneNumber;
}

/**
 * The number a code would be texted to: the account's own, which must already be in E.164 (numbers
 * are stored so; an older one from before that is put right by saving the profile), else null.
 */
export function phoneToVerify(user: Pick<SessionUser, 'phoneNumber' | 'country'>): string | null {
  const phone = normalisePhone(user.phoneNumber, user.country);
  return phone.ok && phone.e164 === user.phoneNumber ? phone.e164 : null;
}

/**
 * A refused delivery counts against every number the account holds as well as the account (taken
 * after the account's row: the account, then its numbers). Called by the collection service.
 */
export async function countRefusalOnPhones(tx: Tx, userId: string): Promise<void> {
  await tx
    .update(verifiedPhones)
    .set({ refusedDeliveries: sql`${verifiedPhones.refusedDeliveries} + 1` })
    .where(eq(verifiedPhones.userId, userId));
}

/** Staff lifted the account's block: the numbers it holds count from 0 again too. */
export async function liftRefusalsOnPhones(tx: Tx, userId: string): Promise<void> {
  await tx.update(verifiedPhones).set({ refusedDeliveries: 0 }).where(eq(verifiedPhones.userId, userId));
}

/**
 * Verifies a shopper's mobile number with a 4-digit code sent by text message, under the rules of
 * the e-mailed codes (accounts/codes.ts: hashed, single use, 10-minute expiry, 5 tries, the same
 * send limits and the account's wrong-guess caps), plus the per-e-mail and per-IP try limits of
 * e-mail verification. A number is held by the account that verified it (verified_phones) until
 * staff release it: another account cannot verify it meanwhile. The one writer of
 * users.phone_verified_number and of verified_phones.
 */
export function createPhoneVerification({ db, codes, limiter, sender, log, audit }: { db: Db; codes: CodeService; limiter: RateLimiter; sender: TextSender; log: Logger; audit?: AuditLog | undefined }) {
  async function reload(userId: string): Promise<SessionUser> {
    const [u] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
    if (!u) throw new Unauthorized(message('session-expired'));
    return u;
  }

  /** Whether another account holds `phone`. */
  async function heldElsewhere(phone: string, userId: string): Promise<boolean> {
    const [held] = await db.select({ userId: verifiedPhones.userId }).from(verifiedPhones).where(eq(verifiedPhones.phone, phone)).limit(1);
    return held?.userId != null && held.userId !== userId;
  }

  async function holding(phone: string, which: 'confirmed' | 'waiting') {
    const [held] = await db
      .select({ id: users.id, email: users.email, firstName: users.firstName })
      .from(verifiedPhones)
      .innerJoin(users, eq(users.id, verifiedPhones.userId))
      .where(and(eq(verifiedPhones.phone, phone), which === 'confirmed' ? isNotNull(users.verifiedAt) : isNull(users.verifiedAt)))
      .limit(1);
    return held;
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
      // No text for a number another account holds: verifying it could not succeed.
      if (await heldElsewhere(phone, current.id)) throw new Conflict(message('phone-verified-elsewhere'));
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
      const verifiedPhone = phone;
      await db.transaction(async (tx) => {
        // The account's row, then the number's: the lock order of a refusal at the door.
        const [done] = await tx
          .update(users)
          .set({ phoneVerifiedNumber: verifiedPhone })
          .where(and(eq(users.id, current.id), eq(users.phoneNumber, verifiedPhone)))
          .returning({ id: users.id });
        if (!done) throw new Invalid(message('phone-changed-since-code'));
        // The number is this account's from now on, unless another account holds it (then nothing is kept).
        const [held] = await tx
          .insert(verifiedPhones)
          .values({ phone: verifiedPhone, userId: current.id })
          .onConflictDoUpdate({
            target: verifiedPhones.phone,
            set: { userId: current.id, verifiedAt: sql`now()` },
            setWhere: or(isNull(verifiedPhones.userId), eq(verifiedPhones.userId, current.id)),
          })
          .returning({ phone: verifiedPhones.phone });
        if (!held) throw new Conflict(message('phone-verified-elsewhere'));
      });
      log.info('phone verified', { userId: current.id });
      return { phone };
    },

    /**
     * The account holding `phone` (E.164) in verified_phones, if any: where a gift's return credit
     * goes (ADR 0045). Only an account whose e-mail is confirmed counts: one made through a gift's
     * return and still waiting for its code is `waitingHolderOf`.
     */
    async holderOf(phone: string): Promise<{ id: string; email: string; firstName: string } | null> {
      return (await holding(phone, 'confirmed')) ?? null;
    },

    /** The account holding `phone` whose e-mail is not confirmed yet (made through a gift's return), if any. */
    async waitingHolderOf(phone: string): Promise<{ id: string; email: string; firstName: string } | null> {
      return (await holding(phone, 'waiting')) ?? null;
    },

    /**
     * Marks `phone`, just proven with a texted code elsewhere (a gift's return, ADR 0045), as the
     * verified number of the account created with it. The code proves the number, so an account
     * still waiting for its e-mail code (the same recipient, an address mistyped) lets go of it;
     * Conflict when a confirmed account holds it meanwhile.
     */
    async holdProvenPhone(userId: string, phone: string): Promise<void> {
      await db.transaction(async (tx) => {
        // The account's row, then the number's: the lock order of verify().
        const [done] = await tx
          .update(users)
          .set({ phoneVerifiedNumber: phone })
          .where(and(eq(users.id, userId), eq(users.phoneNumber, phone)))
          .returning({ id: users.id });
        if (!done) throw new Invalid(message('phone-changed-since-code'));
        const [before] = await tx.select({ userId: verifiedPhones.userId }).from(verifiedPhones).where(eq(verifiedPhones.phone, phone)).for('update');
        const waiting = sql`exists (select 1 from ${users} where ${users.id} = ${verifiedPhones.userId} and ${users.verifiedAt} is null)`;
        const [held] = await tx
          .insert(verifiedPhones)
          .values({ phone, userId })
          .onConflictDoUpdate({ target: verifiedPhones.phone, set: { userId, verifiedAt: sql`now()` }, setWhere: or(isNull(verifiedPhones.userId), eq(verifiedPhones.userId, userId), waiting) })
          .returning({ phone: verifiedPhones.phone });
        if (!held) throw new Conflict(message('phone-verified-elsewhere'));
        if (before?.userId && before.userId !== userId) {
          await tx.update(users).set({ phoneVerifiedNumber: null }).where(and(eq(users.id, before.userId), eq(users.phoneVerifiedNumber, phone)));
        }
      });
      log.info('phone verified by a gift return', { userId });
    },

    /** The numbers an account holds, with the deliveries refused on each (the back office's customer page). */
    async heldBy(userId: string): Promise<{ phone: string; refusedDeliveries: number; verifiedAt: Date }[]> {
      return db
        .select({ phone: verifiedPhones.phone, refusedDeliveries: verifiedPhones.refusedDeliveries, verifiedAt: verifiedPhones.verifiedAt })
        .from(verifiedPhones)
        .where(eq(verifiedPhones.userId, userId))
        .orderBy(verifiedPhones.verifiedAt);
    },

    /**
     * Staff release a number an account holds: another account may verify it now (its refused
     * deliveries stay with the number), and it no longer counts as this account's verified phone.
     * Audited in the same transaction.
     */
    async release(actor: Actor, userId: string, phone: string): Promise<void> {
      if (!UUID.test(userId)) throw new NotFound(message('customer-not-found'));
      await db.transaction(async (tx) => {
        const [u] = await tx.select({ id: users.id, verified: users.phoneVerifiedNumber }).from(users).where(eq(users.id, userId)).for('update');
        if (!u) throw new NotFound(message('customer-not-found'));
        const [released] = await tx
          .update(verifiedPhones)
          .set({ userId: null })
          .where(and(eq(verifiedPhones.phone, phone), eq(verifiedPhones.userId, userId)))
          .returning({ refusedDeliveries: verifiedPhones.refusedDeliveries });
        if (!released) throw new NotFound(message('phone-release-unknown'));
        if (u.verified === phone) await tx.update(users).set({ phoneVerifiedNumber: null }).where(eq(users.id, userId));
        await audit?.record(actor, { action: 'customer.release-phone', entity: 'user', entityId: userId, details: { phone, refusedDeliveries: released.refusedDeliveries } }, tx);
      });
    },
  };
}
export type PhoneVerification = ReturnType<typeof createPhoneVerification>;

/**
 * An account's deletion forgets the number it proved, and lets go of the numbers it holds: a
 * verified number is the person's, so it goes with them (its refusals with it).
 */
export async function forgetVerifiedNumber(tx: Db | Tx, userId: string): Promise<void> {
  await tx.update(users).set({ phoneVerifiedNumber: null }).where(eq(users.id, userId));
  await tx.delete(verifiedPhones).where(eq(verifiedPhones.userId, userId));
}
