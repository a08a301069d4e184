import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { maskEmail } from '@/lib/domain/gift-returns';
import { AVATAR_CHANGES_PER_DAY } from '@/lib/domain/account-rules';
import { STORE_NAME } from '@/lib/domain/brand';
import type { ProfileUpdate, RegisterInput } from '@/lib/domain/accounts';
import { AppError, Conflict, Invalid, NotFound, RateLimited, Unauthorized } from '@/lib/domain/errors';
import { fill, message } from '@/lib/domain/messages';
import { processAvatar } from './avatars';
import { CodeEntryPaused, WrongCode, type CodePurpose, type CodeService, type GuessCap } from './codes';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { anonymousEmail, ERASED_FIRST_NAME, ERASED_LAST_NAME } from '@/lib/domain/privacy';
import { users, verifiedPhones } from '@/lib/server/accounts/tables';
import { returns, storeCreditEntries } from '@/lib/server/aftersales/tables';
import { orders } from '@/lib/server/orders/tables';
import type { Logger } from '@/lib/server/infra/log';
import { escapeHtml, mailHtml, type Mailer } from '@/lib/server/infra/mail';
import type { MediaService } from '@/lib/server/infra/media';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords';
import { describeWait, LIMITS, type Limit, type RateLimiter } from '@/lib/server/infra/rate-limit';
import type { SessionService, SessionUser } from './sessions';
import type { Country } from '@/lib/domain/geo';
import { normalisePhone } from '@/lib/domain/phone';
import type { UpdateChannel } from '@/lib/domain/order-updates';

/**
 * The account row holds nothing a new sign-up could take: no proven number, no store credit, no
 * order, no return (its own or a gift's credited to it). Read in the same statement that takes it.
 */
function holdsNothing(): SQL {
  return sql`${users.phoneVerifiedNumber} is null
    and not exists (select 1 from ${verifiedPhones} where ${verifiedPhones.userId} = ${users.id})
    and not exists (select 1 from ${storeCreditEntries} where ${storeCreditEntries.userId} = ${users.id})
    and not exists (select 1 from ${orders} where ${orders.userId} = ${users.id})
    and not exists (select 1 from ${returns} where ${returns.userId} = ${users.id} or ${returns.creditUserId} = ${users.id})`;
}

/** The number in E.164, read in the shopper's country; a bad one is refused with what is wrong with it. */
function e164(phoneNumber: string, country: Country): string {
  const phone = normalisePhone(phoneNumber, country);
  if (!phone.ok) throw new Invalid(phone.message);
  return phone.e164;
}

/** The user as the API shows it: id, firstName, lastName, email, image, country, phoneNumber. */
export interface UserDto {
  id: string;
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  image: string | null;
  country: Country;
  phoneNumber: string;
  verified: boolean;
}

export function toUserDto(u: SessionUser): UserDto {
  return {
    id: u.id,
    userId: u.id,
    firstName: u.firstName,
    lastName: u.lastName,
    email: u.email,
    image: u.imageHash ? `/media/${u.imageHash}` : null,
    country: u.country,
    phoneNumber: u.phoneNumber,
    verified: u.verifiedAt !== null,
  };
}

interface Deps {
  db: Db;
  clock: () => Date;
  log: Logger;
  mailer: Mailer;
  sessions: SessionService;
  media: MediaService;
  limiter: RateLimiter;
  codes: CodeService;
  /** Sign-ups per client address (LIMITS.signUpsPerAddress*, as configured). */
  signUpLimits: { perMinute: Limit; perHour: Limit };
  /** Whether shoppers may choose order updates on WhatsApp (WHATSAPP is not off). */
  whatsappOffered?: boolean;
}

/** Unverified accounts are told to verify; the details flag lets clients offer "resend code". */
class VerifyFirst extends AppError {
  constructor() {
    super('forbidden', message('verify-first'), { needsVerification: true });
  }
}

function tooManySignUps(retryAfterSeconds: number): RateLimited {
  return new RateLimited(fill('signups-too-many', describeWait(retryAfterSeconds)), retryAfterSeconds);
}

function tooManyPictureChanges(retryAfterSeconds: number): RateLimited {
  return new RateLimited(fill('picture-changes-too-many', AVATAR_CHANGES_PER_DAY, describeWait(retryAfterSeconds)), retryAfterSeconds);
}

