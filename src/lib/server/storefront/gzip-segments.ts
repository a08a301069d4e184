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

function gf2Times(mat: Uint32Array, vec: number): number {
  let sum = 0;
  for (let i = 0; vec !== 0; i++, vec >>>= 1) if (vec & 1) sum ^= mat[i]!;
  return sum >>> 0;
}

function gf2Square(square: Uint32Array, mat: Uint32Array): void {
  for (let n = 0; n < 32; n++) square[n] = gf2Times(mat, mat[n]!);
}

/** The CRC-32 of A followed by B, from A's CRC, B's CRC and B's length (zlib's crc32_combine). */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  if (lengthB <= 0) return crcA >>> 0;
  const even = new Uint32Array(32);
  const odd = new Uint32Array(32);
  odd[0] = 0xedb88320; // the CRC-32 polynomial
  for (let n = 1, row = 1; n < 32; n++, row = (row << 1) >>> 0) odd[n] = row;
  gf2Square(even, odd); // two zero bits
  gf2Square(odd, even); // four
  let crc = crcA >>> 0;
  let len = lengthB;
  for (;;) {
    gf2Square(even, odd);
    if (len % 2) crc = gf2Times(even, crc);
    len = Math.floor(len / 2);
    if (len === 0) break;
    gf2Square(odd, even);
    if (len % 2) crc = gf2Times(odd, crc);
    len = Math.floor(len / 2);
    if (len === 0) break;
  }
  return (crc ^ crcB) >>> 0;
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
