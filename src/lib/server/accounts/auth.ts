import type { AstroCookies } from 'astro';
import { Forbidden, Unauthorized } from '@/lib/domain/errors';
import { localRedirectPath } from '@/lib/domain/redirects';
import { message } from '@/lib/domain/messages';
import { foundOr404, notAllowedPage, toResponse } from '@/lib/server/infra/error-pages';
import { SESSION_COOKIE, SESSION_TTL_DAYS, type ActiveSession, type SessionUser } from './sessions';

export type { SessionUser };

/** The signed-in shopper of this request; 401 when there is no valid session (with the message given). */
export function requireUser(locals: App.Locals, text?: string): SessionUser {
  const user = locals.session?.user;
  if (!user) throw new Unauthorized(text ?? message('session-expired'));
  return user;
}

/** The signed-in session of this request (who, since when, proved when); 401 without one. */
export function requireSession(locals: App.Locals): ActiveSession {
  const session = locals.session;
  if (!session) throw new Unauthorized(message('session-expired'));
  return session;
}

/**
 * Refuses (403) a user id in a path, query or body that is not the session's user.
 * A missing id means the caller relies on the session alone, so there is nothing to check.
 */
export function assertSameUser(user: SessionUser, userId: string | null | undefined): void {
  if (userId === undefined || userId === null) return;
  if (userId !== user.id) throw new Forbidden(message('own-account-only'));
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

// ---------------------------------------------------------------- back office

/** A staff sign-in that still needs its e-mailed code (step-up) before staff rights apply. */
export class StepUpRequired extends Forbidden {
  constructor() {
    super(message('staff-step-up-required'));
    Object.assign(this, { details: { stepUp: true } });
  }
}

/**
 * THE guard of the back office (every /admin page through staffPage, every /api/v1/admin
 * endpoint directly): 401 without a session, 403 for customers, for staff sessions not yet
 * confirmed (step-up) and, with `owner`, for staff who are not owners.
 */
export function requireStaff(locals: App.Locals, opts: { owner?: boolean; pages?: boolean } = {}): SessionUser {
  const session = locals.session;
  if (!session) throw new Unauthorized(message('session-expired'));
  const role = session.user.role;
  if (role === 'customer') throw new Forbidden(message('staff-only'));
  if (!session.staffVerified) throw new StepUpRequired();
  // Editors sign in as staff do, and reach the content pages only (`pages`).
  if (role === 'editor' && !opts.pages) throw new Forbidden(message('editors-pages-only'));
  if (opts.owner && role !== 'owner') throw new Forbidden(message('owner-only'));
  return session.user;
}

/** THE guard of the content pages' editor: editors, staff and owners. */
export const requirePageEditor = (locals: App.Locals): SessionUser => requireStaff(locals, { pages: true });

/** What a page's guard needs of Astro (pass `Astro`). */
type PageContext = { locals: App.Locals; url: URL; redirect: (path: string, status?: 301 | 302 | 303 | 307 | 308) => Response };

/** A guard's verdict: the signed-in user, or the response the page returns instead of rendering. */
type PageGuard = { user: SessionUser; response?: undefined } | { user?: undefined; response: Response };

/**
 * `page` (a local path) with this page as its `?next=`, judged by the one redirect judge, so that
 * signing in (or confirming a browser) brings the visitor back here.
 */
function sendOn(ctx: PageContext, page: string): Response {
  const here = localRedirectPath(ctx.url.pathname + ctx.url.search, ctx.locals.publicOrigin) ?? '/';
  return ctx.redirect(`${page}?next=${encodeURIComponent(here)}`, 302);
}

/**
 * THE guard of shopper pages (profile, cart, orders, addresses…): a visitor without a session
 * goes to /login?next=<this page>, and lands back here after signing in.
 */
export function shopperPage(ctx: PageContext): PageGuard {
  const user = ctx.locals.session?.user;
  return user ? { user } : { response: sendOn(ctx, '/login') };
}

/** The back office's guard for pages: anonymous visitors go to /login?next=…, unconfirmed staff to the code page, others get 403. */
export function staffPage(ctx: PageContext, opts: { owner?: boolean; pages?: boolean } = {}): PageGuard {
  try {
    return { user: requireStaff(ctx.locals, opts) };
  } catch (err) {
    if (err instanceof Unauthorized) return { response: sendOn(ctx, '/login') };
    if (err instanceof StepUpRequired) return { response: sendOn(ctx, '/login/verify-device') };
    // The back office's front door takes an editor to the one part open to them.
    if (ctx.locals.session?.user.role === 'editor' && ctx.url.pathname.replace(/\/$/, '') === '/admin') return { response: ctx.redirect('/admin/pages', 302) };
    return { response: toResponse(notAllowedPage(err instanceof Error ? err.message : 'Not allowed')) };
  }
}

/**
 * A back-office page about one record (an order, a customer): the staff guard first, then the record
 * loaded from the services, or the 404 page with `notFound` when there is no such record.
 */
export async function staffRecordPage<T>(
  ctx: PageContext,
  load: (services: App.Locals['services']) => Promise<T>,
  notFound: string,
): Promise<{ record: T; response?: undefined } | { record?: undefined; response: Response }> {
  const guard = staffPage(ctx);
  if (guard.response) return guard;
  const record = await foundOr404(() => load(ctx.locals.services), notFound);
  return record instanceof Response ? { response: record } : { record };
}

/** The known-browser cookie of staff (see staff.ts): HttpOnly, long-lived. */
export function setDeviceCookie(cookies: AstroCookies, name: string, deviceId: string, secure: boolean, days: number): void {
  cookies.set(name, deviceId, { httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge: days * 86_400 });
}

/** The audit log's "who" for a staff user. */
export const asActor = (user: SessionUser) => ({ id: user.id, email: user.email });
