/**
 * Image URLs. Every image is served by content hash at a fixed set of widths, so
 * URLs never change meaning and can be cached for a year.
 */
export const IMAGE_WIDTHS = [160, 320, 480, 640, 960, 1280, 1600] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];
export const IMAGE_FORMATS = ['avif', 'webp'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** Shown when a product has no image or its image fails to load. */
export const PLACEHOLDER_IMAGE = '/placeholder-product.svg';

export function imageUrl(hash: string, width: ImageWidth, format: ImageFormat = 'webp'): string {
  return `/media/${hash}/${width}.${format}`;
}

/** Reads the hash back from one of our image URLs (null for any other URL). */
export function hashFromImageUrl(url: string): string | null {
  const m = /^\/media\/([a-f0-9]{16,64})(?:\/|$)/.exec(url);
  return m?.[1] ?? null;
}

export function srcset(hash: string, format: ImageFormat, widths: readonly ImageWidth[] = IMAGE_WIDTHS): string {
  return widths.map((w) => `${imageUrl(hash, w, format)} ${w}w`).join(', ');
}

export function isImageWidth(n: number): n is ImageWidth {
  return (IMAGE_WIDTHS as readonly number[]).includes(n);
}
