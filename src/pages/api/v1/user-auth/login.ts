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
  const next = stepUp ? `/login/verify-device?next=${encodeURIComponent(wanted ?? '/admin')}` : (wanted ?? '/');
  return { body: { status: true, statusCode: 200, message: stepUp ? message('device-code-sent') : message('logged-in'), data: { token, user, next, stepUp } }, next };
});
