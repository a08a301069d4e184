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

/**
 * Words shoppers use for what the house sells under another name, known in both markets whether
 * or not a product carries them: each also finds the catalogue's own words for the same piece
 * ("handbag" finds the bags, "trainers" the sneakers). They join the store's known words, so a
 * misspelt "hanbag" or "sandles" is read as one of them.
 */
export const SHOP_WORDS: Readonly<Record<string, readonly string[]>> = {
  handbag: ['bag'],
  handbags: ['bag'],
  sandal: [],
  sandals: [],
  trainer: ['sneaker'],
  trainers: ['sneaker'],
  sneaker: ['trainer'],
  sneakers: ['trainer'],
  purse: ['clutch', 'wallet'],
  purses: ['clutch', 'wallet'],
  clutch: [],
  clutches: [],
  loafer: [],
  loafers: [],
};

/** The words a searched word finds: itself, and the catalogue's words for it when it is a shop word. */
export function wordsFound(word: string): string[] {
  return [word, ...(SHOP_WORDS[word] ?? [])];
}

/**
 * Optimal string alignment distance: the letters to add, drop, change or swap with a neighbour
 * to turn one word into the other ("hanbag" → "handbag": 1, "sandles" → "sandals": 2).
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The one known word a typed word is clearly a slip of, among candidates close by their letters:
 * one or two slips away (two only in words of seven letters or more), and no other candidate as
 * close. Short words are never corrected this way: too many words are one letter from them.
 */
export function clearCorrection(typed: string, candidates: readonly string[]): string | null {
  if (typed.length < 5) return null;
  const allowed = typed.length >= 7 ? 2 : 1;
  let best: string | null = null;
  let bestDistance = Infinity;
  let tied = false;
  for (const candidate of new Set(candidates)) {
    if (candidate === typed) continue;
    const d = editDistance(typed, candidate);
    if (d < bestDistance) [best, bestDistance, tied] = [candidate, d, false];
    else if (d === bestDistance) tied = true;
  }
  return best && bestDistance <= allowed && !tied ? best : null;
}
