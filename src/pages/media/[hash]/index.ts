import type { APIRoute } from 'astro';
import { errorResponse } from '@/lib/server/infra/http';

/** /media/{hash}: an uploaded picture as stored (always re-encoded WebP), or a rendition source. */
export const GET: APIRoute = async ({ params, locals }) => {
  const hash = params.hash ?? '';
  if (!/^[a-f0-9]{32}$/.test(hash)) return new Response('Not found', { status: 404 });
  try {
    const img = await locals.services.media.original(hash);
    // SVG sources are rasterised for clients; only raster originals are served as stored.
    if (img.contentType === 'image/svg+xml') return new Response('Not found', { status: 404 });
    return new Response(img.bytes, {
      headers: {
        'content-type': img.contentType,
        'cache-control': 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'",
        etag: `"${hash}"`,
      },
    });
  } catch (err) {
    return errorResponse(err, locals.requestId, locals.log);
  }
};
