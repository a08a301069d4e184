import type { APIContext } from 'astro';
import { STAFF_CONFIRM_FRESH_MS } from '@/lib/domain/privacy';
import { clientIp, requireStaff } from '@/lib/server/accounts/auth';
import type { SessionUser } from '@/lib/server/accounts/sessions';

/**
 * The step-up of staff answering a data request: the back office's guard, then the staff member's
 * own e-mail proved with a code within STAFF_CONFIRM_FRESH_MS (signing in does not count, however
 * recent). Without it a code is mailed and the action refused (CodeRequired).
 */
export async function requireStaffProof(ctx: APIContext, code: string | undefined): Promise<SessionUser> {
  const user = requireStaff(ctx.locals);
  const session = ctx.locals.session!;
  await ctx.locals.services.privacy.requireProof({ ...session, createdAt: new Date(0) }, code, STAFF_CONFIRM_FRESH_MS, clientIp(ctx));
  return user;
}
