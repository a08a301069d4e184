/**
 * Designers: the houses whose pieces the store sells. A product names one; shoppers look for
 * pieces by it (the A–Z page, the collection's filter, search), and search engines and feeds are
 * told it as the brand. Pure: slugs, the A–Z grouping and the back office's form.
 */
import { z } from 'zod';
import { message } from './messages';
import { text } from './validation';

/** A designer as the API and pages show it beside a product. */
export interface DesignerRef {
  id: number;
  name: string;
  slug: string;
}

/** A designer with its short text (the A–Z page, the back office). */
export interface DesignerDto extends DesignerRef {
  about: string;
}

/**
 * A name made into a URL's words: accents dropped ("Adébáyọ̀" → "adebayo"), anything else but
 * letters and digits a hyphen, at most 80 characters; `fallback` when nothing is left.
 */
export function slugify(name: string, fallback = 'product'): string {
  return (
    name
      .toLowerCase()
      .normalize('NFKD')
      // The accents and tone marks NFKD sets apart go (é → e, ọ̀ → o), rather than becoming hyphens.
      .replace(/\p{M}/gu, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/(^-|-$)/g, '')
      .slice(0, 80)
      .replace(/-$/, '') || fallback
  );
}

/** A designer's slug from its name ("Ọ̀ṣun & Co." → "osun-co"). */
export const designerSlug = (name: string) => slugify(name, 'designer');

/** The same designer however the name is typed: trimmed, spaces collapsed, any case, accents kept. */
export const designerKey = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

/** The A–Z page's letter of a name: its first letter unaccented, '#' for a digit or anything else. */
export function initialOf(name: string): string {
  const first = name.trim().normalize('NFKD').charAt(0).toUpperCase();
  return /^[A-Z]$/.test(first) ? first : '#';
}

/** Designers in A–Z order (accents ignored), grouped by their letter. */
export function byInitial<T extends { name: string }>(list: readonly T[]): { letter: string; designers: T[] }[] {
  const sorted = [...list].sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }));
  const groups: { letter: string; designers: T[] }[] = [];
  for (const d of sorted) {
    const letter = initialOf(d.name);
    const last = groups.at(-1);
    if (last?.letter === letter) last.designers.push(d);
    else groups.push({ letter, designers: [d] });
  }
  // '#' (names starting with a digit or a sign) goes after Z, as an index's does.
  return [...groups.filter((g) => g.letter !== '#'), ...groups.filter((g) => g.letter === '#')];
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The back office's designer form: a name, a slug (empty: made from the name) and a short text. */
export const designerSchema = z.object({
  name: text('name', 100).min(2, message('designer-name-required')),
  slug: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
    z.union([z.literal(''), z.string().max(80, message('designer-slug-shape')).regex(SLUG, message('designer-slug-shape'))]).optional(),
  ),
  about: text('about', 600, { multiline: true })
    .optional()
    .transform((v) => v ?? ''),
});
export type DesignerInput = z.output<typeof designerSchema>;
