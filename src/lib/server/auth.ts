import type { AstroCookies } from 'astro';
import { STORE_NAME } from '../domain/brand';
import { Forbidden, Unauthorized } from '../domain/errors';
import { SESSION_COOKIE, SESSION_TTL_DAYS, type SessionUser } from './sessions';

export type { SessionUser };

/** The signed-in shopper of this request; 401 when there is no valid session (with the message given). */
export function requireUser(locals: App.Locals, message?: string): SessionUser {
  const user = locals.session?.user;
  if (!user) throw new Unauthorized(message);
  return user;
}

/**
 * Refuses (403) a user id in a path, query or body that is not the session's user.
 * A missing id means the caller relies on the session alone, so there is nothing to check.
 */
export function assertSameUser(user: SessionUser, userId: string | null | undefined): void {
  if (userId === undefined || userId === null) return;
  if (userId !== user.id) throw new Forbidden('You can only access your own account');
}

/** The caller's address for per-IP limits (the server works it out with TRUST_PROXY); null where nothing can tell. */
export function clientIp(ctx: { clientAddress: string; locals: App.Locals }): string | null {
  if (ctx.locals.clientIp !== undefined) return ctx.locals.clientIp;
  try {
    return ctx.clientAddress || null;
  } catch {
    return null;
  }
}

/** The session cookie: HttpOnly, SameSite=Lax, Secure on an https site, lives as long as the session. */
export function setSessionCookie(cookies: AstroCookies, token: string, secure: boolean): void {
  cookies.set(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure,
    maxAge: SESSION_TTL_DAYS * 86_400,
  });
}

export function clearSessionCookie(cookies: AstroCookies, secure: boolean): void {
  cookies.delete(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });
}

// ---------------------------------------------------------------- back office (issue 10)

/** A staff sign-in that still needs its e-mailed code (step-up) before staff rights apply. */
export class StepUpRequired extends Forbidden {
  constructor() {
    super('Confirm this browser with the code we e-mailed you before using the back office');
    Object.assign(this, { details: { stepUp: true } });
  }
}

/**
 * THE guard of the back office (every /admin page through staffPage, every /api/v1/admin
 * endpoint directly): 401 without a session, 403 for customers, for staff sessions not yet
 * confirmed (step-up) and, with `owner`, for staff who are not owners.
 */
export function requireStaff(locals: App.Locals, opts: { owner?: boolean } = {}): SessionUser {
  const session = locals.session;
  if (!session) throw new Unauthorized();
  const role = session.user.role;
  if (role !== 'staff' && role !== 'owner') throw new Forbidden('This page is for store staff');
  if (!session.staffVerified) throw new StepUpRequired();
  if (opts.owner && role !== 'owner') throw new Forbidden('Only an owner can do that');
  return session.user;
}

/** The same guard for pages: anonymous visitors go to /login?next=…, unconfirmed staff to the code page, others get 403. */
export function staffPage(
  ctx: { locals: App.Locals; url: URL; redirect: (path: string, status?: 301 | 302 | 303 | 307 | 308) => Response },
  opts: { owner?: boolean } = {},
): { user: SessionUser; response?: undefined } | { user?: undefined; response: Response } {
  try {
    return { user: requireStaff(ctx.locals, opts) };
  } catch (err) {
    const next = encodeURIComponent(ctx.url.pathname + ctx.url.search);
    if (err instanceof Unauthorized) return { response: ctx.redirect(`/login?next=${next}`, 302) };
    if (err instanceof StepUpRequired) return { response: ctx.redirect(`/login/verify-device?next=${next}`, 302) };
    const message = err instanceof Error ? err.message : 'Not allowed';
    return {
      response: new Response(
        `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Not allowed · ${STORE_NAME}</title><body style="font-family:Georgia,serif;background:#faf7f2;color:#16130e;padding:48px 20px;text-align:center"><h1>Not allowed</h1><p>${message}.</p><p><a href="/" style="color:#16130e">Back to the store</a></p></body></html>`,
        { status: 403, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } },
      ),
    };
  }
}

/** The known-browser cookie of staff (see staff.ts): HttpOnly, long-lived. */
export function setDeviceCookie(cookies: AstroCookies, name: string, deviceId: string, secure: boolean, days: number): void {
  cookies.set(name, deviceId, { httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge: days * 86_400 });
}

/** The audit log's "who" for a staff user. */
export const asActor = (user: SessionUser) => ({ id: user.id, email: user.email });
