import { constants, crc32, deflateRaw, deflateRawSync } from 'node:zlib';
import { promisify } from 'node:util';
import { crc32Shift, crc32Shifted, GZIP_HEADER, LAST_BLOCK } from './gzip-segments';

/**
 * A signed-in shopper's copy of a stored page, gzipped without compressing anything per request
 * (ADR 0016, ADR 0069). A page as signed-in shoppers get it has places where each one's own bytes
 * go (shared-pages.ts: the session script's JSON, the first name, the cart link, the CSRF tokens),
 * each exactly as long for everyone (personal-parts.ts fills the shorter ones out with spaces), so
 * nothing around them ever moves.
 *
 * When the page is stored, the fixed stretches between the places are deflated once, each on its
 * own and byte-aligned (a sync flush), each with the page before it as its dictionary, the places
 * blanked in it so that nothing refers to a shopper's bytes. A request then writes each place's
 * bytes as they are (a stored block, the spaces it is filled out with as a deflated run; a place's common
 * values are deflated with the stretches), takes the CRC of the pieces in order (a stretch's is
 * joined on from its own, without reading it again: gzip-segments.ts), and joins it all in one
 * gzip member. Nothing is compressed per request: a zlib call costs about 40 µs before its first
 * byte, more than the rest of the answer.
 *
 * Deflate allows this; brotli would not (its stream cannot be joined from separately made
 * pieces), so such an answer is gzip even where brotli is accepted.
 */

/** Where a shopper's bytes go in the page, and what the caller calls them. */
export interface PersonalPlace {
  at: number;
  length: number;
  name: string;
  /** What most shoppers have here (a cart link of a few items): deflated once with the page, the rest written as it is. */
  variants?: readonly string[];
}

export interface PersonalGzipLayout {
  /** The page in order: each fixed stretch deflated (with its length, CRC and the shift that CRC-32 joins it with), and each place. */
  pieces: ({ deflated: Uint8Array; length: number; crc: number; shift: Uint32Array } | { place: string; length: number; variants: ReadonlyMap<string, Uint8Array> })[];
}

const WINDOW = 32 * 1024;
const deflateRawAsync = promisify(deflateRaw);
const SYNC = { level: 9, finishFlush: constants.Z_SYNC_FLUSH };

/** Deflates the page's fixed stretches once (off the request path: the thread pool). `places` must not overlap. */
export async function personalGzipLayout(page: Uint8Array, places: readonly PersonalPlace[]): Promise<PersonalGzipLayout> {
  const ordered = [...places].sort((a, b) => a.at - b.at);
  const blanked = Buffer.from(page);
  for (const place of ordered) blanked.fill(0, place.at, place.at + place.length);
  /** `text` deflated as if it stood at `at`, after the page before it. */
  const deflatedAt = (text: Uint8Array, at: number) => {
    const dictionary = blanked.subarray(Math.max(0, at - WINDOW), at);
    return deflateRawAsync(text, dictionary.length ? { ...SYNC, dictionary } : SYNC);
  };
  const stretches: { from: number; to: number }[] = [];
  let from = 0;
  for (const place of ordered) {
    if (place.at < from) throw new RangeError('personal places overlap');
    stretches.push({ from, to: place.at });
    from = place.at + place.length;
  }
  stretches.push({ from, to: page.length });
  const [deflated, variants] = await Promise.all([
    Promise.all(stretches.map(({ from, to }) => (to === from ? null : deflatedAt(page.subarray(from, to), from)))),
    Promise.all(
      ordered.map(async (place) => {
        const texts = (place.variants ?? []).filter((text) => Buffer.byteLength(text) === place.length);
        const made = await Promise.all(texts.map((text) => deflatedAt(Buffer.from(text), place.at)));
        return new Map(texts.map((text, k) => [text, made[k]!]));
      }),
    ),
  ]);
  const pieces: PersonalGzipLayout['pieces'] = [];
  const stretch = (i: number) => {
    const bytes = deflated[i];
    const { from, to } = stretches[i]!;
    if (bytes) pieces.push({ deflated: bytes, length: to - from, crc: crc32(page.subarray(from, to)), shift: crc32Shift(to - from) });
  };
  ordered.forEach((place, i) => {
    stretch(i);
    pieces.push({ place: place.name, length: place.length, variants: variants[i]! });
  });
  stretch(ordered.length);
  return { pieces };
}

/**
 * The shopper's page as one gzip member: the layout's stretches with `fills[name]` in each place.
 * Null when a fill is not exactly as long as its place (the caller compresses the whole page).
 */
export function personalGzip(layout: PersonalGzipLayout, fills: Readonly<Record<string, string>>): Uint8Array<ArrayBuffer> | null {
  const out: Uint8Array[] = [GZIP_HEADER];
  let crc = 0;
  let size = 0;
  const written = new Map<string, { text: Buffer; spaces: number }>();
  for (const piece of layout.pieces) {
    if ('place' in piece) {
      const fill = fills[piece.place];
      if (fill === undefined) throw new RangeError(`nothing to put in ${piece.place}`);
      // The bytes before the spaces a part is filled out with, and how many spaces.
      let place = written.get(piece.place);
      if (!place) {
        const text = Buffer.from(fill.replace(TRAILING_SPACES, ''));
        written.set(piece.place, (place = { text, spaces: Buffer.byteLength(fill) - text.length }));
      }
      if (place.text.length + place.spaces !== piece.length) return null;
      const variant = piece.variants.get(fill);
      if (variant) out.push(variant);
      else out.push(...storedBlocks(place.text), ...(place.spaces ? [spaceRun(place.spaces)] : []));
      crc = crc32(place.text, crc);
      if (place.spaces) crc = crc32(spaces(place.spaces), crc);
    } else {
      out.push(piece.deflated);
      crc = (crc32Shifted(piece.shift, crc) ^ piece.crc) >>> 0;
    }
    size += piece.length;
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size % 2 ** 32, 4);
  out.push(LAST_BLOCK, trailer);
  return Buffer.concat(out);
}

const TRAILING_SPACES = / +$/;
const SOME_SPACES = Buffer.alloc(4096, 0x20);
const spaces = (length: number) => (length <= SOME_SPACES.length ? SOME_SPACES.subarray(0, length) : Buffer.alloc(length, 0x20));

/** Runs of spaces deflated on their own (no reference outside them, so they go anywhere), by length. */
const spaceRuns = new Map<number, Uint8Array>();
function spaceRun(length: number): Uint8Array {
  let run = spaceRuns.get(length);
  if (!run) {
    run = deflateRawSync(spaces(length), SYNC);
    if (spaceRuns.size < 4096) spaceRuns.set(length, run);
  }
  return run;
}

/** `bytes` as non-final stored blocks (at most 65,535 bytes each), byte-aligned. */
export function storedBlocks(bytes: Uint8Array): Uint8Array[] {
  const blocks: Uint8Array[] = [];
  for (let from = 0; from < bytes.length; from += 0xffff) {
    const chunk = bytes.subarray(from, from + 0xffff);
    const header = Uint8Array.of(0, chunk.length & 0xff, chunk.length >> 8, ~chunk.length & 0xff, (~chunk.length >> 8) & 0xff); // BFINAL 0, BTYPE 00, LEN, NLEN
    blocks.push(header, chunk);
  }
  return blocks;
}
