import { createHash } from 'node:crypto';
import { and, eq, like, notExists, or } from 'drizzle-orm';
import sharp from 'sharp';
import { NotFound } from '@/lib/domain/errors';
import { message } from '@/lib/domain/messages';
import type { ImageFormat, ImageWidth } from '@/lib/domain/images';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '@/lib/server/infra/db/client';
import { media } from '@/lib/server/infra/tables';

export function contentHash(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 32);
}

export interface StoredImage {
  contentType: string;
  bytes: Uint8Array<ArrayBuffer>;
}

const contentTypes: Record<ImageFormat, string> = { avif: 'image/avif', webp: 'image/webp' };

/**
 * Images by content hash. Sources (generated SVG art, uploaded pictures) are stored once;
 * renditions at a given width and format are made on first request with sharp and kept in
 * the media table, so every app server shares them.
 */

/**
 * A column that names an image by its hash (a profile's picture, a product's image, a category's
 * banner): the features that show images hand theirs in, and an image one of them names is in use.
 */
export type MediaReference = PgColumn;

export function createMediaService({ db, references }: { db: Db; references: readonly MediaReference[] }) {
  async function load(hash: string): Promise<StoredImage | null> {
    const [row] = await db
      .select({ contentType: media.contentType, bytes: media.bytes })
      .from(media)
      .where(eq(media.hash, hash))
      .limit(1);
    return row ? { contentType: row.contentType, bytes: new Uint8Array(row.bytes) } : null;
  }

  return {
    /** Stores a source image and returns its hash; storing the same bytes twice is a no-op. */
    async store(bytes: Uint8Array, contentType: string, size?: { width: number; height: number }): Promise<string> {
      const hash = contentHash(bytes);
      await db
        .insert(media)
        .values({ hash, contentType, bytes, width: size?.width ?? null, height: size?.height ?? null })
        .onConflictDoNothing();
      return hash;
    },

    /**
     * Deletes a source image and its renditions once nothing shows it any more (no profile,
     * product or category refers to it), e.g. a profile picture just replaced. One statement
     * per table, each guarded by the same check, so an image in use is never removed.
     */
    async discardIfUnused(hash: string): Promise<void> {
      const unused = and(...references.map((column) => notExists(db.select({ x: column }).from(column.table).where(eq(column, hash)))));
      await db.delete(media).where(and(or(eq(media.hash, hash), like(media.hash, `${hash}.%`)), unused));
    },

    async original(hash: string): Promise<StoredImage> {
      const found = await load(hash);
      if (!found) throw new NotFound(message('image-not-found'));
      return found;
    },

    async rendition(hash: string, width: ImageWidth, format: ImageFormat): Promise<StoredImage> {
      const key = `${hash}.${width}.${format}`;
      const cached = await load(key);
      if (cached) return cached;
      const source = await load(hash);
      if (!source) throw new NotFound(message('image-not-found'));
      // SVG art is rasterised at the target width; density keeps vector edges crisp.
      const input = sharp(Buffer.from(source.bytes), source.contentType === 'image/svg+xml' ? { density: 144 } : {});
      const pipeline = input.resize({ width, withoutEnlargement: source.contentType !== 'image/svg+xml' });
      const out =
        format === 'avif' ? await pipeline.avif({ quality: 55, effort: 2 }).toBuffer() : await pipeline.webp({ quality: 78 }).toBuffer();
      const bytes = new Uint8Array(out);
      await db.insert(media).values({ hash: key, contentType: contentTypes[format], bytes }).onConflictDoNothing();
      return { contentType: contentTypes[format], bytes };
    },
  };
}
export type MediaService = ReturnType<typeof createMediaService>;
