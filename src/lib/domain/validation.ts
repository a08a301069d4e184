import { z } from 'zod';

/**
 * The shared building blocks of every request schema: ids the database can hold, text it can
 * store, dates that exist. What the database would refuse (an integer column overflowing, a NUL
 * in text, the 45th of the 13th month) is refused here first, as a 400 that names the field.
 */

/** The largest id an `integer` (serial) column holds. */
export const MAX_ID = 2_147_483_647;

/** The field an issue is about, as the client sent it (`categoryId`, `lines.0.quantity`). */
function fieldOf(path: readonly PropertyKey[] | undefined, fallback = 'The request'): string {
  return path && path.length ? path.map(String).join('.') : fallback;
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

/**
 * Messages for the issues a schema gives no message of its own: they name the field
 * (`categoryId must be at most 2147483647`). Schemas' own messages (the shopper-facing
 * texts of messages.ts) always win over these.
 */
export const fieldMessage: z.core.$ZodErrorMap = (issue) => {
  const field = fieldOf(issue.path);
  switch (issue.code) {
    case 'invalid_type':
      if (!issue.path?.length && issue.expected === 'object') return 'The request body must be a JSON object';
      return `${field} must be ${issue.expected === 'string' ? 'text' : article(issue.expected)}`;
    case 'too_big':
      return issue.origin === 'string' ? `${field} must be at most ${issue.maximum} characters` : `${field} must be at most ${issue.maximum}`;
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? `${field} is required` : `${field} must be at least ${issue.minimum} characters`;
      return `${field} must be at least ${issue.minimum}`;
    case 'invalid_value':
      return `${field} must be one of ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return `${field} is not a valid ${issue.format}`;
    case 'unrecognized_keys':
      return `Unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`;
    default:
      return `${field} is invalid`;
  }
};

// ------------------------------------------------------------------ ids

const idMessage = (fallback: string) => (issue: { path?: PropertyKey[] }) => `${fieldOf(issue.path, fallback)} must be a whole number between 1 and ${MAX_ID}`;

/** A JSON number or a string of digits; anything else (1e3, 0x10, " 7 ", true, [7]) is left for the schema to refuse. */
const digitsToNumber = (v: unknown) => (typeof v === 'string' && /^\d{1,20}$/.test(v) ? Number(v) : v);

/** A database id (serial): a whole number from 1 to 2^31−1, as a number or a string of digits. */
export const id = z.preprocess(digitsToNumber, z.number({ error: idMessage('id') }).int().min(1).max(MAX_ID));

/** An optional id: empty (a form's "none") is undefined. */
export const optionalId = z.preprocess((v) => (v === '' || v === null ? undefined : v), id.optional());

/** A required id whose absence has its own message ("Choose a category"); a bad one names its field. */
export function requiredId(missing: string) {
  return optionalId.transform((v, ctx) => {
    if (v === undefined) {
      ctx.addIssue({ code: 'custom', message: missing });
      return z.NEVER;
    }
    return v;
  });
}

/**
 * A numeric id from a path. A malformed id names nothing that exists, so it answers
 * with the same message as an unknown one (but status 400, as bad input).
 */
export function idParam(message: string) {
  return z.preprocess(digitsToNumber, z.number({ error: message }).int().min(1).max(MAX_ID));
}

// ------------------------------------------------------------------ text

/** Control characters no typed text contains (PostgreSQL refuses NUL outright), and unpaired surrogates (not UTF-8). */
const CONTROL_IN_LINE = /[\u0000-\u001f\u007f]|\p{Cs}/u;
/** The same, but line breaks and tabs are fine in multi-line text. */
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|\p{Cs}/u;

/** Whether a string can be stored and shown as text (no NUL, no control characters). */
export function isPlainText(value: string, opts: { multiline?: boolean } = {}): boolean {
  return !(opts.multiline ? CONTROL_IN_TEXT : CONTROL_IN_LINE).test(value);
}

/**
 * Text typed by a person: trimmed, at most `max` characters, without NUL or other control
 * characters (`multiline` allows line breaks and tabs). `label` names the field in messages;
 * add `.min(1, 'X is required')` where it is required.
 */
export function text(label: string, max: number, opts: { multiline?: boolean } = {}) {
  return z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine((v) => isPlainText(v, opts), `${label} must not contain control characters`);
}

/** A key from a path or a query (order id or tracking number, payment reference): plain text of at most `max` characters. */
export function keyParam(message: string, max = 100) {
  return z
    .string({ error: message })
    .max(max, message)
    .refine((v) => isPlainText(v), message);
}

// ------------------------------------------------------------------ dates

/** Whether `YYYY-MM-DD` names a day of the calendar (not 2026-13-45, not 2026-02-30). */
export function isCalendarDay(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1970 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A day typed as YYYY-MM-DD that exists on the calendar. */
export function day(label: string) {
  return z.string({ error: `${label} must be a date (YYYY-MM-DD)` }).refine(isCalendarDay, `${label} must be a date (YYYY-MM-DD) that exists`);
}

/** A row id as the database keeps it (uuid): anything else is no such row, never a query that fails. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
