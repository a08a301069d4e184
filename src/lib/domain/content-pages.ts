import { z } from 'zod';
import { message } from './messages';

/**
 * The store's editable pages (About, Privacy, Contact): their slugs, the fields an editor fills
 * in, the sentences Privacy must keep, and the line diff between two versions. No I/O.
 */
export const PAGE_SLUGS = ['about', 'privacy', 'contact'] as const;
export type PageSlug = (typeof PAGE_SLUGS)[number];
export const isPageSlug = (value: unknown): value is PageSlug => typeof value === 'string' && (PAGE_SLUGS as readonly string[]).includes(value);

export const PAGE_NAMES: Record<PageSlug, string> = { about: 'About', privacy: 'Privacy', contact: 'Contact' };

/** A page's body: 200 KB of markdown at most. */
export const MAX_BODY_BYTES = 200 * 1024;
export const MAX_TITLE_LENGTH = 120;

const contactSchema = z.object({
  phone: z.string().trim().min(5, message('page-contact-phone')).max(40, message('page-contact-phone')),
  email: z.email(message('page-contact-email')).max(200, message('page-contact-email')),
  hours: z.string().trim().max(120, message('page-contact-hours')).optional(),
});
export type PageContact = z.output<typeof contactSchema>;

const day = z.iso.date(message('page-updated-invalid'));

/** The frontmatter of a page, as the markdown files hold it and the editor's form fields fill it in. */
export const pageFieldsSchema = z.object({
  title: z.string().trim().min(1, message('page-title-required')).max(MAX_TITLE_LENGTH, message('page-title-long')),
  description: z.string().trim().min(20, message('page-description-short')).max(170, message('page-description-long')),
  updated: day,
  contact: contactSchema.optional(),
  body: z.string().refine((b) => new TextEncoder().encode(b).length <= MAX_BODY_BYTES, message('page-body-large')),
});
export type PageFields = z.output<typeof pageFieldsSchema>;

/**
 * A draft as the form or the API sends it: the fields, the revision it was written on (null for a
 * page never saved in the editor's sight), and the contact block as three flat fields from a form.
 */
export const draftInputSchema = z
  .object({
    title: z.unknown(),
    description: z.unknown(),
    updated: z.unknown(),
    body: z.unknown(),
    contact: z.unknown().optional(),
    contactPhone: z.string().optional(),
    contactEmail: z.string().optional(),
    contactHours: z.string().optional(),
    baseRevision: z.union([z.number(), z.string(), z.null()]).optional(),
  })
  .transform(({ contactPhone, contactEmail, contactHours, baseRevision, contact, ...rest }) => {
    const flat = contactPhone !== undefined || contactEmail !== undefined ? { phone: contactPhone ?? '', email: contactEmail ?? '', ...(contactHours ? { hours: contactHours } : {}) } : undefined;
    const base = baseRevision === null || baseRevision === undefined || baseRevision === '' ? null : Number(baseRevision);
    return { fields: { ...rest, contact: contact ?? flat }, baseRevision: base };
  });

/** The fields of a page, checked: the contact block only on Contact, where it is required. */
export function pageFieldsFor(slug: PageSlug) {
  return pageFieldsSchema.superRefine((fields, ctx) => {
    if (slug === 'contact' && !fields.contact) ctx.addIssue({ code: 'custom', path: ['contact'], message: message('page-contact-required') });
  }).transform((fields) => (slug === 'contact' ? fields : { ...fields, contact: undefined }));
}

/**
 * What the Privacy page always says, word for word as it says it: a publish that loses one of these
 * sentences is refused, naming it.
 */
export const PRIVACY_FIXED_SENTENCES = [
  'When you create an account, place an order or contact us, we collect:',
  'your **name**;',
  'your **e-mail** address;',
  'your **phone** number;',
  'your **shipping address**;',
  'your **payment details**, which you enter when you pay for an order.',
  '**We do not store your payment details** on our servers',
  '**We do not share your data with third parties for marketing.**',
] as const;

/** The first fixed sentence the Privacy body no longer has, as a reader sees it (no markdown), or null (other pages have none). */
export function missingFixedSentence(slug: PageSlug, body: string): string | null {
  if (slug !== 'privacy') return null;
  const flat = body.replace(/\s+/g, ' ');
  const missing = PRIVACY_FIXED_SENTENCES.find((s) => !flat.includes(s));
  return missing ? missing.replace(/\*\*/g, '') : null;
}

export type DiffLine = { kind: 'same' | 'added' | 'removed'; text: string };

/** The line diff from `before` to `after` (longest common subsequence of lines). */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  const n = a.length;
  const m = b.length;
  // lcs[i][j]: the longest common run of a[i..] and b[j..]
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ kind: 'same', text: a[i]! });
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) out.push({ kind: 'removed', text: a[i++]! });
    else out.push({ kind: 'added', text: b[j++]! });
  }
  while (i < n) out.push({ kind: 'removed', text: a[i++]! });
  while (j < m) out.push({ kind: 'added', text: b[j++]! });
  return out;
}

/** The instant a wall-clock time (`2026-12-24T09:30`, datetime-local) is in a time zone, or null when it is not one. */
export function instantIn(local: string, timeZone: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!m) return null;
  const asUtc = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!);
  const guess = new Date(asUtc);
  if (Number.isNaN(guess.getTime()) || guess.getUTCDate() !== +m[3]!) return null;
  const wall = new Intl.DateTimeFormat('en-CA', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
    .formatToParts(guess)
    .reduce<Record<string, string>>((acc, p) => ((acc[p.type] = p.value), acc), {});
  const offsetMs = Date.UTC(+wall.year!, +wall.month! - 1, +wall.day!, +wall.hour!, +wall.minute!) - asUtc;
  return new Date(asUtc - offsetMs);
}
