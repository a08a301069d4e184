import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lt, ne } from 'drizzle-orm';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import type { ReadMemo } from '@/lib/server/infra/read-memo';
import { sessions, users } from '@/lib/server/accounts/tables';

export const SESSION_COOKIE = 'ml_session';
export const SESSION_TTL_DAYS = 30;

export type SessionUser = typeof users.$inferSelect;
export interface ActiveSession {
  user: SessionUser;
  tokenHash: string;
  /** A staff sign-in confirmed from a known browser or with an e-mailed code (back office step-up). */
  staffVerified: boolean;
  /** When the session signed in, and when its holder last proved the e-mail with a code in it. */
  createdAt: Date;
  confirmedAt: Date | null;
}

/** Shown sessions kept per app server, and for how long at most (an invalidation missed, an expiry). */
const SHOWN_SESSIONS_KEPT = 20_000;
const SHOWN_SESSION_MS = 10_000;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Tags of the shown sessions kept in memory: one per session, one per user (all their sessions). */
export const sessionTags = {
  session: (tokenHash: string) => `session:${tokenHash}`,
  user: (userId: string) => `user:${userId}`,
} as const;

/**
 * Opaque session tokens (256 bits), stored only as their hash.
 *
 * `shown` (for the catalogue pages a signed-in shopper reads, and nothing else) is memoised for a
 * few seconds: the name and cart count in a shared page's header. Ending a session or changing
 * what a page shows of the user forgets it on every app server (`forget`, through the cache bus);
 * every other request, and every form post, reads the session from the database.
 */
export function createSessionService({
  db,
  clock,
  memo,
  invalidate = async (tags) => memo?.invalidate(tags),
}: {
  db: Db;
  clock: () => Date;
  memo?: ReadMemo;
  /** Drops tagged memo entries on every app server, this one included (services.pageCache.invalidate). */
  invalidate?: (tags: string[]) => Promise<void>;
}) {
  const shownSessions = memo?.shelf(SHOWN_SESSIONS_KEPT, SHOWN_SESSION_MS);
  // Should the bus fail, other servers' copies go within SHOWN_SESSION_MS anyway.
  const forget = (tags: string[]) => invalidate(tags).catch(() => undefined);

  async function resolve(token: string | undefined | null): Promise<ActiveSession | null> {
    if (!token || token.length > 200) return null;
    const tokenHash = hashToken(token);
    const rows = await db
      .select({ user: users, staffVerifiedAt: sessions.staffVerifiedAt, createdAt: sessions.createdAt, confirmedAt: sessions.confirmedAt })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, clock())))
      .limit(1);
    const row = rows[0];
    return row ? { user: row.user, tokenHash, staffVerified: row.staffVerifiedAt !== null, createdAt: row.createdAt, confirmedAt: row.confirmedAt } : null;
  }

  return {
    async create(userId: string): Promise<{ token: string; expiresAt: Date }> {
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(clock().getTime() + SESSION_TTL_DAYS * 86_400_000);
      await db.insert(sessions).values({ tokenHash: hashToken(token), userId, expiresAt });
      return { token, expiresAt };
    },

    resolve,

    /**
     * The session as a shared catalogue page shows it (name, country, cart): kept a few seconds.
     * Never for a post, an account page or the API: they call resolve().
     */
    async shown(token: string | undefined | null): Promise<ActiveSession | null> {
      if (!shownSessions || !token || token.length > 200) return resolve(token);
      // No session (a stale cookie) is kept too: one read per few seconds, not one per page.
      return shownSessions.get(`shown:${hashToken(token)}`, () => resolve(token), (s) =>
        s ? [sessionTags.session(s.tokenHash), sessionTags.user(s.user.id)] : [sessionTags.session(hashToken(token))],
      );
    },

    /** Forgets the user's shown sessions (their name, picture or country changed), on every app server. */
    forgetUser(userId: string): Promise<void> {
      return forget([sessionTags.user(userId)]);
    },

    /** Marks a session as confirmed for staff work (step-up done). */
    async confirmStaff(tokenHash: string): Promise<void> {
      await db.update(sessions).set({ staffVerifiedAt: clock() }).where(eq(sessions.tokenHash, tokenHash));
    },

    /** Records that the session's holder just proved the account's e-mail with a code. */
    async confirmIdentity(tokenHash: string): Promise<void> {
      await db.update(sessions).set({ confirmedAt: clock() }).where(eq(sessions.tokenHash, tokenHash));
    },

    /** Drops staff confirmation from every session of a user (role revoked). */
    async dropStaff(userId: string): Promise<void> {
      await db.update(sessions).set({ staffVerifiedAt: null }).where(eq(sessions.userId, userId));
    },

    async revoke(tokenHash: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
      await forget([sessionTags.session(tokenHash)]);
    },

    /** Ends every session of the user except the one given (password change/reset). */
    async revokeOthers(userId: string, keepTokenHash?: string): Promise<void> {
      await db
        .delete(sessions)
        .where(keepTokenHash ? and(eq(sessions.userId, userId), ne(sessions.tokenHash, keepTokenHash)) : eq(sessions.userId, userId));
      await forget([sessionTags.user(userId)]);
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

/** An account's deletion ends all its sessions (the shown ones are forgotten by the caller, after the commit). */
export async function endSessionsOf(tx: Db | Tx, userId: string): Promise<void> {
  await tx.delete(sessions).where(eq(sessions.userId, userId));
}
