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

/** Widths offered for a cart or checkout line's small picture (112 CSS px at most). */
export const LINE_WIDTHS: readonly ImageWidth[] = [160, 320];

/** Widths offered for product cards: a card is at most ~320 CSS px wide, so up to 2x of that. */
export const CARD_WIDTHS: readonly ImageWidth[] = [160, 320, 480, 640];
/**
 * `sizes` for cards in the 2/3/4/5-column grids: a column is the width less the container's padding
 * and the gaps (global.css .container, .product-grid), so a 360 px phone at 1x takes the 160 px
 * rendition its 158 px cards need, not the 320 px one.
 */
export const CARD_SIZES =
  '(min-width: 1280px) calc(20vw - 27px), (min-width: 1024px) calc(25vw - 30px), (min-width: 768px) calc(33.3vw - 34px), (min-width: 640px) calc(33.3vw - 23px), calc(50vw - 22px)';
