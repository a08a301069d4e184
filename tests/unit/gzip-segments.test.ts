import { gunzipSync, crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { compressSegment, crc32Combine, crc32Shift, crc32Shifted, joinGzip } from '@/lib/server/storefront/gzip-segments';

describe('a gzip file joined from separately compressed pieces', () => {
  it('combines CRC-32s as if computed over the whole', () => {
    const a = Buffer.from('The Naledi tote, ');
    const b = Buffer.from('in grained leather. '.repeat(1000));
    expect(crc32Combine(crc32(a), crc32(b), b.length)).toBe(crc32(Buffer.concat([a, b])));
    expect(crc32Combine(crc32(a), crc32(Buffer.alloc(0)), 0)).toBe(crc32(a));
  });

  it('a shift made once for a length moves any CRC-32 on by that many bytes', () => {
    for (const length of [1, 2, 3, 7, 8, 255, 256, 4096, 65_537, 117_252]) {
      const shift = crc32Shift(length);
      const b = randomBytes(length);
      for (const a of [Buffer.alloc(0), Buffer.from('x'), randomBytes(1000)]) {
        expect((crc32Shifted(shift, crc32(a)) ^ crc32(b)) >>> 0, `length ${length}`).toBe(crc32(Buffer.concat([a, b])));
      }
    }
  });

  it('unpacks to the pieces in order, and one piece can be replaced', async () => {
    const texts = ['<rss>', '<item>one</item>'.repeat(5000), '', '<item>two &amp; three</item>', '</rss>'].map((t) => Buffer.from(t));
    const segments = await Promise.all(texts.map(compressSegment));
    expect(gunzipSync(joinGzip(segments)).toString()).toBe(Buffer.concat(texts).toString());
    segments[3] = await compressSegment(Buffer.from('<item>four</item>'));
    expect(gunzipSync(joinGzip(segments)).toString()).toBe(`<rss>${'<item>one</item>'.repeat(5000)}<item>four</item></rss>`);
  });
});
