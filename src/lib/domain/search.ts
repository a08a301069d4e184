/**
 * How the store reads what a shopper types into search: lower-case, accents dropped
 * ("Suède" is "suede"), split into words of letters and digits, without the little words that
 * never narrow a search. Search matches these against its known words (src/lib/server/catalogue/search.ts).
 */
const LITTLE_WORDS = new Set(['a', 'an', 'and', 'the', 'for', 'with', 'of', 'in', 'on', 'to', 'by', 'or']);

/** At most this many words are searched for. */
export const MAX_SEARCH_WORDS = 8;

export function searchWords(q: string): string[] {
  return q
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 2 && !LITTLE_WORDS.has(w))
    .slice(0, MAX_SEARCH_WORDS);
}
