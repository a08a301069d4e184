/**
 * One gzip file made of separately compressed pieces, so that a large text (a shopping feed) can
 * have one piece replaced without compressing the rest again: each piece is raw deflate ended by a
 * sync flush (byte-aligned, not final), the pieces are joined, an empty final block closes them,
 * and the trailer's CRC-32 is combined from the pieces' own (zlib's crc32_combine).
 */
import { promisify } from 'node:util';
import { constants, crc32, deflateRaw } from 'node:zlib';

export interface GzipSegment {
  deflate: Buffer;
  crc: number;
  /** Bytes of text it holds. */
  size: number;
}

const deflateRawAsync = promisify(deflateRaw);

/** A piece of text compressed on the thread pool, ready to be joined. */
export async function compressSegment(text: Buffer): Promise<GzipSegment> {
  const deflate = await deflateRawAsync(text, { level: 6, finishFlush: constants.Z_SYNC_FLUSH });
  return { deflate, crc: crc32(text), size: text.length };
}

/** A 32x32 matrix over GF(2) (column n: what bit n becomes) applied to a 32-bit vector. */
function gf2Times(mat: Uint32Array, vec: number): number {
  let sum = 0;
  for (let i = 0; vec !== 0; i++, vec >>>= 1) if (vec & 1) sum ^= mat[i]!;
  return sum >>> 0;
}

/** `a` after `b`, as one matrix. */
function gf2Compose(a: Uint32Array, b: Uint32Array): Uint32Array<ArrayBuffer> {
  return b.map((column) => gf2Times(a, column));
}

/** What appending one zero byte does to a CRC-32 register: the one-bit step (the polynomial's) squared three times. */
const ONE_ZERO_BYTE = [1, 2, 3].reduce((step) => gf2Compose(step, step), Uint32Array.from({ length: 32 }, (_, n) => (n === 0 ? 0xedb88320 : 2 ** (n - 1))));

/**
 * What appending `length` zero bytes does to a CRC-32, as a matrix (zlib's crc32_combine, made once
 * for a length that is used again): crc32(A followed by B) = crc32Shifted(crc32Shift(B's length), crc32(A)) ^ crc32(B).
 */
export function crc32Shift(length: number): Uint32Array<ArrayBuffer> {
  let result = Uint32Array.from({ length: 32 }, (_, n) => 2 ** n);
  let power = ONE_ZERO_BYTE;
  for (let left = length; left > 0; left = Math.floor(left / 2)) {
    if (left % 2) result = gf2Compose(power, result);
    if (left > 1) power = gf2Compose(power, power);
  }
  return result;
}

/** A CRC-32 moved on by a shift (crc32Shift). */
export function crc32Shifted(shift: Uint32Array, crc: number): number {
  return gf2Times(shift, crc >>> 0);
}

/** The CRC-32 of A followed by B, from A's CRC, B's CRC and B's length (zlib's crc32_combine). */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  if (lengthB <= 0) return crcA >>> 0;
  return (crc32Shifted(crc32Shift(lengthB), crcA) ^ crcB) >>> 0;
}

/** The gzip header every joined file starts with (no name, no time: the same bytes on every app server). */
export const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);
/** A final, empty block with fixed Huffman codes: the end of the deflate stream. */
export const LAST_BLOCK = Buffer.from([0x03, 0x00]);

/** What follows the pieces' bytes: the closing block and the trailer (the text's CRC-32 and length), from the pieces' own. */
export function gzipEnd(segments: readonly Pick<GzipSegment, 'crc' | 'size'>[]): Buffer {
  let crc = 0;
  let size = 0;
  for (const s of segments) {
    crc = crc32Combine(crc, s.crc, s.size);
    size += s.size;
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size % 2 ** 32, 4);
  return Buffer.concat([LAST_BLOCK, trailer]);
}

/** The pieces as one gzip member. */
export function joinGzip(segments: readonly GzipSegment[]): Buffer {
  return Buffer.concat([GZIP_HEADER, ...segments.map((s) => s.deflate), gzipEnd(segments)]);
}
