import { isHttpsOrigin } from '@/lib/domain/public-origin';
import { clearSessionCookie } from '@/lib/server/accounts/auth';
import { endpoint, json } from '@/lib/server/infra/http';

/** Ends this session. Answers success without a session too, so a stale tab can always log out. */
export const POST = endpoint(async ({ locals, cookies, request }) => {
  if (locals.session) await locals.services.accounts.logout(locals.session.tokenHash);
  clearSessionCookie(cookies, isHttpsOrigin(locals.publicOrigin));
  // A plain form post (before scripts load) gets a page, not JSON.
  const accept = request.headers.get('accept') ?? '';
  if (accept.includes('text/html') && !accept.includes('application/json')) {
    return new Response(null, { status: 303, headers: { location: '/' } });
  }
  return json({ status: true, statusCode: 200, message: 'Logged out successfully' });
});
