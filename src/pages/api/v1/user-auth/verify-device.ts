import { z } from 'zod';
import { isHttpsOrigin } from '@/lib/domain/public-origin';
import { otpSchema } from '@/lib/domain/accounts';
import { Unauthorized } from '@/lib/domain/errors';
import { localRedirectPath } from '@/lib/domain/redirects';
import { requireUser, setDeviceCookie } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { DEVICE_COOKIE, DEVICE_COOKIE_DAYS } from '@/lib/server/backoffice/staff';
import { message } from '@/lib/domain/messages';

/** Step-up of a staff sign-in: the e-mailed code confirms this session and remembers the browser. */
export const POST = formEndpoint(async (ctx) => {
  const user = requireUser(ctx.locals);
  const session = ctx.locals.session;
  if (!session) throw new Unauthorized(message('session-expired'));
  const { code } = await readInput(ctx.request, z.object({ code: otpSchema }));
  const { services } = ctx.locals;
  const { deviceId } = await services.staff.confirmDevice(user, session.tokenHash, code);
  setDeviceCookie(ctx.cookies, DEVICE_COOKIE, deviceId, isHttpsOrigin(ctx.locals.publicOrigin), DEVICE_COOKIE_DAYS);
  const next = localRedirectPath(ctx.url.searchParams.get('next'), ctx.locals.publicOrigin) ?? '/admin';
  return { body: { status: true, message: message('device-confirmed'), data: { next } }, next };
});
