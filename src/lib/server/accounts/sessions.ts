import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lt, ne } from 'drizzle-orm';
import type { Db } from '@/lib/server/infra/db/client';
import { sessions, users } from '@/lib/server/infra/db/schema';

export const SESSION_COOKIE = 'ml_session';
export const SESSION_TTL_DAYS = 30;

export type SessionUser = typeof users.$inferSelect;
export interface ActiveSession {
  user: SessionUser;
  tokenHash: string;
  /** A staff sign-in confirmed from a known browser or with an e-mailed code (back office step-up). */
  staffVerified: boolean;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Opaque session tokens (256 bits), stored only as their hash. */
export function createSessionService({ db, clock }: { db: Db; clock: () => Date }) {
  return {
    async create(userId: string): Promise<{ token: string; expiresAt: Date }> {
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(clock().getTime() + SESSION_TTL_DAYS * 86_400_000);
      await db.insert(sessions).values({ tokenHash: hashToken(token), userId, expiresAt });
      return { token, expiresAt };
    },

    async resolve(token: string | undefined | null): Promise<ActiveSession | null> {
      if (!token || token.length > 200) return null;
      const tokenHash = hashToken(token);
      const rows = await db
        .select({ user: users, staffVerifiedAt: sessions.staffVerifiedAt })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, clock())))
        .limit(1);
      const row = rows[0];
      return row ? { user: row.user, tokenHash, staffVerified: row.staffVerifiedAt !== null } : null;
    },

    /** Marks a session as confirmed for staff work (step-up done). */
    async confirmStaff(tokenHash: string): Promise<void> {
      await db.update(sessions).set({ staffVerifiedAt: clock() }).where(eq(sessions.tokenHash, tokenHash));
    },

    /** Drops staff confirmation from every session of a user (role revoked). */
    async dropStaff(userId: string): Promise<void> {
      await db.update(sessions).set({ staffVerifiedAt: null }).where(eq(sessions.userId, userId));
    },

    async revoke(tokenHash: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    },

    /** Ends every session of the user except the one given (password change/reset). */
    async revokeOthers(userId: string, keepTokenHash?: string): Promise<void> {
      await db
        .delete(sessions)
        .where(keepTokenHash ? and(eq(sessions.userId, userId), ne(sessions.tokenHash, keepTokenHash)) : eq(sessions.userId, userId));
    },

    /** Deletes expired sessions (housekeeping); returns how many. */
    async purgeExpired(): Promise<number> {
      const gone = await db.delete(sessions).where(lt(sessions.expiresAt, clock())).returning({ tokenHash: sessions.tokenHash });
      return gone.length;
    },
  };
}
export type SessionService = ReturnType<typeof createSessionService>;

/** Reads the bearer token or the session cookie from a request. */
export function tokenFromRequest(request: Request, cookieValue: string | undefined): string | undefined {
  const auth = request.headers.get('authorization');
  if (auth?.toLowerCase().startsWith('bearer ')) return auth.slice(7).trim() || undefined;
  return cookieValue;
}
