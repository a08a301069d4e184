import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { getConfig } from '@/lib/server/infra/config';
import { createBoundedQueue } from '@/lib/server/infra/work-queue';

/**
 * scrypt with r=8, p=1 and N=2^SCRYPT_LOG2_N (OWASP's 2^17 unless set lower, which only test
 * stores do). Stored as scrypt$N$r$p$salt$hash: a hash is checked at the cost it was made with.
 */
const currentLog2N = () => getConfig().SCRYPT_LOG2_N;
const r = 8;
const p = 1;
const KEYLEN = 32;

/**
 * Which share of the hashing a job gets: sign-ins (login) first, then everything else
 * (sign-up, password reset and change), which may only use one of the two slots.
 */
export type PasswordLane = 'sign-in' | 'account';

/**
 * Every scrypt job (128 MiB and ~100 ms of a core each) goes through one bounded queue per
 * process: at most 2 at once, at most 32 waiting per lane, anything more is refused at once
 * with 503. A flood then cannot take every libuv thread (which compression and file reads
 * share) or exhaust memory, and catalogue requests keep being served. Sign-ins have a slot of
 * their own: a sign-up flood keeps at most one hash running, so a login waits at most for the
 * other sign-ins ahead of it, never for the flood.
 */
export const PASSWORD_QUEUE_BOUNDS = {
  concurrency: 2,
  lanes: { 'sign-in': { maxWaiting: 32 }, account: { maxWaiting: 32, maxRunning: 1 } },
} as const;
export const passwordQueue = createBoundedQueue<PasswordLane>(PASSWORD_QUEUE_BOUNDS);

function scrypt(password: string, salt: Buffer, keylen: number, opts: ScryptOptions, lane: PasswordLane): Promise<Buffer> {
  return passwordQueue.run(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scryptCb(password.normalize('NFKC'), salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))),
      ),
    lane,
  );
}

const maxmem = (n: number, rr: number) => 128 * n * rr * 2;

/** `log2N`: the cost for this hash; the store's setting unless a caller measures another. */
export async function hashPassword(password: string, log2N = currentLog2N()): Promise<string> {
  const N = 2 ** log2N;
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEYLEN, { N, r, p, maxmem: maxmem(N, r) }, 'account');
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** `lane`: 'sign-in' for a login, 'account' for a check inside a signed-in account (password change). */
export async function verifyPassword(password: string, stored: string, lane: PasswordLane): Promise<boolean> {
  const [scheme, n, rr, pp, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !rr || !pp || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(rr),
    p: Number(pp),
    maxmem: maxmem(Number(n), Number(rr)),
  }, lane);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A well-formed hash at the current cost that no password matches (its key is random). */
let dummyHash: string | undefined;
const dummyHashNow = () =>
  (dummyHash ??= ['scrypt', 2 ** currentLog2N(), r, p, randomBytes(16).toString('base64'), randomBytes(KEYLEN).toString('base64')].join('$'));

/** Spends the same time as a real login check, so an unknown e-mail is not told apart from a wrong password. */
export async function burnPasswordCheck(password: string): Promise<void> {
  await verifyPassword(password, dummyHashNow(), 'sign-in');
}
