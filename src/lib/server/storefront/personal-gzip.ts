import { constants, crc32, deflateRaw, deflateRawSync } from 'node:zlib';
import { promisify } from 'node:util';
import { GZIP_HEADER, LAST_BLOCK } from './gzip-segments';

/**
 * A signed-in shopper's copy of a stored page, gzipped without compressing the whole page again
 * (ADR 0016). A page rendered for nobody has two kinds of personal places (shared-pages.ts):
 * - the header's parts (who is signed in, the cart count, the menu's account links), which change
 *   length from shopper to shopper: they sit together near the top, in one "region";
 * - CSRF slots below it, exactly as long as every token, so everything after the region keeps its
 *   place whatever the token.
 * When the page is stored, the part before the region and each stretch between slots after it are
 * deflated once, each on its own and byte-aligned (a sync flush), the stretches with the page since
 * the region as their dictionary (slots blanked, so nothing refers to a token's bytes). A request
 * then deflates only the region (a few KB, with the page's start as its dictionary), writes each
 * token (the first as it is, the others as a copy of the one before, whose distance is known) and
 * joins the pieces in one gzip member. Deflate allows this; brotli would not (its stream cannot be
 * joined from separately made pieces), so such an answer is gzip even where brotli is accepted:
 * about 15% more bytes than brotli 4 for a product page, for a fraction of its CPU.
 */

export interface PersonalGzipLayout {
  /** The page's length as stored (rendered for nobody). */
  pageLength: number;
  /** Where the region of variable-length parts begins and ends in the stored page. */
  regionStart: number;
  regionEnd: number;
  /** The page before the region, deflated (sync flush). */
  head: Uint8Array;
  /** What the region is deflated against: the page before it (at most the 32 KB deflate sees). */
  dictionary: Uint8Array;
  /** After the region: each stretch deflated, or a slot's token, in order. */
  pieces: ({ deflated: Uint8Array } | { tokenAt: number; copyDistance: number | null })[];
}

const WINDOW = 32 * 1024;
const deflateRawAsync = promisify(deflateRaw);

/**
 * Deflates the page's fixed pieces once (off the request path: the thread pool). `slots` are the
 * CSRF slots' offsets, `slotLength` their length (every token's). Slots inside the region are the
 * region's business (they are deflated with it per request).
 */
export async function personalGzipLayout(page: Uint8Array, region: { start: number; end: number }, slots: readonly number[], slotLength: number): Promise<PersonalGzipLayout> {
  const sync = { level: 9, finishFlush: constants.Z_SYNC_FLUSH };
  const after = slots.filter((at) => at >= region.end).sort((a, b) => a - b);
  const stretches: { from: number; to: number }[] = [];
  let from = region.end;
  for (const at of [...after, page.length]) {
    stretches.push({ from, to: at });
    from = at + slotLength;
  }
  const blanked = Buffer.from(page);
  for (const at of after) blanked.fill(0, at, at + slotLength);
  const [head, ...deflated] = await Promise.all([
    deflateRawAsync(page.subarray(0, region.start), sync),
    ...stretches.map(({ from, to }) => {
      const dictionary = blanked.subarray(Math.max(region.end, from - WINDOW), from);
      return to > from ? deflateRawAsync(page.subarray(from, to), dictionary.length ? { ...sync, dictionary } : sync) : Promise.resolve(Buffer.alloc(0));
    }),
  ]);
  const pieces: PersonalGzipLayout['pieces'] = [];
  after.forEach((at, i) => {
    pieces.push({ deflated: deflated[i]! });
    const previous = after[i - 1];
    pieces.push({ tokenAt: at, copyDistance: previous !== undefined && at - previous <= WINDOW ? at - previous : null });
  });
  pieces.push({ deflated: deflated[after.length]! });
  return {
    pageLength: page.length,
    regionStart: region.start,
    regionEnd: region.end,
    head: head!,
    dictionary: page.slice(Math.max(0, region.start - WINDOW), region.start),
    pieces,
  };
}

