import type { AstroCookies } from 'astro';
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
