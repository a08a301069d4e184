import { and, asc, eq, isNull, ne } from 'drizzle-orm';
import { maskEmail } from '@/lib/domain/gift-returns';
import { STORE_NAME } from '@/lib/domain/brand';
import { RateLimited } from '@/lib/domain/errors';
import { fill } from '@/lib/domain/messages';
import { csvLines } from '@/lib/server/infra/csv';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { newsletterConsentEvents, newsletterSubscriptions } from '@/lib/server/newsletter/tables';
import { promotionCodes, promotions as promotionsTable } from '@/lib/server/promotions/tables';
import { escapeHtml, mailHtml, type Mailer } from '@/lib/server/infra/mail';
import type { Logger } from '@/lib/server/infra/log';
import { describeWait, LIMITS, type Limit, type RateLimiter } from '@/lib/server/infra/rate-limit';
import type { LinkSigner } from '@/lib/server/infra/signing';

export type NewsletterSource = 'home' | 'settings';
export type NewsletterStatus = 'pending' | 'confirmed' | 'unsubscribed';
type ConsentSource = NewsletterSource | 'mail-link';

/** What the newsletter needs of the promotions service: the one welcome code of a subscriber. */
export interface WelcomeCodes {
  issueWelcomeCode(email: string, tx?: Db | Tx): Promise<{ code: string; expiresAt: Date; percentOff: number }>;
  findCode(code: string, tx?: Db | Tx): Promise<{ id: number } | null>;
}

export interface NewsletterDeps {
  db: Db;
  clock: () => Date;
  log: Logger;
  mailer: Mailer;
  limiter: RateLimiter;
  promotions: WelcomeCodes;
  signer: LinkSigner;
  /** The configured site, for links built outside a request (a request passes its public origin). */
  siteUrl: string;
}

interface WelcomeCode {
  code: string;
  expiresAt: Date;
  percentOff: number;
}

/** The outcome of following a confirm link. */
export type ConfirmOutcome = { ok: true; email: string; welcomeMailed: boolean } | { ok: false };

const normalise = (email: string) => email.trim().toLowerCase();
const DAY_MS = 86_400_000;
const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * The newsletter: double opt-in with consent records and the welcome code. The only
 * writer of newsletter_subscriptions and newsletter_consent_events.
 *
 * - subscribe (home page box or /settings): a pending subscription, a consent event, and a mail
 *   "Confirm your subscription" with a signed one-click link (no login). Subscribing again while
 *   pending sends the link again (at most once a minute, 5 times an hour per address); after
 *   unsubscribing it starts a new opt-in. The box takes any address from anyone, so it never tells
 *   whether an address is subscribed (its caller answers alike): the mail does, an "already
 *   subscribed" mail for a confirmed address, and the box mails a recipient at most once a day and
 *   takes a bounded number of subscribes per client address (429 past it). /settings subscribes
 *   the signed-in shopper's own address and says so.
 * - confirm (the link, a GET any prefetcher may repeat): pending becomes confirmed and the welcome
 *   code is issued, in one transaction holding the subscription's row lock, and only while the
 *   subscription has none (welcome_code_id is unique too): two confirms, however close, issue one
 *   code; resubscribing keeps the old one. The welcome mail goes out after the commit.
 * - unsubscribe (a signed link in every newsletter mail, or /settings).
 *
 * Addresses are stored lower-cased. Consent events keep when and how: subscribed / resubscribed
 * with the form it came from, confirmed and unsubscribed through the mail link or the settings.
 */
