import { hashFromImageUrl, imageUrl, IMAGE_WIDTHS, PLACEHOLDER_IMAGE, srcset, type ImageWidth } from '@/lib/domain/images';

/**
 * What a <picture> needs for one catalogue image. Our own images (/media/{hash}/...)
 * get AVIF and WebP srcsets; anything else is used as is; no image at all becomes
 * the placeholder. Shared by server-rendered cards and the islands' cards.
 */
export interface PictureSources {
  src: string;
  avif?: string;
  webp?: string;
}

/** With Save-Data, renditions wider than this are not offered (the smallest one always is). */
export const SAVE_DATA_MAX_WIDTH = 480;

export function pictureSources(
  url: string | null | undefined,
  widths: readonly ImageWidth[] = IMAGE_WIDTHS,
  fallbackWidth: ImageWidth = 640,
  opts: { saveData?: boolean } = {},
): PictureSources {
  if (!url) return { src: PLACEHOLDER_IMAGE };
  const hash = hashFromImageUrl(url);
  if (!hash) return { src: url };
  let offered = widths;
  let fallback = fallbackWidth;
  if (opts.saveData) {
    const small = widths.filter((w) => w <= SAVE_DATA_MAX_WIDTH);
    offered = small.length ? small : widths.slice(0, 1);
    fallback = offered.includes(fallback) ? fallback : offered[offered.length - 1]!;
  }
  return { src: imageUrl(hash, fallback, 'webp'), avif: srcset(hash, 'avif', offered), webp: srcset(hash, 'webp', offered) };
}

/** Widths offered for product cards: a card is at most ~320 CSS px wide, so up to 2x of that. */
export const CARD_WIDTHS: readonly ImageWidth[] = [160, 320, 480, 640];
/** `sizes` for cards in the 2/3/4/5-column grids. */
export const CARD_SIZES = '(min-width: 1280px) 20vw, (min-width: 1024px) 25vw, (min-width: 640px) 33vw, 50vw';
