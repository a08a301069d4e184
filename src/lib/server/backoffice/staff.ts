import { createHash, randomBytes } from 'node:crypto';
import { maskEmail } from '@/lib/domain/gift-returns';
import { and, asc, eq, ne } from 'drizzle-orm';
import { STORE_NAME } from '@/lib/domain/brand';
import { Conflict, Invalid, NotFound, RateLimited } from '@/lib/domain/errors';
import { fill, message } from '@/lib/domain/messages';
import type { Actor, AuditLog } from './audit';
import type { CodeService } from '@/lib/server/accounts/codes';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { users } from '@/lib/server/accounts/tables';
import { staffDevices } from '@/lib/server/backoffice/tables';
import type { Logger } from '@/lib/server/infra/log';
import { escapeHtml, mailHtml, type Mailer } from '@/lib/server/infra/mail';
import type { SessionService, SessionUser } from '@/lib/server/accounts/sessions';
import type { Role } from '@/lib/domain/account-rules';

export type { Role };
export const STAFF_ROLES = ['staff', 'owner', 'editor'] as const;
/** The roles that sign in to the back office (an editor to its pages only), each browser confirmed with a code. */
export const isStaffRole = (role: string): role is (typeof STAFF_ROLES)[number] => (STAFF_ROLES as readonly string[]).includes(role);

/** Long-lived HttpOnly cookie naming a browser a staff user has confirmed with an e-mailed code. */
export const DEVICE_COOKIE = 'ml_staff_device';
export const DEVICE_COOKIE_DAYS = 400;

const hashDevice = (id: string) => createHash('sha256').update(id).digest('hex');

export const LAST_OWNER_MESSAGE = message('last-owner');

/**
 * Staff access: roles (grant, revoke) and the step-up for staff sign-ins. A staff or owner
 * session only becomes staff-capable (sessions.staff_verified_at) when the browser shows a known
 * device cookie at login, or after the e-mailed code is entered on /login/verify-device.
 * Owns users.role and the staff_devices table.
 */
