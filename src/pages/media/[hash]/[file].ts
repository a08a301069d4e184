import type { APIRoute } from 'astro';
import { IMAGE_FORMATS, isImageWidth, type ImageFormat } from '@/lib/domain/images';
import { errorResponse } from '@/lib/server/infra/http';

const immutable = 'public, max-age=31536000, immutable';

/** /media/{hash}/{width}.{avif|webp}: a rendition of a stored image. */
export const GET: APIRoute = async ({ params, locals }) => {
  const m = /^(\d+)\.(avif|webp)$/.exec(params.file ?? '');
  const hash = params.hash ?? '';
  const width = Number(m?.[1]);
  if (!m || !/^[a-f0-9]{32}$/.test(hash) || !isImageWidth(width) || !IMAGE_FORMATS.includes(m[2] as ImageFormat)) {
    return new Response('Not found', { status: 404 });
  }
  try {
    const img = await locals.services.media.rendition(hash, width, m[2] as ImageFormat);
    // Named by its content and immutable, a rendition is never revalidated, so it carries no ETag;
    // its length up front spares a small picture the chunked framing (a page on a phone loads dozens).
    return new Response(img.bytes, {
      headers: { 'content-type': img.contentType, 'content-length': String(img.bytes.byteLength), 'cache-control': immutable, 'x-content-type-options': 'nosniff' },
    });
  } catch (err) {
    return errorResponse(err, locals.requestId, locals.log);
  }
};
