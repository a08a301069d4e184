import { STORE_NAME } from '@/lib/domain/brand';
import { Forbidden, RateLimited } from '@/lib/domain/errors';
import { fill } from '@/lib/domain/messages';
import { recentlyProved, SHOPPER_CONFIRM_FRESH_MS } from '@/lib/domain/privacy';
import type { CodeService } from '@/lib/server/accounts/codes';
import type { ActiveSession, SessionService } from '@/lib/server/accounts/sessions';
import type { FormResult } from '@/lib/server/infra/form-posts';
import { codeHtml, escapeHtml, mailHtml, type Mailer } from '@/lib/server/infra/mail';
import { describeWait, type Limit, type RateLimiter } from '@/lib/server/infra/rate-limit';
import type { DataExport } from './export';
import type { Erasure } from './erasure';

/** Downloads of one's data per account: enough to retry, not a way to load the database. */
export const DATA_DOWNLOADS_PER_DAY: Limit = { max: 5, windowSeconds: 24 * 60 * 60 };

/** The session must prove the e-mail with a code first; a new code was sent (or one is still waiting). */
export class CodeRequired extends Forbidden {
  constructor(email: string, sent: boolean) {
    super(fill(sent ? 'confirm-code-sent' : 'confirm-code-needed', email));
    Object.assign(this, { details: { confirmCode: true } });
  }
}

/**
 * The answer when a code is asked for (CodeRequired; anything else is thrown on): 403 with
 * `data.confirmCode` for scripts, and for a plain form the page `next` (with `params`) showing the
 * notice and the code field.
 */
export function askForCode(err: unknown, next: string, params: Record<string, string> = {}): FormResult {
  if (!(err instanceof CodeRequired)) throw err;
  return { body: { status: false, message: err.message, data: { confirmCode: true } }, status: 403, next, nextParams: params };
}

/**
 * The shopper's side of their data: "Download my data" and "Delete my account" on /settings, each
 * behind the e-mail code the store already uses (accounts/codes.ts, purpose `confirm`): a download
 * needs it when the session signed in more than a day ago, a deletion always.
 */
export function createPrivacyService(deps: {
  clock: () => Date;
  codes: CodeService;
  sessions: SessionService;
  limiter: RateLimiter;
  mailer: Mailer;
  dataExport: DataExport;
  erasure: Erasure;
}) {
  const { clock, codes, sessions, limiter, mailer } = deps;

  /** Mails a confirm code to the session's own e-mail (the send limits of every code apply). */
  async function sendCode(session: ActiveSession, ip: string | null): Promise<void> {
    const email = session.user.email;
    await codes.allowSend(email, 'confirm', ip);
    const code = await codes.issue(email, 'confirm');
    await mailer.send({
      to: email,
      subject: `Your ${STORE_NAME} confirmation code is ${code}`,
      text:
        `Your ${STORE_NAME} confirmation code is ${code}.\n\nHello ${session.user.firstName},\n\n` +
        `Enter this code to confirm it is you (a copy of your data, or your account's deletion). It expires in 10 minutes and can be used once.\n\n` +
        `If you did not ask for it, change your password: someone may be signed in to your account.\n\n${STORE_NAME}`,
      html: mailHtml(
        'Confirm it is you',
        `<p>Hello ${escapeHtml(session.user.firstName)},</p><p>Your confirmation code is:</p>` +
          codeHtml(code) +
          `<p>Enter it to confirm it is you (a copy of your data, or your account's deletion). It expires in 10 minutes and can be used once. If you did not ask for it, change your password.</p>`,
      ),
    });
  }

  /** Uses a code to prove the e-mail in this session (kept on the session: `recentlyProved`). */
  async function prove(session: ActiveSession, code: string): Promise<void> {
    await codes.consume(session.user.email, 'confirm', code);
    await sessions.confirmIdentity(session.tokenHash);
  }

  /**
   * Passes when the session proved the e-mail within `withinMs` (or proves it now with `code`);
   * otherwise sends a code (unless one is still waiting) and refuses with CodeRequired.
   */
  async function requireProof(session: ActiveSession, code: string | undefined, withinMs: number, ip: string | null): Promise<void> {
    if (code) return prove(session, code);
    if (recentlyProved(session, clock(), withinMs)) return;
    const waiting = await codes.hasUnusedCode(session.user.email, 'confirm');
    if (!waiting) await sendCode(session, ip);
    throw new CodeRequired(session.user.email, !waiting);
  }

  return {
    sendCode,
    requireProof,

    /** The shopper's own data, when the session is fresh or the code given is right; at most DATA_DOWNLOADS_PER_DAY a day. */
    async download(session: ActiveSession, code: string | undefined, ip: string | null) {
      await limiter.check(`data-download:${session.user.id}`, DATA_DOWNLOADS_PER_DAY, paused);
      await requireProof(session, code, SHOPPER_CONFIRM_FRESH_MS, ip);
      await limiter.consume(`data-download:${session.user.id}`, DATA_DOWNLOADS_PER_DAY, paused);
      return deps.dataExport.of(session.user.id);
    },

    /** Deletes the shopper's own account with the code just e-mailed (always asked, however fresh the session). */
    async deleteOwnAccount(session: ActiveSession, code: string, giveUpCredit: boolean): Promise<void> {
      // The blockers are told before a code is spent on a deletion that cannot happen yet.
      const { blockers, credit } = await deps.erasure.check(session.user.id);
      if (blockers.length === 0 && (credit.length === 0 || giveUpCredit)) await prove(session, code);
      await deps.erasure.erase(session.user.id, { giveUpCredit });
    },
  };
}
export type PrivacyService = ReturnType<typeof createPrivacyService>;

const paused = (seconds: number) => new RateLimited(fill('data-downloads-paused', describeWait(seconds)), seconds);
