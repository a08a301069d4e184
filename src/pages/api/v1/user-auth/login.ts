import { isHttpsOrigin } from '@/lib/domain/public-origin';
import { loginSchema } from '@/lib/domain/accounts';
import { localRedirectPath } from '@/lib/domain/redirects';
import { clientIp, setSessionCookie } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { hashToken } from '@/lib/server/accounts/sessions';
import { DEVICE_COOKIE } from '@/lib/server/backoffice/staff';
import { message } from '@/lib/domain/messages';

/**
 * Returns the token for API clients and sets it as an HttpOnly cookie for the web client.
 * A staff sign-in from a browser not seen before is sent to /login/verify-device for its e-mailed code.
 */
export const POST = formEndpoint(async (ctx) => {
  const { email, password } = await readInput(ctx.request, loginSchema);
  const { services } = ctx.locals;
  const ip = clientIp(ctx);
  const { token, user } = await services.accounts.login(email, password, ip);
  setSessionCookie(ctx.cookies, token, isHttpsOrigin(ctx.locals.publicOrigin));
  const { stepUp } = await services.staff.afterLogin({ user, tokenHash: hashToken(token), deviceId: ctx.cookies.get(DEVICE_COOKIE)?.value, ip });
  const wanted = localRedirectPath(ctx.url.searchParams.get('next'), ctx.locals.publicOrigin);
  if (stepUp) {
    const next = `/login/verify-device?next=${encodeURIComponent(wanted ?? '/admin')}`;
    return { body: { status: true, statusCode: 200, message: message('device-code-sent'), data: { token, user, next, stepUp } }, next };
  }
  // What the shopper reached for before signing in (a piece for the bag, a heart): done now, and back to it.
  const session = await services.sessions.shown(token);
  const after = session ? await services.afterSignIn.done(ctx, session.user, ctx.locals.market) : null;
  if (after) {
    // The page says what was done (the island's toast stays the sign-in's own).
    const url = new URL(after.next, ctx.locals.publicOrigin);
    url.searchParams.delete('error');
    url.searchParams.set('notice', after.notice);
    const next = url.pathname + url.search;
    return { body: { status: true, statusCode: 200, message: message('logged-in'), data: { token, user, next, stepUp } }, location: next };
  }
  const next = wanted ?? '/';
  return { body: { status: true, statusCode: 200, message: message('logged-in'), data: { token, user, next, stepUp } }, next };
});
