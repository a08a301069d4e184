import sharp from 'sharp';
import { AVATAR_MAX_BYTES, AVATAR_MAX_PIXELS } from '@/lib/domain/account-rules';
import { Invalid } from '@/lib/domain/errors';
import { message } from '@/lib/domain/messages';

export const AVATAR_SIZE = 512;
/** Raster formats a phone or camera produces; SVG is refused (it is a document, not a picture). */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);

export interface Avatar {
  bytes: Uint8Array;
  contentType: 'image/webp';
  width: number;
  height: number;
}

/**
 * Checks an uploaded picture by its content (the declared type and file name are ignored):
 * size, a raster format a phone or camera produces, dimensions. Shared by avatars and product images.
 */
export async function checkUploadedImage(input: Uint8Array, maxBytes = AVATAR_MAX_BYTES): Promise<void> {
  if (input.byteLength === 0) throw new Invalid(message('not-an-image'));
  if (input.byteLength >= maxBytes) throw new Invalid(message('image-too-large'));
  let format: string | undefined;
  let pixels = 0;
  try {
    // Reading the header only; the decode that follows is capped by limitInputPixels as well.
    const meta = await sharp(input, { failOn: 'error', limitInputPixels: false }).metadata();
    format = meta.format;
    pixels = (meta.width ?? 0) * (meta.height ?? 0);
  } catch {
    throw new Invalid(message('image-invalid'));
  }
  if (!format || !ACCEPTED_FORMATS.has(format)) throw new Invalid(message('image-invalid'));
  if (pixels > AVATAR_MAX_PIXELS) throw new Invalid(message('image-too-many-pixels'));
}

export const UPLOAD_DECODE_OPTIONS = { limitInputPixels: AVATAR_MAX_PIXELS, failOn: 'error' as const };

/** What a content page's picture may be: the formats editors' cameras and tools save. */
const PAGE_PICTURE_FORMATS = new Set(['jpeg', 'png', 'webp']);
/** A content page's picture is at most this wide: its widest rendition (the page's column is 720 px). */
export const PAGE_PICTURE_MAX_WIDTH = 1600;

/**
 * A content page's picture (JPEG, PNG or WebP): checked like the others, turned upright, re-encoded
 * as WebP at most PAGE_PICTURE_MAX_WIDTH wide with its own proportions.
 */
export async function processPagePicture(input: Uint8Array): Promise<Avatar> {
  await checkUploadedImage(input);
  const meta = await sharp(input, UPLOAD_DECODE_OPTIONS).metadata();
  if (!meta.format || !PAGE_PICTURE_FORMATS.has(meta.format)) throw new Invalid(message('page-picture-format'));
  try {
    const { data, info } = await sharp(input, UPLOAD_DECODE_OPTIONS)
      .rotate()
      .resize({ width: PAGE_PICTURE_MAX_WIDTH, withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true });
    return { bytes: new Uint8Array(data), contentType: 'image/webp', width: info.width, height: info.height };
  } catch {
    throw new Invalid(message('image-invalid'));
  }
}

/**
 * Checks an uploaded picture, then re-encodes it as a square WebP. Re-encoding drops EXIF/GPS
 * and any payload hidden in the file.
 */
export async function processAvatar(input: Uint8Array): Promise<Avatar> {
  await checkUploadedImage(input);
  try {
    const out = await sharp(input, UPLOAD_DECODE_OPTIONS)
      .rotate() // apply the camera's orientation before the metadata is dropped
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover', position: 'attention' })
      .webp({ quality: 82 })
      .toBuffer();
    return { bytes: new Uint8Array(out), contentType: 'image/webp', width: AVATAR_SIZE, height: AVATAR_SIZE };
  } catch {
    throw new Invalid(message('image-invalid'));
  }
}

/** Product and banner pictures: checked like avatars (an import's pictures may be larger: `maxBytes`), re-encoded as WebP at most `maxWidth` wide (4:5 for products). */
export async function processCatalogueImage(input: Uint8Array, shape: 'product' | 'banner', maxBytes = AVATAR_MAX_BYTES): Promise<Avatar> {
  await checkUploadedImage(input, maxBytes);
  const [width, height] = shape === 'product' ? [1200, 1500] : [1600, 700];
  try {
    const out = await sharp(input, UPLOAD_DECODE_OPTIONS)
      .rotate()
      .resize(width, height, { fit: 'cover', position: 'attention' })
      .webp({ quality: 82 })
      .toBuffer();
    return { bytes: new Uint8Array(out), contentType: 'image/webp', width, height };
  } catch {
    throw new Invalid(message('image-invalid'));
  }
}
