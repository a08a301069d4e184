/** Node socket errors and PostgreSQL SQLSTATEs (class 08, 57P0x shutdowns, 53300 too many connections) of a database out of reach. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', '53300', '57P01', '57P02', '57P03']);

/**
 * Whether an error means the database cannot be reached right now (rather than a bug): such a
 * request may be retried shortly. Follows `cause` chains (drizzle wraps driver errors).
 */
export function isDatabaseUnreachable(err: unknown): boolean {
  return unreachableReason(err) !== null;
}

/** The driver's words for why the database is out of reach (for a one-line log), or null when it is not. */
export function unreachableReason(err: unknown): string | null {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    const text = typeof message === 'string' ? message : '';
    if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) return `${code}: ${text}`;
    if (/Connection terminated|connection timeout|Client has encountered a connection error|is not currently accepting connections/i.test(text)) return text;
  }
  return null;
}