export function createAccountService({ db, clock, log, mailer, sessions, media, limiter, codes, signUpLimits, whatsappOffered = true }: Deps) {
  async function findByEmail(email: string): Promise<SessionUser | undefined> {
    const [u] = await db.select().from(users).where(eq(users.email, email)).limit(1);
    return u;
  }

  async function holdsNothingNow(userId: string): Promise<boolean> {
    const [empty] = await db.select({ id: users.id }).from(users).where(and(eq(users.id, userId), holdsNothing())).limit(1);
    return empty !== undefined;
  }

  async function sendCode(email: string, purpose: CodePurpose, firstName: string): Promise<void> {
    const code = await codes.issue(email, purpose);
    const what = purpose === 'verify' ? 'verification' : 'password reset';
    const subject = `Your ${STORE_NAME} ${what} code is ${code}`;
    const text =
      `Your ${STORE_NAME} ${what} code is ${code}.\n\n` +
      `Hello ${firstName},\n\nEnter this code to ${purpose === 'verify' ? 'verify your email address' : 'choose a new password'}. ` +
      `It expires in 10 minutes and can be used once.\n\nIf you did not ask for it, you can ignore this email.\n\n${STORE_NAME}`;
    const html = mailHtml(
      purpose === 'verify' ? 'Verify your email' : 'Reset your password',
      `<p>Hello ${escapeHtml(firstName)},</p><p>Your ${what} code is:</p>` +
        `<p style="font-size:32px;letter-spacing:10px;font-weight:bold;margin:16px 0">${code}</p>` +
        `<p>It expires in 10 minutes and can be used once. If you did not ask for it, you can ignore this email.</p>`,
    );
    await mailer.send({ to: email, subject, text, html });
  }

  /**
   * Tells the owner, once per pause, that code entry on their account is paused. The notice
   * is itself a counter (max 1 for the rest of the pause), so parallel refusals on any app
   * server send one mail between them.
   */
  async function notifyCodeEntryPaused(email: string, cap: GuessCap, retryAfterSeconds: number): Promise<void> {
    try {
      const notice = await limiter.hit(`code-paused-notice:${cap}:${email}`, { max: 1, windowSeconds: retryAfterSeconds });
      if (notice.count !== 1) return;
      const user = await findByEmail(email);
      if (!user) return;
      log.warn('code entry paused', { to: maskEmail(email), cap });
      const until = new Date(clock().getTime() + retryAfterSeconds * 1000).toUTCString();
      const why =
        cap === 'day'
          ? `${LIMITS.wrongCodesPerDay.max} wrong codes were entered for your account within 24 hours`
          : `${LIMITS.wrongCodesPerMonth.max} wrong codes were entered for your account within 30 days`;
      const body =
        `${why}. To keep your account safe, we have paused code entry and password reset for about ${describeWait(retryAfterSeconds)} (until ${until}). ` +
        `Your password has not changed and you can still sign in with it.`;
      const advice =
        'If this was you, please wait until then and ask for a new code. If it was not you, someone may be trying to get into your account: ' +
        'nobody can reset your password while it is paused, and you do not need to do anything.';
      await mailer.send({
        to: email,
        subject: `Password reset is paused on your ${STORE_NAME} account`,
        text: `Password reset is paused on your ${STORE_NAME} account.\n\nHello ${user.firstName},\n\n${body}\n\n${advice}\n\n${STORE_NAME}`,
        html: mailHtml(
          'Password reset is paused',
          `<p>Hello ${escapeHtml(user.firstName)},</p><p>${escapeHtml(body)}</p><p>${escapeHtml(advice)}</p>`,
        ),
      });
    } catch (err) {
      log.error('code-entry-paused mail failed', { err, to: maskEmail(email) });
    }
  }

  /**
   * Code checks are limited per e-mail (every try), per account across all its codes (wrong
   * guesses: a day and a month cap, see codes.ts) and per IP (failures only).
   */
  async function consumeCode(email: string, purpose: CodePurpose, otp: string, ip: string | null): Promise<void> {
    if (ip) await limiter.check(`code-fail-ip:${ip}`, LIMITS.codeFailuresPerIp);
    await limiter.consume(`code-try:${purpose}:${email}`, LIMITS.codeAttemptsPerEmail);
    try {
      await codes.consume(email, purpose, otp);
    } catch (err) {
      if (ip) await limiter.hit(`code-fail-ip:${ip}`, LIMITS.codeFailuresPerIp);
      if (err instanceof CodeEntryPaused) await notifyCodeEntryPaused(email, err.cap, err.retryAfterSeconds);
      else if (err instanceof WrongCode && err.paused) await notifyCodeEntryPaused(email, err.paused.cap, err.paused.retryAfterSeconds);
      throw err;
    }
  }

  /**
   * Calls that tell whether an e-mail has an account (forgot-password, sign-up, resend) are
   * limited per IP, counting only the answers that give that away (generous: carriers share IPs).
   */
  const probeKey = (ip: string) => `email-probe-ip:${ip}`;
  async function checkProbes(ip: string | null): Promise<void> {
    if (ip) await limiter.check(probeKey(ip), LIMITS.emailProbesPerIp);
  }
  async function countProbe(ip: string | null): Promise<void> {
    if (ip) await limiter.hit(probeKey(ip), LIMITS.emailProbesPerIp);
  }

  /**
   * A sign-up hashes a password (a share of the CPU and memory every sign-in needs), so each
   * client address gets a burst of them, taken before the hash: a flood from one address is
   * refused at once with 429 and a Retry-After, not queued. Places are taken atomically, so
   * parallel sign-ups on any app server cannot get more than the limit.
   */
  async function takeSignUpPlace(ip: string | null): Promise<void> {
    if (!ip) return;
    const minuteKey = `signup-ip-minute:${ip}`;
    await limiter.reserve(minuteKey, signUpLimits.perMinute, tooManySignUps);
    try {
      await limiter.reserve(`signup-ip-hour:${ip}`, signUpLimits.perHour, tooManySignUps);
    } catch (err) {
      await limiter.release(minuteKey);
      throw err;
    }
  }

  async function mailPasswordChanged(user: SessionUser): Promise<void> {
    try {
      await mailer.send({
        to: user.email,
        subject: `Your ${STORE_NAME} password was changed`,
        text:
          `Your ${STORE_NAME} password was changed.\n\nHello ${user.firstName},\n\nThe password of your account was just changed and ` +
          `you were signed out on your other devices. If this was not you, reset your password now with "Forgot password".\n\n${STORE_NAME}`,
        html: mailHtml(
          'Your password was changed',
          `<p>Hello ${escapeHtml(user.firstName)},</p><p>The password of your account was just changed and you were signed out on your other devices.</p>` +
            `<p>If this was not you, reset your password now with “Forgot password”.</p>`,
        ),
      });
    } catch (err) {
      log.error('password-changed mail failed', { err, to: maskEmail(user.email) });
    }
  }

  async function reload(userId: string): Promise<SessionUser> {
    const [u] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
    if (!u) throw new Unauthorized(message('session-expired'));
    return u;
  }

  return {
    async register(registration: RegisterInput, ip: string | null): Promise<UserDto> {
      const input = { ...registration, phoneNumber: e164(registration.phoneNumber, registration.country) };
      await checkProbes(ip);
      const existing = await findByEmail(input.email);
      if (existing && (existing.verifiedAt || !(await holdsNothingNow(existing.id)))) {
        await countProbe(ip);
        throw new Conflict(message('email-taken'));
      }
      await takeSignUpPlace(ip);
      await codes.allowSend(input.email, 'verify', ip);
      const passwordHash = await hashPassword(input.password);
      // A shopper who never entered their code may simply sign up again: the unverified
      // account takes the new details and a fresh code. Nobody can use it without the code,
      // which only reaches the owner of the address. One that already holds something (a gift
      // recipient's proven number, credit, orders, returns) is never taken over so.
      const [created] = existing
        ? await db
            .update(users)
            .set({ ...input, passwordHash })
            .where(and(eq(users.id, existing.id), isNull(users.verifiedAt), holdsNothing()))
            .returning()
        : await db
            .insert(users)
            .values({ ...input, passwordHash, createdAt: clock() })
            .onConflictDoNothing({ target: users.email })
            .returning();
      if (!created) {
        await countProbe(ip);
        throw new Conflict(message('email-taken'));
      }
      try {
        await sendCode(created.email, 'verify', created.firstName);
      } catch (err) {
        // The account exists; the shopper can ask for the code again from /verify-otp.
        log.error('verification mail failed', { err, to: maskEmail(created.email) });
      }
      return toUserDto(created);
    },

    async verifyEmail(email: string, otp: string, ip: string | null): Promise<void> {
      await consumeCode(email, 'verify', otp, ip);
      await db.update(users).set({ verifiedAt: clock() }).where(eq(users.email, email));
    },

    async resendVerification(email: string, ip: string | null): Promise<void> {
      await checkProbes(ip);
      const user = await findByEmail(email);
      if (!user || user.verifiedAt) {
        await countProbe(ip);
        throw user ? new Invalid(message('already-verified')) : new NotFound(message('email-not-found'));
      }
      await codes.allowSend(email, 'verify', ip);
      await sendCode(email, 'verify', user.firstName);
    },

    /**
     * Unknown e-mail and wrong password give the same answer, in about the same time.
     * Each password check first reserves a place in the e-mail's window (one atomic upsert),
     * so a burst of parallel tries gets at most 5 checks per 15 minutes; the rest are 429.
     * A right password gives the place back (and a verified login clears the window).
     */
    async login(email: string, password: string, ip: string | null): Promise<{ token: string; user: UserDto }> {
      const emailKey = `login-fail:${email}`;
      const ipKey = ip ? `login-fail-ip:${ip}` : null;
      if (ipKey) await limiter.check(ipKey, LIMITS.loginFailuresPerIp);
      await limiter.reserve(emailKey, LIMITS.loginFailuresPerEmail);
      let user: SessionUser | undefined;
      let ok = false;
      try {
        user = await findByEmail(email);
        ok = user ? await verifyPassword(password, user.passwordHash, 'sign-in') : (await burnPasswordCheck(password), false);
      } catch (err) {
        // No password was checked (busy server, database error): the place is not used up.
        await limiter.release(emailKey);
        throw err;
      }
      if (!user || !ok) {
        if (ipKey) await limiter.hit(ipKey, LIMITS.loginFailuresPerIp);
        throw new Unauthorized(message('invalid-credentials'));
      }
      if (!user.verifiedAt) {
        await limiter.release(emailKey);
        throw new VerifyFirst();
      }
      await limiter.reset(emailKey);
      const { token } = await sessions.create(user.id);
      return { token, user: toUserDto(user) };
    },

    async logout(tokenHash: string): Promise<void> {
      await sessions.revoke(tokenHash);
    },

    async forgotPassword(email: string, ip: string | null): Promise<void> {
      await checkProbes(ip);
      const user = await findByEmail(email);
      if (!user || user.erasedAt) {
        await countProbe(ip);
        throw new NotFound(message('email-not-found'));
      }
      await codes.allowSend(email, 'reset', ip);
      await sendCode(email, 'reset', user.firstName);
    },

    /** A reset ends every session of the user (the code proves the mailbox, so it verifies it too). */
    async resetPassword(email: string, otp: string, newPassword: string, ip: string | null): Promise<void> {
      await consumeCode(email, 'reset', otp, ip);
      const user = await findByEmail(email);
      if (!user || user.erasedAt) throw new Invalid(message('otp-expired'));
      await db
        .update(users)
        .set({ passwordHash: await hashPassword(newPassword), verifiedAt: user.verifiedAt ?? clock() })
        .where(eq(users.id, user.id));
      await sessions.revokeOthers(user.id);
      await limiter.reset(`login-fail:${email}`);
      await mailPasswordChanged(user);
    },

    /** Ends the user's other sessions; the current one (keepTokenHash) stays signed in. */
    async changePassword(user: SessionUser, keepTokenHash: string, oldPassword: string, newPassword: string): Promise<void> {
      // Like login: the check reserves its place first, so a burst cannot get more than 10 checks.
      const key = `password-change-fail:${user.id}`;
      await limiter.reserve(key, LIMITS.passwordChangeFailuresPerUser);
      let current: SessionUser;
      let right: boolean;
      try {
        current = await reload(user.id);
        right = await verifyPassword(oldPassword, current.passwordHash, 'account');
      } catch (err) {
        await limiter.release(key);
        throw err;
      }
      if (!right) throw new Invalid(message('password-incorrect'));
      await limiter.release(key);
      if (oldPassword === newPassword) throw new Invalid(message('password-unchanged'));
      await db.update(users).set({ passwordHash: await hashPassword(newPassword) }).where(eq(users.id, user.id));
      await sessions.revokeOthers(user.id, keepTokenHash);
      await mailPasswordChanged(current);
    },

    async getUser(user: SessionUser): Promise<UserDto> {
      return toUserDto(await reload(user.id));
    },

    /** Whether the store offers order updates on WhatsApp. */
    whatsappOffered,

    /** How the shopper chose to get order updates: text, whatsapp or none. */
    async updatesChannel(user: SessionUser): Promise<UpdateChannel> {
      return (await reload(user.id)).updatesChannel;
    },

    /**
     * Chooses order updates by text, WhatsApp (the shopper's opt-in to the store's templates) or
     * neither; text and WhatsApp need a mobile number they can reach.
     */
    async setUpdatesChannel(user: SessionUser, channel: UpdateChannel): Promise<UpdateChannel> {
      const current = await reload(user.id);
      if (channel === current.updatesChannel) return channel;
      if (channel === 'whatsapp' && !whatsappOffered) throw new Invalid(message('whatsapp-updates-unavailable'));
      if (channel !== 'none' && !normalisePhone(current.phoneNumber, current.country).ok) {
        throw new Invalid(message(channel === 'whatsapp' ? 'whatsapp-updates-need-phone' : 'text-updates-need-phone'));
      }
      await db.update(users).set({ updatesChannel: channel }).where(eq(users.id, user.id));
      log.info('order updates channel chosen', { userId: user.id, channel });
      return channel;
    },

    /**
     * An inbound WhatsApp "STOP" from `phone` (E.164): the accounts that chose WhatsApp with that
     * number (as verified, or as the number messages go to, verified or not: whoever receives them
     * may end them) get no more WhatsApp messages, nor texts instead. Answers their ids.
     */
    async stopWhatsApp(phone: string): Promise<string[]> {
      const stopped = await db
        .update(users)
        .set({ updatesChannel: 'none' })
        .where(and(or(eq(users.phoneVerifiedNumber, phone), eq(users.phoneNumber, phone)), eq(users.updatesChannel, 'whatsapp')))
        .returning({ id: users.id });
      return stopped.map((u) => u.id);
    },

    async updateProfile(user: SessionUser, profile: ProfileUpdate): Promise<UserDto> {
      const patch = profile.phoneNumber === undefined ? profile : { ...profile, phoneNumber: e164(profile.phoneNumber, profile.country ?? user.country) };
      const [updated] = await db.update(users).set(patch).where(eq(users.id, user.id)).returning();
      if (!updated) throw new Unauthorized(message('session-expired'));
      // Catalogue pages show the name and shop in the country's market: their copy of the session goes.
      await sessions.forgetUser(user.id);
      return toUserDto(updated);
    },

    /**
     * At most AVATAR_CHANGES_PER_DAY uploads per shopper (each is decoded and re-encoded), taken
     * before the work; the picture it replaces is deleted once nothing else shows it.
     */
    async uploadImage(user: SessionUser, bytes: Uint8Array): Promise<UserDto> {
      await limiter.reserve(`avatar-change:${user.id}`, LIMITS.avatarChangesPerUser, tooManyPictureChanges);
      const avatar = await processAvatar(bytes);
      const hash = await media.store(avatar.bytes, avatar.contentType, { width: avatar.width, height: avatar.height });
      const { previous, updated } = await db.transaction(async (tx) => {
        const [before] = await tx.select({ imageHash: users.imageHash }).from(users).where(eq(users.id, user.id)).for('update');
        const [after] = await tx.update(users).set({ imageHash: hash }).where(eq(users.id, user.id)).returning();
        if (!before || !after) throw new Unauthorized(message('session-expired'));
        return { previous: before.imageHash, updated: after };
      });
      if (previous && previous !== hash) await media.discardIfUnused(previous);
      await sessions.forgetUser(user.id);
      return toUserDto(updated);
    },
  };
}
export type AccountService = ReturnType<typeof createAccountService>;

/**
 * Erases the person from an account (its deletion): name, e-mail, phone, picture and password go,
 * and the row stays only as the anonymous id the kept orders, payments and ledgers point to. No
 * password matches it and its e-mail is undeliverable, so nobody signs in to it again; the old
 * e-mail is free to register anew.
 */
export async function eraseAccountRow(tx: Db | Tx, userId: string, at: Date): Promise<void> {
  await tx
    .update(users)
    .set({
      firstName: ERASED_FIRST_NAME,
      lastName: ERASED_LAST_NAME,
      email: anonymousEmail(userId),
      passwordHash: '!erased',
      phoneNumber: '',
      imageHash: null,
      updatesChannel: 'none',
      erasedAt: at,
    })
    .where(eq(users.id, userId));
}