export function createStaffService(deps: {
  db: Db;
  clock: () => Date;
  log: Logger;
  mailer: Mailer;
  codes: CodeService;
  sessions: SessionService;
  audit: AuditLog;
}) {
  const { db, clock, log, mailer, codes, sessions, audit } = deps;

  async function byEmail(email: string): Promise<SessionUser> {
    const [u] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
    if (!u) throw new NotFound(fill('no-account-for', email));
    return u;
  }

  /**
   * The resend limits hold only while an unused code is out: within them a sign-in from a new
   * browser reuses it (it is still good). Once it was used (or has expired) a sign-in always
   * gets a new one, or a staff member signing in twice within a minute could not get in.
   */
  async function sendDeviceCode(user: SessionUser, ip: string | null): Promise<void> {
    const unused = await codes.hasUnusedCode(user.email, 'staff-device');
    try {
      // Every send is counted, so the limits know of it when the next code is asked for.
      await codes.allowSend(user.email, 'staff-device', ip);
    } catch (err) {
      if (!(err instanceof RateLimited)) throw err;
      // A code went out moments ago and was not used yet: that one is still good.
      if (unused) return;
    }
    const code = await codes.issue(user.email, 'staff-device');
    try {
      await mailer.send({
        to: user.email,
        subject: `Your ${STORE_NAME} staff sign-in code is ${code}`,
        text: `Your ${STORE_NAME} staff sign-in code is ${code}.\n\nHello ${user.firstName},\n\nSomeone (hopefully you) signed in to the back office from a browser we have not seen before. Enter this code to confirm it. It expires in 10 minutes.\n\nIf this was not you, change your password now.\n\n${STORE_NAME}`,
        html: mailHtml(
          'Confirm this browser',
          `<p>Hello ${escapeHtml(user.firstName)},</p><p>Someone (hopefully you) signed in to the back office from a browser we have not seen before. Your code is:</p><p style="font-size:32px;letter-spacing:10px;font-weight:bold;margin:16px 0">${code}</p><p>It expires in 10 minutes. If this was not you, change your password now.</p>`,
        ),
      });
    } catch (err) {
      log.error('staff device code mail failed', { err, to: maskEmail(user.email) });
    }
  }

  /**
   * Inside a role change's transaction: locks every owner's row (in id order, so two changes
   * cannot deadlock) and the account's own, and refuses to take the owner role from the last
   * owner. Two owners demoting each other at once are served one after the other: the second
   * finds a single owner left and is refused. Returns the account as it is now.
   */
  async function lockedForRoleChange(tx: Tx, userId: string, to: Role): Promise<SessionUser> {
    const owners = await tx.select({ id: users.id }).from(users).where(eq(users.role, 'owner')).orderBy(asc(users.id)).for('update');
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!user) throw new NotFound(message('no-such-account'));
    if (user.role === 'owner' && to !== 'owner' && owners.every((o) => o.id === user.id)) throw new Conflict(LAST_OWNER_MESSAGE);
    return user;
  }

  return {
    /**
     * After a successful password check: customers are done; staff from a known browser are
     * confirmed at once; otherwise an e-mail code is sent and the session waits for it.
     */
    async afterLogin(input: { user: { id: string }; tokenHash: string; deviceId: string | undefined; ip: string | null }): Promise<{ stepUp: boolean }> {
      const [user] = await db.select().from(users).where(eq(users.id, input.user.id)).limit(1);
      if (!user || !isStaffRole(user.role)) return { stepUp: false };
      if (input.deviceId && input.deviceId.length <= 200) {
        const [known] = await db
          .update(staffDevices)
          .set({ lastSeenAt: clock() })
          .where(and(eq(staffDevices.deviceHash, hashDevice(input.deviceId)), eq(staffDevices.userId, user.id)))
          .returning({ hash: staffDevices.deviceHash });
        if (known) {
          await sessions.confirmStaff(input.tokenHash);
          return { stepUp: false };
        }
      }
      await sendDeviceCode(user, input.ip);
      return { stepUp: true };
    },

    /** Checks the e-mailed code, confirms the session and remembers the browser; returns the new device id for its cookie. */
    async confirmDevice(user: SessionUser, tokenHash: string, code: string): Promise<{ deviceId: string }> {
      if (!isStaffRole(user.role)) throw new Invalid(message('no-back-office-access'));
      await codes.consume(user.email, 'staff-device', code);
      await sessions.confirmStaff(tokenHash);
      const deviceId = randomBytes(32).toString('base64url');
      await db.insert(staffDevices).values({ deviceHash: hashDevice(deviceId), userId: user.id, createdAt: clock(), lastSeenAt: clock() });
      return { deviceId };
    },

    async resendDeviceCode(user: SessionUser, ip: string | null): Promise<void> {
      if (!isStaffRole(user.role)) throw new Invalid(message('no-back-office-access'));
      await codes.allowSend(user.email, 'staff-device', ip);
      const code = await codes.issue(user.email, 'staff-device');
      await mailer.send({
        to: user.email,
        subject: `Your ${STORE_NAME} staff sign-in code is ${code}`,
        text: `Your ${STORE_NAME} staff sign-in code is ${code}.\n\nIt expires in 10 minutes.\n\n${STORE_NAME}`,
        html: mailHtml('Confirm this browser', `<p>Your code is:</p><p style="font-size:32px;letter-spacing:10px;font-weight:bold">${code}</p>`),
      });
    },

    /** Gives an account the staff, owner or editor role (the staff command, or an owner in the back office). */
    async grant(actor: Actor, email: string, role: (typeof STAFF_ROLES)[number]): Promise<{ email: string; from: Role; to: Role }> {
      const { id } = await byEmail(email);
      return db.transaction(async (tx) => {
        const user = await lockedForRoleChange(tx, id, role);
        if (!user.verifiedAt) throw new Invalid(message('verify-email-first'));
        await tx.update(users).set({ role }).where(eq(users.id, user.id));
        await audit.record(actor, { action: 'staff.grant', entity: 'user', entityId: user.id, details: { email: user.email, before: user.role, after: role } }, tx);
        return { email: user.email, from: user.role, to: role };
      });
    },

    /** Back to customer: staff confirmation ends on every session and known browsers are forgotten. */
    async revoke(actor: Actor, email: string): Promise<{ email: string; from: Role; to: Role }> {
      const { id } = await byEmail(email);
      const user = await db.transaction(async (tx) => {
        const locked = await lockedForRoleChange(tx, id, 'customer');
        await tx.update(users).set({ role: 'customer' }).where(eq(users.id, locked.id));
        await tx.delete(staffDevices).where(eq(staffDevices.userId, locked.id));
        await audit.record(actor, { action: 'staff.revoke', entity: 'user', entityId: locked.id, details: { email: locked.email, before: locked.role, after: 'customer' } }, tx);
        return locked;
      });
      await sessions.dropStaff(user.id);
      return { email: user.email, from: user.role, to: 'customer' };
    },

    async list(): Promise<{ id: string; email: string; name: string; role: Role }[]> {
      const rows = await db
        .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, role: users.role })
        .from(users)
        .where(ne(users.role, 'customer'))
        .orderBy(asc(users.email));
      return rows.map((r) => ({ id: r.id, email: r.email, name: `${r.firstName} ${r.lastName}`, role: r.role }));
    },
  };
}
export type StaffService = ReturnType<typeof createStaffService>;

/** An account's deletion forgets the browsers it confirmed. */
export async function eraseDevicesOf(tx: Db | Tx, userId: string): Promise<void> {
  await tx.delete(staffDevices).where(eq(staffDevices.userId, userId));
}