/**
 * The shopper's page (`body`: the stored page with their parts put in, every token `token`) as one
 * gzip member, from the layout. `body` must differ from the stored page only in the region and the
 * slots (the caller falls back to compressing the whole page when a heart was pressed).
 */
export function personalGzip(layout: PersonalGzipLayout, body: Uint8Array, token: Uint8Array): Uint8Array<ArrayBuffer> {
  const shift = body.length - layout.pageLength;
  const region = deflateRawSync(body.subarray(layout.regionStart, layout.regionEnd + shift), {
    level: 6,
    finishFlush: constants.Z_SYNC_FLUSH,
    ...(layout.dictionary.length ? { dictionary: layout.dictionary } : {}),
  });
  const pieces: Uint8Array[] = [GZIP_HEADER, layout.head, region];
  for (const piece of layout.pieces) {
    if ('deflated' in piece) pieces.push(piece.deflated);
    else pieces.push(piece.copyDistance === null ? storedBlock(token) : copyBlock(token.length, piece.copyDistance));
  }
  const trailer = new Uint8Array(8);
  const view = new DataView(trailer.buffer);
  view.setUint32(0, crc32(body), true);
  view.setUint32(4, body.length >>> 0, true);
  pieces.push(LAST_BLOCK, trailer);
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A non-final stored block holding `bytes` (at most 65,535), byte-aligned. */
export function storedBlock(bytes: Uint8Array): Uint8Array {
  const block = new Uint8Array(5 + bytes.length);
  block[0] = 0; // BFINAL 0, BTYPE 00, padding
  block[1] = bytes.length & 0xff;
  block[2] = bytes.length >> 8;
  block[3] = ~bytes.length & 0xff;
  block[4] = (~bytes.length >> 8) & 0xff;
  block.set(bytes, 5);
  return block;
}

// RFC 1951 3.2.5: each length and distance code's base value and extra bits.
const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DISTANCE_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
const DISTANCE_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];

/** The last code whose base is at most `value`. */
const codeFor = (bases: readonly number[], value: number) => bases.findLastIndex((base) => base <= value);

/**
 * A non-final block with fixed codes holding one copy (`length` bytes from `distance` back), then
 * an empty stored block to end on a byte: about 9 bytes where the token itself would take 48.
 */
export function copyBlock(length: number, distance: number): Uint8Array {
  if (length < 3 || length > 258 || distance < 1 || distance > WINDOW) throw new RangeError(`no deflate copy of ${length} from ${distance}`);
  const bytes: number[] = [];
  let acc = 0;
  let n = 0;
  /** Values go in least significant bit first; Huffman codes most significant first (reversed here). */
  const bits = (value: number, count: number) => {
    for (let i = 0; i < count; i++) {
      acc |= ((value >> i) & 1) << n++;
      if (n === 8) (bytes.push(acc), (acc = 0), (n = 0));
    }
  };
  const huffman = (code: number, count: number) => {
    for (let i = count - 1; i >= 0; i--) bits((code >> i) & 1, 1);
  };
  bits(0, 1); // BFINAL
  bits(1, 2); // BTYPE 01: fixed codes
  const l = codeFor(LENGTH_BASE, length);
  const lengthSymbol = 257 + l;
  // Fixed literal/length codes: 256-279 are 7 bits (0000000 + symbol - 256), 280-287 are 8 (11000000 + symbol - 280).
  if (lengthSymbol <= 279) huffman(lengthSymbol - 256, 7);
  else huffman(0xc0 + lengthSymbol - 280, 8);
  bits(length - LENGTH_BASE[l]!, LENGTH_EXTRA[l]!);
  const d = codeFor(DISTANCE_BASE, distance);
  huffman(d, 5);
  bits(distance - DISTANCE_BASE[d]!, DISTANCE_EXTRA[d]!);
  huffman(0, 7); // end of block (256)
  bits(0, 3); // an empty stored block: BFINAL 0, BTYPE 00 ...
  if (n > 0) bits(0, 8 - n); // ... padded to a byte ...
  return Uint8Array.of(...bytes, 0, 0, 0xff, 0xff); // ... LEN 0, NLEN ~0
}
