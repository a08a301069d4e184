/** Structured JSON-lines logging. One line per event; the request id ties lines together. */
type Level = 'debug' | 'info' | 'warn' | 'error';
const order: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

/**
 * Secrets are never logged. Fields with a secret's name (passwords, one-time codes, tokens,
 * keys, cookies, signatures) are replaced at any depth, and strings lose URL credentials and
 * bearer tokens. Mail subjects and bodies are not logged at all (mail.ts), since they carry codes.
 */
export const REDACTED = '[redacted]';
const SECRET_NAMES = new Set([
  'otp',
  'pin',
  'codehash',
  'authorization',
  'cookie',
  'setcookie',
  'smtpurl',
  'databaseurl',
  'creditcard',
  'cardnumber',
  'cvv',
]);
const SECRET_SUFFIXES = ['password', 'passwordhash', 'token', 'tokenhash', 'secret', 'secretkey', 'secretaccesskey', 'apikey', 'privatekey', 'signature', 'otp'];
/** `code` is also an error code ('rate_limited'); a code with digits is a one-time code. */
const CODE_NAMES = new Set(['code', 'verificationcode', 'resetcode', 'otpcode']);

function isSecretName(key: string, value: unknown): boolean {
  const k = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  // PAYSTACK_SECRET_KEY_ZA and the per-market key table (paystackSecretKeys) too.
  if (SECRET_NAMES.has(k) || SECRET_SUFFIXES.some((s) => k.endsWith(s)) || k.includes('secretkey')) return true;
  return CODE_NAMES.has(k) && (typeof value === 'number' || (typeof value === 'string' && /\d/.test(value)));
}

/** Credentials inside URLs (postgres://user:pass@, smtp://user:pass@) and bearer tokens. */
export function scrubString(s: string): string {
  return s.replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^:/?#@\s]*:)[^@/\s]+@/gi, `$1${REDACTED}@`).replace(/\b(bearer)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`);
}

/** How many causes of an error are logged: the database's own error sits one or two below the query's. */
export const MAX_CAUSES = 5;

/**
 * An error flattened for the log: name, message, its code (an AppError's, or the database's
 * SQLSTATE such as 40P01), the stack, and its `cause` chain (the driver's "deadlock detected" under
 * the ORM's "Failed query"), each scrubbed like any string, at most MAX_CAUSES deep.
 */
function errorForLog(err: Error, depth: number, seen: WeakSet<object>, causes: number): Record<string, unknown> {
  const out: Record<string, unknown> = { name: err.name, message: scrubString(err.message) };
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') out.code = typeof code === 'string' ? scrubString(code) : code;
  if (err.stack) out.stack = scrubString(err.stack);
  const cause = (err as { cause?: unknown }).cause;
  if (cause === undefined) return out;
  if (causes >= MAX_CAUSES) out.cause = '[…]';
  else if (cause instanceof Error) out.cause = seen.has(cause) ? '[…]' : (seen.add(cause), errorForLog(cause, depth, seen, causes + 1));
  else out.cause = redact(cause, depth + 1, seen);
  return out;
}

/** A log-safe copy of a value: errors flattened (with their causes), secret fields replaced, strings scrubbed. */
export function redact(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return scrubString(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 6 || seen.has(value)) return '[…]';
  seen.add(value);
  if (value instanceof Error) return errorForLog(value, depth, seen, 0);
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1, seen));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = isSecretName(k, v) ? REDACTED : redact(v, depth + 1, seen);
  return out;
}

export function createLogger(level: Level | 'silent' = 'info', base: Record<string, unknown> = {}): Logger {
  const min = order[level];
  const write = (lvl: Level, msg: string, fields?: Record<string, unknown>) => {
    if (order[lvl] < min) return;
    const entry = redact({ time: new Date().toISOString(), level: lvl, msg, ...base, ...fields }) as Record<string, unknown>;
    const line = JSON.stringify(entry);
    if (lvl === 'error' || lvl === 'warn') process.stderr.write(line + '\n');
    else process.stdout.write(line + '\n');
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (fields) => createLogger(level, { ...base, ...fields }),
  };
}
