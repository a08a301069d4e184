import type { ImgHTMLAttributes } from 'react';
import type { PictureSources } from '@/lib/client/pictures';

type Props = { pic: PictureSources; sizes: string; alt: string } & Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'srcSet' | 'sizes' | 'alt'>;

/**
 * A catalogue image (see pictureSources): the AVIF and WebP sources when there are any, then
 * the <img> fallback with the attributes given. Islands use this; Astro pages use Picture.astro.
 */
export function Picture({ pic, sizes, ...img }: Props) {
  return (
    <picture>
      {pic.avif && <source type="image/avif" srcSet={pic.avif} sizes={sizes} />}
      {pic.webp && <source type="image/webp" srcSet={pic.webp} sizes={sizes} />}
      <img src={pic.src} {...img} />
    </picture>
  );
}