export function createNewsletterService(deps: NewsletterDeps) {
  const { db, clock, log, mailer, limiter, promotions, signer, siteUrl } = deps;
  /** The per-recipient limits of a mail: the box's daily one besides the repeat limits. */
  const limitKeys = (email: string, fromBox: boolean): [string, Limit][] => [
    [`newsletter-confirm-mail:minute:${email}`, LIMITS.newsletterConfirmMailsPerMinute],
    [`newsletter-confirm-mail:hour:${email}`, LIMITS.newsletterConfirmMailsPerHour],
    ...(fromBox ? [[`newsletter-box-mail:day:${email}`, LIMITS.newsletterBoxMailsPerRecipient] as [string, Limit]] : []),
  ];
  const tooManySubscribes = (retryAfterSeconds: number) => new RateLimited(fill('newsletter-too-many', describeWait(retryAfterSeconds)), retryAfterSeconds);

  /** Takes a place in each window, or none: a full one gives back the places taken and throws. */
  async function reserveAll(keys: [string, Limit][], error?: (retryAfterSeconds: number) => RateLimited): Promise<void> {
    const taken: string[] = [];
    try {
      for (const [key, limit] of keys) {
        await limiter.reserve(key, limit, error);
        taken.push(key);
      }
    } catch (err) {
      for (const key of taken) await limiter.release(key);
      throw err;
    }
  }

  function link(path: string, purpose: 'newsletter-confirm' | 'newsletter-unsubscribe', email: string, site: string | undefined): string {
    const url = new URL(path, site ?? siteUrl);
    url.searchParams.set('token', signer.token(purpose, email));
    return url.toString();
  }

  /** The unsubscribe link every newsletter mail carries, in its text and as List-Unsubscribe (RFC 2369, one-click RFC 8058). */
  function unsubscribePart(email: string, site: string | undefined) {
    const url = link('/newsletter/unsubscribe', 'newsletter-unsubscribe', email, site);
    return {
      url,
      text: `\n\nNo longer want our mails? Unsubscribe with one click: ${url}\n`,
      html: `<p style="font-size:12px;color:#6b6b6b;margin-top:24px">No longer want our mails? <a href="${escapeHtml(url)}">Unsubscribe</a> with one click.</p>`,
      headers: { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    };
  }

  async function record(tx: Db | Tx, email: string, action: 'subscribed' | 'confirmed' | 'unsubscribed' | 'resubscribed', source: ConsentSource) {
    await tx.insert(newsletterConsentEvents).values({ email, action, source, createdAt: clock() });
  }

  /**
   * Sends a mail to a newsletter address within its per-recipient limits. A repeat (the address is
   * already waiting or subscribed) or any mail asked for from the box only takes a free place and is
   * skipped without one; a new opt-in from /settings always goes out and counts. A mail that cannot
   * be sent gives its places back and fails the call.
   */
  async function sendLimited(email: string, repeat: boolean, fromBox: boolean, send: () => Promise<void>): Promise<boolean> {
    const keys = limitKeys(email, fromBox);
    const taken: string[] = [];
    try {
      for (const [key, limit] of keys) {
        if (repeat || fromBox) await limiter.reserve(key, limit);
        else await limiter.hit(key, limit);
        taken.push(key);
      }
    } catch (err) {
      if (!(err instanceof RateLimited)) throw err;
      for (const key of taken) await limiter.release(key);
      return false;
    }
    try {
      await send();
      return true;
    } catch (err) {
      for (const key of taken) await limiter.release(key).catch(() => undefined);
      throw err;
    }
  }

  async function sendConfirmMail(email: string, site: string | undefined): Promise<void> {
    const confirmUrl = link('/newsletter/confirm', 'newsletter-confirm', email, site);
    const unsubscribe = unsubscribePart(email, site);
    await mailer.send({
      to: email,
      subject: `Confirm your subscription to ${STORE_NAME}`,
      text:
        `Confirm your subscription\n\nThank you for subscribing to the ${STORE_NAME} newsletter. ` +
        `Please confirm your e-mail address with one click, and we will send you your 20% off code:\n\n${confirmUrl}\n\n` +
        `If you did not subscribe, ignore this mail: you will not hear from us again.` +
        unsubscribe.text,
      html: mailHtml(
        'Confirm your subscription',
        `<p>Thank you for subscribing to the ${escapeHtml(STORE_NAME)} newsletter. Please confirm your e-mail address with one click, and we will send you your 20% off code.</p>` +
          `<p style="margin:24px 0"><a href="${escapeHtml(confirmUrl)}" style="background:#1b1b1b;color:#fff;padding:12px 20px;text-decoration:none">Confirm your subscription</a></p>` +
          `<p>If you did not subscribe, ignore this mail: you will not hear from us again.</p>` +
          unsubscribe.html,
      ),
      headers: unsubscribe.headers,
    });
  }

  /** What the box's subscribe of a confirmed address mails instead of a confirm link. */
  async function sendAlreadySubscribedMail(email: string, site: string | undefined): Promise<void> {
    const unsubscribe = unsubscribePart(email, site);
    await mailer.send({
      to: email,
      subject: `You are already subscribed to ${STORE_NAME}`,
      text:
        `You are already subscribed\n\nSomeone, perhaps you, asked to subscribe this address to the ${STORE_NAME} newsletter. ` +
        `You are already subscribed, so there is nothing to do.\n\nIf that was not you, ignore this mail.` +
        unsubscribe.text,
      html: mailHtml(
        'You are already subscribed',
        `<p>Someone, perhaps you, asked to subscribe this address to the ${escapeHtml(STORE_NAME)} newsletter. You are already subscribed, so there is nothing to do.</p>` +
          `<p>If that was not you, ignore this mail.</p>` +
          unsubscribe.html,
      ),
      headers: unsubscribe.headers,
    });
  }

  async function sendWelcomeMail(email: string, welcome: WelcomeCode, site: string | undefined): Promise<void> {
    const days = Math.max(1, Math.round((welcome.expiresAt.getTime() - clock().getTime()) / DAY_MS));
    const until = dateFormat.format(welcome.expiresAt);
    const terms =
      `${welcome.percentOff}% off your order subtotal (not delivery), for one order, valid ${days} days (until ${until}), ` +
      `in Nigeria or South Africa, for the ${STORE_NAME} account with this e-mail address (${email}).`;
    const shop = new URL('/collection', site ?? siteUrl).toString();
    const unsubscribe = unsubscribePart(email, site);
    await mailer.send({
      to: email,
      subject: `Your ${welcome.percentOff}% off code is ${welcome.code}`,
      text:
        `Welcome to ${STORE_NAME}\n\nYour subscription is confirmed. Here is your welcome code:\n\n${welcome.code}\n\n${terms}\n\n` +
        `Sign in (or create your account) with this e-mail address, then enter the code in your cart under "Discount code".\n\nShop now: ${shop}` +
        unsubscribe.text,
      html: mailHtml(
        `Welcome to ${STORE_NAME}`,
        `<p>Your subscription is confirmed. Here is your welcome code:</p>` +
          `<p style="font-size:28px;letter-spacing:4px;font-weight:bold;margin:16px 0">${escapeHtml(welcome.code)}</p>` +
          `<p>${escapeHtml(terms)}</p>` +
          `<p>Sign in (or create your account) with this e-mail address, then enter the code in your cart under “Discount code”.</p>` +
          `<p><a href="${escapeHtml(shop)}">Shop now</a></p>` +
          unsubscribe.html,
      ),
      headers: unsubscribe.headers,
    });
  }

  return {
    /**
     * Subscribes an address (double opt-in). `created` is true for a new opt-in (a new address, or
     * one that had unsubscribed), false when it was already waiting or subscribed.
     */
    async subscribe(rawEmail: string, opts: { source?: NewsletterSource; site?: string; clientIp?: string | null } = {}): Promise<{ created: boolean; status: NewsletterStatus }> {
      const email = normalise(rawEmail);
      const source = opts.source ?? 'home';
      const fromBox = source === 'home';
      if (fromBox && opts.clientIp) {
        await reserveAll(
          [
            [`newsletter-subscribe-ip:minute:${opts.clientIp}`, LIMITS.newsletterSubscribesPerAddressPerMinute],
            [`newsletter-subscribe-ip:hour:${opts.clientIp}`, LIMITS.newsletterSubscribesPerAddressPerHour],
          ],
          tooManySubscribes,
        );
      }
      const now = clock();
      const outcome = await db.transaction(async (tx) => {
        const inserted = await tx
          .insert(newsletterSubscriptions)
          .values({ email, source, status: 'pending', createdAt: now, updatedAt: now })
          .onConflictDoNothing({ target: newsletterSubscriptions.email })
          .returning({ id: newsletterSubscriptions.id });
        if (inserted.length > 0) {
          await record(tx, email, 'subscribed', source);
          return 'new' as const;
        }
        const back = await tx
          .update(newsletterSubscriptions)
          .set({ status: 'pending', source, confirmedAt: null, unsubscribedAt: null, updatedAt: now })
          .where(and(eq(newsletterSubscriptions.email, email), eq(newsletterSubscriptions.status, 'unsubscribed')))
          .returning({ id: newsletterSubscriptions.id });
        if (back.length > 0) {
          await record(tx, email, 'resubscribed', source);
          return 'new' as const;
        }
        const [row] = await tx.select({ status: newsletterSubscriptions.status }).from(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, email));
        return row!.status;
      });
      if (outcome === 'confirmed') {
        if (fromBox) await sendLimited(email, true, fromBox, () => sendAlreadySubscribedMail(email, opts.site));
        return { created: false, status: 'confirmed' };
      }
      await sendLimited(email, outcome === 'pending', fromBox, () => sendConfirmMail(email, opts.site));
      return { created: outcome === 'new', status: 'pending' };
    },

    /**
     * Follows a confirm link: marks the subscription confirmed and issues its welcome code once.
     * Idempotent: a second visit changes nothing and sends nothing. An invalid token, or one for an
     * address that has since unsubscribed, is `{ ok: false }`.
     */
    async confirm(token: string | null | undefined, opts: { site?: string } = {}): Promise<ConfirmOutcome> {
      const email = signer.verify('newsletter-confirm', token);
      if (!email) return { ok: false };
      const result = await db.transaction(async (tx) => {
        const [row] = await tx.select().from(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, email)).for('update');
        if (!row || row.status === 'unsubscribed') return null;
        if (row.status === 'confirmed') return { welcome: null };
        const now = clock();
        await tx.update(newsletterSubscriptions).set({ status: 'confirmed', confirmedAt: now, updatedAt: now }).where(eq(newsletterSubscriptions.id, row.id));
        await record(tx, email, 'confirmed', 'mail-link');
        if (row.welcomeCodeId !== null) {
          // Confirmed again after unsubscribing: the code issued the first time is the only one. It is
          // mailed again while it can still be used.
          const [code] = await tx
            .select({ code: promotionCodes.code, expiresAt: promotionCodes.expiresAt, redemptions: promotionCodes.redemptions, usageLimit: promotionCodes.usageLimit, percentOff: promotionsTable.percentOff })
            .from(promotionCodes)
            .innerJoin(promotionsTable, eq(promotionsTable.id, promotionCodes.promotionId))
            .where(eq(promotionCodes.id, row.welcomeCodeId));
          const usable = code?.expiresAt && code.expiresAt > now && code.redemptions < (code.usageLimit ?? 1) && code.percentOff;
          return { welcome: usable ? { code: code.code, expiresAt: code.expiresAt!, percentOff: code.percentOff! } : null };
        }
        const issued = await promotions.issueWelcomeCode(email, tx);
        const codeRow = await promotions.findCode(issued.code, tx);
        if (!codeRow) throw new Error('the welcome code just issued cannot be found');
        // The row lock makes this the only issue; the condition and the unique column would refuse a second anyway.
        const set = await tx
          .update(newsletterSubscriptions)
          .set({ welcomeCodeId: codeRow.id })
          .where(and(eq(newsletterSubscriptions.id, row.id), isNull(newsletterSubscriptions.welcomeCodeId)))
          .returning({ id: newsletterSubscriptions.id });
        if (set.length !== 1) throw new Error('the subscription already has a welcome code');
        return { welcome: issued };
      });
      if (!result) return { ok: false };
      if (!result.welcome) return { ok: true, email, welcomeMailed: false };
      try {
        await sendWelcomeMail(email, result.welcome, opts.site);
        return { ok: true, email, welcomeMailed: true };
      } catch (err) {
        log.error('newsletter welcome mail failed', { err, to: maskEmail(email) });
        return { ok: true, email, welcomeMailed: false };
      }
    },

    /** Follows an unsubscribe link (GET, or the mail client's one-click POST); false for an invalid token. */
    async unsubscribeByToken(token: string | null | undefined): Promise<boolean> {
      const email = signer.verify('newsletter-unsubscribe', token);
      if (!email) return false;
      await unsubscribe(email, 'mail-link');
      return true;
    },

    /** Unsubscribes the signed-in shopper's address (/settings); false when it was not subscribed. */
    async unsubscribeAccount(email: string): Promise<boolean> {
      return unsubscribe(normalise(email), 'settings');
    },

    /** The address's subscription status, or null when it never subscribed. */
    async statusOf(email: string): Promise<NewsletterStatus | null> {
      const [row] = await db
        .select({ status: newsletterSubscriptions.status })
        .from(newsletterSubscriptions)
        .where(eq(newsletterSubscriptions.email, normalise(email)));
      return row?.status ?? null;
    },

    /** The consent history of an address, oldest first (what was done, how, when). */
    async consentHistory(email: string) {
      return db
        .select({ action: newsletterConsentEvents.action, source: newsletterConsentEvents.source, createdAt: newsletterConsentEvents.createdAt })
        .from(newsletterConsentEvents)
        .where(eq(newsletterConsentEvents.email, normalise(email)))
        .orderBy(asc(newsletterConsentEvents.createdAt), asc(newsletterConsentEvents.id));
    },

    /** Back office: every subscriber as CSV (email, subscribed_at, status, source, confirmed_at, unsubscribed_at). */
    async exportCsv(): Promise<string> {
      const rows = await db.select().from(newsletterSubscriptions).orderBy(asc(newsletterSubscriptions.createdAt), asc(newsletterSubscriptions.id));
      const header = ['email', 'subscribed_at', 'status', 'source', 'confirmed_at', 'unsubscribed_at'];
      return csvLines([header, ...rows.map((r) => [r.email, r.createdAt.toISOString(), r.status, r.source, r.confirmedAt?.toISOString(), r.unsubscribedAt?.toISOString()])]);
    },
  };

  /** Marks an address unsubscribed (a consent event when it changed); false when it was not subscribed. */
  async function unsubscribe(email: string, source: ConsentSource): Promise<boolean> {
    return db.transaction(async (tx) => {
      const now = clock();
      const rows = await tx
        .update(newsletterSubscriptions)
        .set({ status: 'unsubscribed', unsubscribedAt: now, updatedAt: now })
        .where(and(eq(newsletterSubscriptions.email, email), ne(newsletterSubscriptions.status, 'unsubscribed')))
        .returning({ id: newsletterSubscriptions.id });
      if (rows.length === 0) return false;
      await record(tx, email, 'unsubscribed', source);
      return true;
    });
  }
}
export type NewsletterService = ReturnType<typeof createNewsletterService>;

/**
 * An account's deletion ends the newsletter subscription of its e-mail and forgets the consent
 * and its history (an address with no subscription gets no newsletter).
 */
export async function eraseSubscriptionOf(tx: Db | Tx, email: string): Promise<void> {
  await tx.delete(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, email));
  await tx.delete(newsletterConsentEvents).where(eq(newsletterConsentEvents.email, email));
}
