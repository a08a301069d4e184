import { loginSchema } from '../../../../lib/domain/accounts';
import { clientIp, setSessionCookie } from '../../../../lib/server/auth';
import { formEndpoint, readInput } from '../../../../lib/server/form-posts';

/** Returns the token for API clients and sets it as an HttpOnly cookie for the web client. */
export const POST = formEndpoint(async (ctx) => {
  const { email, password } = await readInput(ctx.request, loginSchema);
  const { services } = ctx.locals;
  const { token, user } = await services.accounts.login(email, password, clientIp(ctx));
  setSessionCookie(ctx.cookies, token, services.config.secureCookies);
  return { body: { status: true, statusCode: 200, message: 'Login successful!', data: { token, user } }, next: '/' };
});
